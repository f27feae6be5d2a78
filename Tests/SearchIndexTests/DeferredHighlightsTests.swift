import Foundation
import TestSupport
import Testing
@testable import SearchIndex

/// Most results make their highlights when read (`DeferredHighlights`):
/// they must be the highlights the trie's evaluators give the title, on
/// every path a query can take, stay as they were made when the result's
/// title or attributes change, and count in its equality.
@Suite struct DeferredHighlightsTests {
    static let words = [
        "Harbor", "harbour", "harbors", "Route", "66", "route66", "A1b2", "O'Brien", "555-0100", "karen", "KAREN",
        "kar", "karenina", "Lantern", "lanterns", "misanthrope", "misanthropy", "tab", "北极光", "ｋａｒｅｎ", "Zoë",
        "zoe", "karen@example.com",
    ]

    func items(_ seed: UInt64, count: Int) -> [SearchableItem] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            let title = (0..<Int.random(in: 1...5, using: &generator))
                .map { _ in Self.words.randomElement(using: &generator)! }
                .joined(separator: " ")
            return item("d/\(i)", title: title, keywords: [Self.words.randomElement(using: &generator)!])
        }
    }

    static let queries = [
        "k", "ka", "kar", "karen", "kraen", "karenina", "kraenina", "harbor", "harbour", "harbro", "xarbor", "arbour",
        "lanter", "lantren", "route 6", "route66", "555", "5550100", "o", "obrien", "a1", "karen lan", "zoe", "zo",
        "北", "北极", "misantrhope", "misanthropi", "tab karen", "66 har", "ｋａｒ",
    ]

    /// The highlights the evaluators (which walk the trie) give `result`'s title for `text`.
    func evaluated(_ result: SearchResult, _ text: String, in e: SearchEngine) -> [Highlight] {
        let terms = Tokenizer.queryTerms(text)
        var evaluators = terms.map { TermEvaluator(matches: e.termMatches.matches(for: $0, in: e.trie)) }
        var title = result.title
        return title.withUTF8 {
            e.highlights(
                ofUTF8: $0, field: "title", terms: terms, termsAreASCII: SearchEngine.areASCII(terms), probes: nil,
                evaluators: &evaluators)
        }.list
    }

    /// Through best lists, field maps and the scan (enumeration makes
    /// its results' highlights with the evaluators themselves).
    @Test func deferredHighlightsAreTheEvaluators() {
        let e = mappedAndEnumeratingEngines(items(31, count: 400), mapMinimum: 8).mapped
        var deferred = 0, highlighted = 0
        for text in Self.queries {
            for result in e.search(SearchQuery(text, limit: 10_000, now: referenceNow, explainsMatches: false)).results {
                if case .deferred = result.highlighting { deferred += 1 }
                let highlights = result.highlights
                if !highlights.isEmpty { highlighted += 1 }
                #expect(highlights == evaluated(result, text, in: e), "\(text): \(result.uniqueIdentifier) \(result.title)")
            }
        }
        // Most results defer, and most have something to highlight: the
        // comparison above is not of empty lists.
        #expect(deferred > 2_000)
        #expect(highlighted > 2_000)
    }

    @Test func highlightsStayAsMadeWhenTheTitleOrAttributesChange() throws {
        let e = engine([item("h/1", title: "Harbor lights"), item("h/2", title: "Karen Harbour")])
        var result = try #require(e.search(SearchQuery("harb", now: referenceNow)).results.first)
        guard case .deferred = result.highlighting else {
            Issue.record("a one-term prefix's result makes its highlights when read")
            return
        }
        let made = result.highlights
        #expect(made == [Highlight(field: "title", start: 0, length: 4)])
        result.title = "Lights of the harbor"
        #expect(result.highlights == made)
        #expect(result.title == "Lights of the harbor")

        var other = try #require(e.search(SearchQuery("harb", now: referenceNow)).results.first)
        other.attributes = AttributeSet(contentType: "public.item", title: "Over the harbor")
        #expect(other.highlights == made)
        #expect(other.title == "Harbor lights")
    }

    @Test func resultsAreEqualExactlyWhenTheirHighlightsAre() throws {
        let e = engine([item("h/1", title: "Harbor lights")])
        let deferred = try #require(e.search(SearchQuery("harb", now: referenceNow)).results.first)
        var made = deferred
        made.highlights = deferred.highlights
        guard case .deferred = deferred.highlighting, case .made = made.highlighting else {
            Issue.record("one result defers, the other holds its list")
            return
        }
        #expect(deferred == made)
        #expect(deferred.hashValue == made.hashValue)
        var other = deferred
        other.highlights = [Highlight(field: "title", start: 7, length: 6)]
        #expect(deferred != other)
    }
}
