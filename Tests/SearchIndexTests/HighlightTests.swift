import Foundation
import TestSupport
import Testing
@testable import SearchIndex
@testable import SearchText

/// Plain ASCII titles are highlighted without the tokenizer; every other
/// title through it. Each title here has a twin with a CJK character
/// after it (which sends the twin through the tokenizer and matches no
/// query here): both must get the same highlights.
@Suite struct HighlightTests {
    static let words = [
        "Harbor", "harbour", "Route", "66", "A1b2", "O'Brien", "co.,", "555-0100", "(555)", "010",
        "ka.ren@example.com", "x@y", "karen", "KAREN", "kar", "Lantern", "lanterns", "4.12", "\r\n", "\t",
        "tab", "misanthrope", "-", "route66",
    ]

    func pairs(_ seed: UInt64, count: Int) -> [SearchableItem] {
        var generator = SeededGenerator(seed: seed)
        var items: [SearchableItem] = []
        for i in 0..<count {
            let title = (0..<Int.random(in: 1...5, using: &generator))
                .map { _ in Self.words.randomElement(using: &generator)! }
                .joined(separator: " ")
            items.append(item("p/\(i)", title: title))
            items.append(item("t/\(i)", title: title + " 一"))
        }
        return items
    }

    @Test(arguments: [false, true])
    func plainTitlesAreHighlightedAsTheTokenizerWould(bestLists: Bool) throws {
        var e = engine(pairs(21, count: 300))
        if bestLists {
            e.topListThreshold = 10
            e.warmTopLists()
        }
        let queries = [
            "k", "ka", "kar", "karen", "kraen", "harbor", "harbour", "lanter", "lantren", "route 6", "route66",
            "555", "5550100", "555010", "010", "o", "obrien", "brien", "a1", "ka ren", "karen lan", "co", "x",
            "example", "misantrhope", "misanthropy", "tab karen", "4", "412", "66 har",
        ]
        var compared = 0
        for text in queries {
            let response = e.search(SearchQuery(text, limit: 10_000, now: referenceNow))
            let byID = Dictionary(uniqueKeysWithValues: response.results.map { ($0.uniqueIdentifier, $0.highlights) })
            for (id, highlights) in byID where id.hasPrefix("p/") {
                let twin = try #require(byID["t/" + id.dropFirst(2)], "\(text): \(id)")
                #expect(highlights == twin, "\(text): \(id)")
                if !highlights.isEmpty { compared += 1 }
            }
        }
        // The queries reach many titles, plain and not.
        #expect(compared > 1_000)
    }

    /// The word-at-a-time check finds each byte the plain-text rules look
    /// at (beyond ASCII, carriage return, `@`, digits) wherever it lies,
    /// in texts of every length around a word's, and nothing else: every
    /// byte value, in every position of texts of 1 to 19 letters.
    @Test func eachByteThePlainRulesReadIsFoundWhereverItLies() {
        func isCandidate(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == 0x0D || byte == UInt8(ascii: "@") || (byte >= 0x30 && byte <= 0x39)
        }
        var wrong: [String] = []
        for length in 1...19 {
            for position in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "k"), count: length)
                    bytes[position] = UInt8(value)
                    let found = bytes.withUnsafeBufferPointer { Tokenizer.containsNonPlainCandidate($0) }
                    if found != isCandidate(UInt8(value)) { wrong.append("\(length)/\(position)/\(value)") }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        #expect(![UInt8]().withUnsafeBufferPointer { Tokenizer.containsNonPlainCandidate($0) })
        let text = Array("Misatonve Mianrabri, Cozo-Zofordlen (the ~last~ one)!".utf8)
        #expect(!text.withUnsafeBufferPointer { Tokenizer.containsNonPlainCandidate($0) })
    }

    /// A typo in a term's first letter matches tokens that start with
    /// another letter than the term: each is highlighted whole, and the
    /// title's other words (whose first letters no match starts with)
    /// are not.
    @Test func typoMatchesStartingWithAnotherLetterAreHighlighted() throws {
        let e = engine([
            item("h/1", title: "Harbor lights"),
            item("h/2", title: "Karen Harbour"),
            item("h/3", title: "Quiet arbors and harbors"),
        ])
        func highlights(_ text: String) -> [String: [Highlight]] {
            let results = e.search(SearchQuery(text, limit: 10, now: referenceNow)).results
            return Dictionary(uniqueKeysWithValues: results.map { ($0.uniqueIdentifier, $0.highlights) })
        }
        // A substituted first letter: "xarbor" is "harbor" (and a prefix
        // of "harbors"), and "arbor" (a prefix of "arbors") with its first
        // letter dropped; "harbour" is two typos away.
        let substituted = highlights("xarbor")
        #expect(substituted["h/1"] == [Highlight(field: "title", start: 0, length: 6)])
        #expect(substituted["h/2"] == nil)
        #expect(substituted["h/3"] == [
            Highlight(field: "title", start: 6, length: 6), Highlight(field: "title", start: 17, length: 7),
        ])
        // A first letter left out: "arbour" is "harbour" with one inserted,
        // and "arbor" (a prefix of "arbors", not "and") with one dropped.
        let shortened = highlights("arbour")
        #expect(shortened["h/2"] == [Highlight(field: "title", start: 6, length: 7)])
        #expect(shortened["h/3"] == [Highlight(field: "title", start: 6, length: 6)])
        #expect(shortened["h/1"] == nil)
    }

    /// A title of CJK characters, found by an ASCII term in another field,
    /// has nothing to highlight, and is decided without the tokenizer; a
    /// title with anything an ASCII term can reach (an ASCII word, or a
    /// full-width one, which folds to ASCII) still has its highlights.
    @Test func cjkTitlesFoundByASCIITermsHaveNoHighlights() throws {
        let e = engine([
            item("c/1", title: "北极光 夜空", keywords: ["karenina"]),
            item("c/2", title: "東京・タワー 夜", keywords: ["karenina"]),
            item("c/3", title: "Karenina 北极", keywords: ["karenina"]),
            item("c/4", title: "ｋａｒｅｎｉｎａ 北极", keywords: ["karenina"]),
        ])
        for text in ["k", "kar", "karenina", "kraenina", "karenina 北"] {
            let results = e.search(SearchQuery(text, limit: 10, now: referenceNow)).results
            let byID = Dictionary(uniqueKeysWithValues: results.map { ($0.uniqueIdentifier, $0.highlights) })
            if !text.contains("北") {
                #expect(byID["c/1"] == [], "\(text)")
                #expect(byID["c/2"] == [], "\(text)")
            }
            #expect(byID["c/3"]?.first?.start == 0, "\(text)")
            #expect(byID["c/4"]?.first?.start == 0, "\(text)")
        }
        #expect(SearchEngine.isBeyondASCIITerms("北极光 夜空", terms: ["k"]))
        #expect(SearchEngine.isBeyondASCIITerms("東京・タワー 夜", terms: ["kar", "karenina"]))
        #expect(!SearchEngine.isBeyondASCIITerms("北极光 夜空", terms: ["北"]))
        #expect(!SearchEngine.isBeyondASCIITerms("Karenina 北极", terms: ["k"]))
        #expect(!SearchEngine.isBeyondASCIITerms("ｋａｒｅｎ 北极", terms: ["k"]))
        #expect(!SearchEngine.isBeyondASCIITerms("plain title", terms: ["k"]))
    }
}
