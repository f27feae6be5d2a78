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
