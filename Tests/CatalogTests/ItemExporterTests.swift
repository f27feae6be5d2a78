import Foundation
import TestSupport
import Testing
import Catalog
import SearchModel

/// `ItemExporter.plainLine` writes `index export`'s lines by hand. Its
/// lines must be the bytes Foundation's path writes (the export's
/// definition: `JSONEncoder`, read back and written again by
/// `JSONSerialization` with sorted keys), and it must refuse (nil) what
/// it cannot write so.
@Suite struct ItemExporterTests {
    /// The line as the export writes it through Foundation.
    static func viaFoundation(_ record: IndexRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = StoredDate.encodingStrategy
        var object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(record.item)) as? [String: Any])
        object["source"] = record.source.rawValue
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func everyBundledItemIsWrittenAsFoundationWritesIt() throws {
        let items = try FixtureCatalog.items(in: dataDirectory)
        var plain = 0
        for item in items {
            for source in [Source.item, .web] {
                let record = IndexRecord(source: source, item: item)
                guard let line = ItemExporter.plainLine(record) else { continue }
                plain += 1
                #expect(line == (try Self.viaFoundation(record)))
            }
        }
        // Every one is plain.
        #expect(plain == items.count * 2)
    }

    /// Texts with what JSON escapes, what a terminal filters, and what
    /// only a hand-made writer could get wrong.
    static let texts = [
        "Brent Reid", "say \"hi\"", #"back\slash"#, "a/b/c", "https://h.example/p?q=1&r=2", "Tromsø", "北极光",
        "Zoë 🦭", "e\u{301}", "line\u{2028}sep", "bidi \u{202E}gnp.exe", "nbsp\u{00A0}", "\u{200B}zero width", "",
        "tab\there", "new\nline", "bell\u{7}", "del\u{7F}", "c1 \u{85} next",
    ]

    /// Keys whose order Foundation decides its own way: digits compared
    /// as numbers, case ignored, accents and symbols.
    static let extraKeys = ["k9", "k10", "K1", "a", "B", "b", "é", "É", "e", "_x", "1", "01", "10", "z z", "Ünï", "北", "key\"q\""]

    static func extras(_ generator: inout SeededGenerator) -> [String: String] {
        guard Int.random(in: 0..<3, using: &generator) == 0 else { return [:] }
        let keys = extraKeys.shuffled(using: &generator).prefix(Int.random(in: 1...extraKeys.count, using: &generator))
        return Dictionary(uniqueKeysWithValues: keys.map { ($0, texts.randomElement(using: &generator)!) })
    }

    static func randomItem(_ generator: inout SeededGenerator, index: Int) -> SearchableItem {
        func text() -> String { texts.randomElement(using: &generator)! }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &generator) ? value() : nil }
        func list() -> [String] { (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() } }
        let hints: [Double?] = [nil, 0, -0.0, 2, 3.5, 1e14, 1e16, 0.1, 65_535, 2.5e-5]
        let ratings: [Double?] = [nil, nil, 4.5, 4, 0, -0.0, 3.14159, 1e-7, 2.5e-5, 0.1, 1e16, 123_456_789, -2, 5e300, 1.0 / 3]
        let thumbnail = maybe(Thumbnail(
            format: maybe(text()), width: maybe(Int.random(in: -10...4_000, using: &generator)),
            height: maybe(Int.random(in: -10...4_000, using: &generator)), byteCount: maybe(Int.random(in: 0...Int(1e15), using: &generator)),
            dominantColor: maybe("#5C43FA"), caption: maybe(text())))
        let set = AttributeSet(
            contentType: Bool.random(using: &generator) ? "public.image" : text(), title: maybe(text()), displayName: maybe(text()),
            contentDescription: maybe(text()), keywords: list(), thumbnail: thumbnail, phoneNumbers: list(),
            emailAddresses: list(), supportsPhoneCall: maybe(Bool.random(using: &generator)),
            rating: ratings.randomElement(using: &generator)!, relatedUniqueIdentifier: maybe(text()),
            url: maybe(text()), extras: extras(&generator),
            rankingHint: hints.randomElement(using: &generator)!)
        let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_798_761_600), Date.distantFuture, Date.distantPast]
        return SearchableItem(
            uniqueIdentifier: Bool.random(using: &generator) ? "photo/\(index)" : text() + "/\(index)",
            domainIdentifier: maybe(text()), expirationDate: maybe(dates.randomElement(using: &generator)!),
            attributeSet: set, visibility: Visibility.allCases.randomElement(using: &generator)!)
    }

    @Test func everyPlainLineIsFoundationsAndEveryOtherIsRefused() throws {
        var generator = SeededGenerator(seed: 74)
        var plain = 0
        for index in 0..<3_000 {
            let record = IndexRecord(source: [.item, .web].randomElement(using: &generator)!, item: Self.randomItem(&generator, index: index))
            let expected = try Self.viaFoundation(record)
            guard let line = ItemExporter.plainLine(record) else {
                // Refused: it holds what only Foundation writes.
                let set = record.item.attributeSet
                let controls = expected.contains("\\n") || expected.contains("\\t") || expected.contains("\\u")
                func minusZero(_ value: Double?) -> Bool { value.map { $0 == 0 && $0.sign == .minus } == true }
                #expect(minusZero(set.rating) || minusZero(set.rankingHint)
                        || controls || expected.unicodeScalars.contains("\u{7F}"), "\(expected)")
                continue
            }
            plain += 1
            #expect(line == expected)
        }
        #expect(plain > 100)
    }
}
