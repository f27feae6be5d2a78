import Foundation
import TestSupport
import Testing
@testable import SearchIndex

/// Filters in the query (SPEC 2): they restrict without ranking, on every
/// path a query can take, and a filter alone lists what it admits.
@Suite struct FilterTests {
    static let kinds = ["public.image", "public.movie", "public.contact", "public.item"]

    func engine(seed: UInt64) -> SearchEngine {
        var items = ScanTests().corpus(seed, count: 1_500)
        for index in items.indices { items[index].attributeSet.contentType = Self.kinds[index % 4] }
        var engine = SearchEngine()
        engine.index(Array(items.prefix(1_300)))
        engine.index(Array(items.suffix(200)), source: .web)
        for id in engine.records.keys.sorted().prefix(40) {
            engine.becomeCurrent(activity(for: id), at: referenceNow.addingTimeInterval(-3_600))
        }
        return engine
    }

    /// What a filter should let through, judged from the result alone.
    func admits(_ result: SearchResult, _ filters: QueryFilters) -> Bool {
        (filters.contentTypes.isEmpty || filters.contentTypes.contains(result.contentType))
            && (filters.domains.isEmpty || filters.domains.contains { ancestor in
                result.domainIdentifier.map { SearchableItem.domain($0, isWithin: ancestor) } ?? false })
            && (filters.sources.isEmpty || filters.sources.contains { result.sources.contains($0) })
    }

    @Test(arguments: [31, 32] as [UInt64])
    func aFilteredQueryIsTheUnfilteredOneWithTheOthersLeftOut(seed: UInt64) throws {
        let engine = engine(seed: seed)
        let filterWords = ["kind:photo", "kind:show", "kind:contact", "domain:com.a", "domain:com.c", "source:web", "source:activity",
                           "kind:image domain:com.a", "kind:public.item source:item"]
        for text in ScanTests().queries(seed, count: 60) {
            let everything = engine.search(SearchQuery(text, limit: 100_000, now: referenceNow))
            for words in filterWords {
                let query = try SearchQuery(parsing: words + " " + text, limit: 20, now: referenceNow)
                let expected = everything.results.filter { admits($0, query.filters) }
                let answer = engine.search(query)
                #expect(answer.total == expected.count, "\(words) \(text)")
                #expect(answer.results.map(\.uniqueIdentifier) == expected.prefix(20).map(\.uniqueIdentifier), "\(words) \(text)")
            }
        }
    }

    @Test func aFilterAloneListsWhatItAdmitsInRankOrder() throws {
        let engine = engine(seed: 33)
        let answer = engine.search(try SearchQuery(parsing: "kind:photo", limit: 10_000, now: referenceNow))
        #expect(answer.total > 0)
        #expect(answer.results.allSatisfy { $0.contentType == "public.image" })
        let keys = answer.results.map(\.explanation.key)
        #expect(keys == keys.sorted())
        // Viewed items come first, as engagement ranks them.
        #expect(answer.results.first.map { engine.engagements[$0.uniqueIdentifier] != nil } == true)
    }

    @Test func unknownValuesAreRefusedAndOtherColonsAreText() throws {
        #expect(throws: QueryFilters.Problem.self) { try QueryFilters.parse("kind:bogus aurora") }
        #expect(throws: QueryFilters.Problem.self) { try QueryFilters.parse("source:mail") }
        #expect(throws: QueryFilters.Problem.self) { try QueryFilters.parse("domain: x") }
        let (filters, text) = try QueryFilters.parse("https://example.com/a 20:00 KIND:Photo")
        #expect(text == "https://example.com/a 20:00")
        #expect(filters.contentTypes == ["public.image"])
        #expect(try QueryFilters.parse("brent reid").text == "brent reid")
        #expect(QueryFilters.problem(with: "kind:pho") != nil)
        #expect(QueryFilters.parseLeniently("kind:pho aurora").text == "aurora")
    }
}
