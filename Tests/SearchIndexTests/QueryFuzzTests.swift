import Foundation
import PropertyBased
import Testing
@testable import SearchIndex

/// Any text is a query: the engine answers, never crashes, and every result
/// it returns matches every term.
@Suite struct QueryFuzzTests {
    static let index = engine([
        item("a/1", title: "Brent Reid", emails: ["brent.reid@example.com"], phones: ["+1 (555) 010-2001"]),
        item("a/2", title: "北极光 aurora", keywords: ["极光"]),
        item("a/3", title: "Zoë Ｍarchetti", description: "a\u{1B}[2J escape \u{7} bell"),
    ])

    @Test func anyQueryIsAnswered() async {
        let scalar = Gen<Character>.character(in: "\u{0}"..."\u{D7FF}")  // no surrogates
        await propertyCheck(count: 2_000, input: scalar.string(of: 0...30)) { (text: String) in
            let response = Self.index.search(SearchQuery(text, limit: 10, now: referenceNow))
            #expect(response.results.count <= 10)
            #expect(response.total >= response.results.count)
        }
    }

    @Test func queriesBuiltFromIndexedWordsMatchEveryTerm() async {
        let words = ["bre", "brent", "reid", "北", "北极", "aur", "zoe", "march", "555-010", "brent.reid@", "esc", "bell", "极光"]
        let word = Gen<String?>.element(of: words).map { $0 ?? "" }
        await propertyCheck(count: 500, input: word.array(of: 1...3)) { (terms: [String]) in
            let response = Self.index.search(SearchQuery(terms.joined(separator: " "), limit: 10, now: referenceNow))
            for result in response.results {
                #expect(result.explanation.matches.count == Tokenizer.queryTerms(terms.joined(separator: " ")).count)
            }
        }
    }

    @Test func longAndControlHeavyQueries() {
        // Past the limits a query is refused (callers say why) and costs nothing.
        let long = String(repeating: "brent ", count: 5_000)
        #expect(QueryLimits.problem(with: long) != nil)
        #expect(Self.index.search(SearchQuery(long, now: referenceNow)).total == 0)
        let most = String(repeating: "brent ", count: QueryLimits.maximumTerms)
        #expect(QueryLimits.problem(with: most) == nil)
        #expect(Self.index.search(SearchQuery(most, now: referenceNow)).results.map(\.uniqueIdentifier) == ["a/1"])
        #expect(QueryLimits.problem(with: String(repeating: "brent ", count: QueryLimits.maximumTerms + 1)) != nil)
        _ = Self.index.search(SearchQuery(String(repeating: "\u{1B}", count: 10_000), now: referenceNow))
        _ = Self.index.search(SearchQuery(String(repeating: "x", count: 100_000), now: referenceNow))
    }
}
