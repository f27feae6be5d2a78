import Foundation
import TestSupport
import Testing
@testable import SearchIndex

/// A result keeps up to two title ranges without an array: every list
/// must read back as it was given, and two lists must be equal (and hash
/// alike) exactly when their highlights are.
@Suite struct HighlightListTests {
    static let samples: [Highlight] = [
        Highlight(field: "title", start: 0, length: 4),
        Highlight(field: "title", start: 5, length: 1),
        Highlight(field: "title", start: 7, length: 0),
        Highlight(field: "title", start: Int(UInt32.max) + 1, length: 2),
        Highlight(field: "title", start: 3, length: Int(UInt32.max) + 1),
        Highlight(field: "title", start: -1, length: 2),
        Highlight(field: "keywords", start: 0, length: 4),
        Highlight(field: "titles", start: 0, length: 4),
    ]

    func lists(_ seed: UInt64, count: Int) -> [[Highlight]] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...4, using: &generator)).map { _ in Self.samples.randomElement(using: &generator)! }
        }
    }

    @Test func everyListReadsBackAsGiven() {
        for highlights in lists(3, count: 2_000) {
            #expect(HighlightList(highlights).list == highlights)
            var appended = HighlightList()
            for highlight in highlights { appended.append(highlight) }
            #expect(appended.list == highlights)
            #expect(appended == HighlightList(highlights))
        }
    }

    @Test func listsAreEqualExactlyWhenTheirHighlightsAre() {
        let all = lists(5, count: 300) + [[], [Self.samples[0]], [Self.samples[0], Self.samples[1]]]
        for a in all {
            for b in all {
                #expect((HighlightList(a) == HighlightList(b)) == (a == b))
                if a == b { #expect(HighlightList(a).hashValue == HighlightList(b).hashValue) }
            }
        }
    }

    @Test func aResultsHighlightsCanBeSetAndRead() throws {
        var result = try #require(engine([item("a", title: "Harbor lights")]).search(SearchQuery("har li", now: referenceNow)).results.first)
        #expect(result.highlights == [Highlight(field: "title", start: 0, length: 3), Highlight(field: "title", start: 7, length: 2)])
        let three = [Self.samples[0], Self.samples[1], Self.samples[6]]
        result.highlights = three
        #expect(result.highlights == three)
    }
}
