import Foundation
import PropertyBased
import TestSupport
import Testing
@testable import Catalog
@testable import SearchIndex

/// `SearchableItem(plainJSON:)` is the importer's and the store's fast reader.
/// It must read every plain item as `Codable` does, and refuse (nil) whatever
/// it cannot read exactly so, leaving errors to `Codable`.
@Suite struct PlainJSONTests {
    static func plain(_ text: String) -> SearchableItem? {
        Array(text.utf8).withUnsafeBufferPointer(SearchableItem.init(plainJSON:))
    }

    /// What the importer's `Codable` path makes of the text, or nil for an error.
    static func viaCodable(_ text: String) -> SearchableItem? {
        try? JSONValueDecoder.decode(SearchableItem.self, from: Array(text.utf8)[...], file: "t", line: 1)
    }

    /// The store's decoder (`StoredDate`'s dates).
    static func viaStoreDecoder(_ text: String) -> SearchableItem? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = StoredDate.decodingStrategy
        return try? decoder.decode(SearchableItem.self, from: Data(text.utf8))
    }

    static let readable: [String] = [
        ##"{"uniqueIdentifier": "employee/0", "domainIdentifier": "com.example.colleagues.employee", "attributeSet": {"contentType": "public.contact", "title": "Ouston Entwickzoel", "contentDescription": "lenou saramiber", "keywords": ["imsonli", "hochveson"], "thumbnail": {"format": "jpeg", "width": 120, "height": 90, "byteCount": 37040, "dominantColor": "#5C43FA"}, "emailAddresses": ["ouston.entwickzoel@example.com"], "phoneNumbers": ["555-0000"]}}"##,
        #"{"uniqueIdentifier":"photo/1","attributeSet":{}}"#,
        #"  {"attributeSet":{"title":"北极光 夜景","displayName":"Zoë"},"uniqueIdentifier":"photo/2","visibility":"public"}  "#,
        #"{"uniqueIdentifier":"a\"b\\c\/d\n\t\r\b\f","attributeSet":{"title":"\u00e9\u4E2D\ud83d\ude00 x","keywords":[]}}"#,
        #"{"uniqueIdentifier":"x/1","domainIdentifier":null,"expirationDate":null,"visibility":null,"attributeSet":{"contentType":null,"title":null,"keywords":null,"thumbnail":null,"extras":null,"rating":null}}"#,
        #"{"uniqueIdentifier":"x/2","expirationDate":"2026-11-22T10:00:00Z","attributeSet":{"rating":4.5,"supportsPhoneCall":true,"extras":{"b":"2","a":"1"},"url":"https://h.example/p","relatedUniqueIdentifier":"x/1"}}"#,
        #"{"uniqueIdentifier":"x/3","expirationDate":"2024-02-29T23:59:59Z","attributeSet":{"rating":-100,"supportsPhoneCall":false,"thumbnail":{"width":0,"height":-7,"byteCount":999999999999999999,"caption":"c"}}}"#,
        #"{"uniqueIdentifier":"x/4","expirationDate":"1970-01-01T00:00:00Z","visibility":"restricted","attributeSet":{"rating":0.1,"thumbnail":{}}}"#,
        "{\"uniqueIdentifier\":\"x/5\",\r\n \"attributeSet\" : { \"title\" : \"tab\u{7F}\u{FFFF}\" } }\r",
        #"{"uniqueIdentifier":"x/6","expirationDate":"1900-03-01T12:30:45Z","attributeSet":{"rating":12345678901234567890}}"#,
    ]

    @Test func readsPlainItemsAsCodableDoes() throws {
        for text in Self.readable {
            let fast = try #require(Self.plain(text), "refused: \(text)")
            #expect(fast == Self.viaCodable(text), "\(text)")
            #expect(fast == Self.viaStoreDecoder(text), "\(text)")
        }
    }

    /// Each of these `Codable` either refuses or might read otherwise.
    @Test func refusesWhatItCannotReadExactly() {
        let refused = [
            #"{"uniqueIdentifier":"a","attributeSet":{},"other":1}"#,                       // unknown key
            #"{"uniqueIdentifier":"\u0000","attributeSet":{"extras":{}}}"#,               // escaped NUL: the importer refuses it
            #"{"uniqueIdentifier":"a","uniqueIdentifier":"b","attributeSet":{}}"#,          // repeated key
            #"{"uniqueIdentifier":"a","attributeSet":{"extras":{"k":"1","k":"2"}}}"#,       // repeated extras key
            #"{"uniqueIdent\u0069fier":"a","attributeSet":{}}"#,                            // escaped key
            #"{"uniqueIdentifier":"a","attributeSet":{"thumbnail":{"width":1.0}}}"#,        // Int written as a fraction
            #"{"uniqueIdentifier":"a","attributeSet":{"thumbnail":{"width":-0}}}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{"thumbnail":{"width":1234567890123456789}}}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{"thumbnail":{"width":9999999999999999999}}}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{"thumbnail":{"width":-9999999999999999999}}}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{"thumbnail":{"width":01}}}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{"rating":1e999}}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{"rating":0e1}}"#,                     // Foundation refuses this one
            #"{"uniqueIdentifier":"a","attributeSet":{"rating":1e2}}"#,
            #"{"uniqueIdentifier":"a\ud800","attributeSet":{}}"#,                           // lone surrogate
            #"{"uniqueIdentifier":"a\udc00\ud800","attributeSet":{}}"#,
            "{\"uniqueIdentifier\":\"a\u{1}\",\"attributeSet\":{}}",                        // raw control character
            #"{"uniqueIdentifier":"a","expirationDate":"2026-11-22","attributeSet":{}}"#,   // non-canonical dates
            #"{"uniqueIdentifier":"a","expirationDate":"2026-02-30T00:00:00Z","attributeSet":{}}"#,
            #"{"uniqueIdentifier":"a","expirationDate":"2026-11-22T10:00:00.5Z","attributeSet":{}}"#,
            #"{"uniqueIdentifier":"a","expirationDate":"2026-11-22T24:00:00Z","attributeSet":{}}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{}} x"#,                               // trailing text
            #"{"uniqueIdentifier":"a","attributeSet":{},}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{"keywords":["a",]}}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{"keywords":[null]}}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{"supportsPhoneCall":truex}}"#,
            #"{"uniqueIdentifier":"a","attributeSet":{"supportsPhoneCall":1}}"#,
            #"{"uniqueIdentifier":"a","visibility":"secret","attributeSet":{}}"#,
            #"{"uniqueIdentifier":null,"attributeSet":{}}"#,
            #"{"uniqueIdentifier":"a"}"#,
            #"{"uniqueIdentifier":"a","attributeSet":null}"#,
            #"["a"]"#, "", "{", "\u{FEFF}{\"uniqueIdentifier\":\"a\",\"attributeSet\":{}}",
        ]
        for text in refused {
            #expect(Self.plain(text) == nil, "\(text)")
        }
        var invalidUTF8 = Array(#"{"uniqueIdentifier":"a","attributeSet":{"title":"x"}}"#.utf8)
        invalidUTF8[invalidUTF8.count - 4] = 0xC3
        #expect(invalidUTF8.withUnsafeBufferPointer(SearchableItem.init(plainJSON:)) == nil)
    }

    /// Damaged lines: whatever the fast reader accepts, `Codable` accepts
    /// and reads as the same item.
    @Test func neverAcceptsWhatCodableReadsOtherwise() async {
        let accepted = Counter()
        let lines = Self.readable.map { Array($0.utf8) }
        let pieces: [[UInt8]] = ["\"", "\\", ",", ":", "{", "}", "[", "]", "null", "1", "-", ".", "e", "\\u00", "\\ud83d", " ", "\u{1}", "é", "\u{FF}"]
            .map { Array($0.utf8) } + [[0xC3], [0xFF], [0x00]]
        await propertyCheck(
            count: 10_000, input: Gen.int(in: 0...(lines.count - 1)), Gen.int(in: 0...10_000), Gen.int(in: 0...2), Gen.int(in: 0...(pieces.count - 1))
        ) { (which: Int, at: Int, kind: Int, piece: Int) in
            var bytes = lines[which]
            let position = at % bytes.count
            switch kind {
            case 0: bytes.remove(at: position)
            case 1: bytes.insert(contentsOf: pieces[piece], at: position)
            default: bytes.replaceSubrange(position...position, with: pieces[piece])
            }
            guard let fast = bytes.withUnsafeBufferPointer(SearchableItem.init(plainJSON:)) else { return }
            accepted.add()
            let codable = try? JSONValueDecoder.decode(SearchableItem.self, from: bytes[...], file: "t", line: 1)
            #expect(fast == codable, "\(String(decoding: bytes, as: UTF8.self))")
        }
        // Damage inside a string often leaves the line readable (about one in ten).
        #expect(accepted.value > 200)
    }

    /// The importer takes the fast reader's items, and still names the first
    /// bad line and field through `Codable`.
    @Test func theImporterGivesTheSameItemsAndErrors() throws {
        // Identifiers with control characters are refused after reading, and
        // one item is written over two lines.
        let lines = Self.readable.filter { !$0.contains(#"\n"#) && !$0.contains(#"\u0000"#) && !$0.utf8.contains(0x0A) }
        #expect(lines.count == Self.readable.count - 2)
        let items = try ItemImporter.items(from: Array(lines.joined(separator: "\n").utf8), file: "in.jsonl")
        #expect(items == lines.map { Self.viaCodable($0)! })
        let bad = Self.readable[0] + "\n" + #"{"uniqueIdentifier":"a","attributeSet":{"thumbnail":{"width":"wide"}}}"#
        #expect(throws: ImportError(file: "in.jsonl", line: 2, field: "attributeSet.thumbnail.width", message: "expected a number")) {
            try ItemImporter.items(from: Array(bad.utf8), file: "in.jsonl")
        }
    }
}

/// Counts across the property check's calls.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// `SearchableItem.plainJSON` writes what the store's `JSONEncoder` writes,
/// byte for byte, or nil.
@Suite struct PlainJSONWriterTests {
    static func viaEncoder(_ item: SearchableItem) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = StoredDate.encodingStrategy
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(item), as: UTF8.self)
    }

    static let awkward = ["", "plain", "a\"b\\c/d", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}\u{7F}", "\u{2028}\u{2029}\u{FEFF}",
                          "北极光", "Zoë", "😀 \u{1F1EB}\u{1F1F7}", "</script>", "e\u{301}"]

    static func randomItem(_ random: inout SeededGenerator) -> SearchableItem {
        func text() -> String {
            (0..<Int.random(in: 1...3, using: &random)).map { _ in awkward.randomElement(using: &random)! }.joined()
        }
        func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &random) ? make() : nil }
        func list() -> [String] { (0..<Int.random(in: 0...3, using: &random)).map { _ in text() } }
        let thumbnail = maybe {
            Thumbnail(format: maybe(text), width: maybe { Int.random(in: -5...5_000, using: &random) },
                      height: maybe { Int.random(in: 0...Int.max, using: &random) }, byteCount: maybe { Int.random(in: Int.min...0, using: &random) },
                      dominantColor: maybe(text), caption: maybe(text))
        }
        let set = AttributeSet(
            contentType: text(), title: maybe(text), displayName: maybe(text), contentDescription: maybe(text), keywords: list(),
            thumbnail: thumbnail, phoneNumbers: list(), emailAddresses: list(), supportsPhoneCall: maybe { Bool.random(using: &random) },
            relatedUniqueIdentifier: maybe(text), url: maybe(text),
            rankingHint: maybe { Double([0, 1, 7_066, 999_999_999_999_999].randomElement(using: &random)!) })
        // Whole seconds from 1900 to 9999, the edges included.
        let date = maybe {
            Date(timeIntervalSince1970: Double(Bool.random(using: &random)
                ? [-2_208_988_800, 253_402_300_799, 0, 951_782_400, -1].randomElement(using: &random)!
                : Int.random(in: -2_208_988_800...253_402_300_799, using: &random)))
        }
        return SearchableItem(uniqueIdentifier: text(), domainIdentifier: maybe(text), expirationDate: date, attributeSet: set,
                              visibility: Visibility.allCases.randomElement(using: &random)!)
    }

    @Test func writesWhatJSONEncoderWrites() throws {
        var random = SeededGenerator(seed: 11)
        let items = PlainJSONTests.readable.compactMap(PlainJSONTests.viaCodable).filter { $0.attributeSet.rating == nil && $0.attributeSet.extras.isEmpty }
            + (0..<3_000).map { _ in Self.randomItem(&random) }
        #expect(items.count > 3_005)
        for item in items {
            let plain = try #require(item.plainJSON, "\(item)")
            #expect(plain == Self.viaEncoder(item))
            // And it reads back as the same item, by the fast reader too
            // unless a number has nineteen digits or a string a NUL (left to Codable).
            let numbers = [item.attributeSet.thumbnail?.width, item.attributeSet.thumbnail?.height, item.attributeSet.thumbnail?.byteCount]
            if numbers.contains(where: { ($0?.magnitude ?? 0) >= 1_000_000_000_000_000_000 }) || plain.contains(#"\u0000"#) {
                #expect(PlainJSONTests.plain(plain) == nil)
                #expect(PlainJSONTests.viaStoreDecoder(plain) == item)
            } else {
                #expect(PlainJSONTests.plain(plain) == item, "\(plain)")
            }
        }
    }

    @Test func leavesToJSONEncoderWhatItWouldGuess() {
        let base = SearchableItem(uniqueIdentifier: "a", attributeSet: AttributeSet(title: "t"))
        #expect(base.plainJSON == Self.viaEncoder(base))
        var rated = base
        rated.attributeSet.rating = 4
        var extras = base
        extras.attributeSet.extras = ["B": "1", "a": "2"]
        var fractionalHint = base
        fractionalHint.attributeSet.rankingHint = 2.5
        for item in [rated, extras, fractionalHint] {
            #expect(item.plainJSON == nil, "\(item)")
        }
    }

    /// Every date has one stored spelling: whole seconds, held to the years 1–9999.
    @Test func writesEveryDateAsTheStoreDoes() {
        let base = SearchableItem(uniqueIdentifier: "a", attributeSet: AttributeSet(title: "t"))
        for (seconds, spelled) in [(10.5, "1970-01-01T00:00:10Z"), (-2_208_988_801, "1899-12-31T23:59:59Z"),
                                   (253_402_300_800, "9999-12-31T23:59:59Z"), (-1e15, "0001-01-01T00:00:00Z")] {
            var item = base
            item.expirationDate = Date(timeIntervalSince1970: seconds)
            #expect(item.plainJSON == Self.viaEncoder(item))
            #expect(item.plainJSON?.contains(#""expirationDate":"\#(spelled)""#) == true, "\(seconds)")
        }
    }
}
