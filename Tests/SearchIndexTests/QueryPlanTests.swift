import Foundation
import Testing
import TestSupport
@testable import SearchIndex

/// Each kind of query is answered by the strategy its plan names, and the
/// plan says why (`QueryPlan`, shown by `search --json --explain`).
@Suite struct QueryPlanTests {
    /// 6,400 items: "lumo" and "tarn" in most, "vexa" in one in forty,
    /// "quor" in one in a hundred, "zephyr" in one; many titled exactly
    /// "lumo tarn".
    static let engines: (mapped: SearchEngine, enumerating: SearchEngine) = {
        let items = (0..<6_400).map { i -> SearchableItem in
            var words = [i % 3 == 0 ? "lumo" : "tarn", i % 5 == 0 ? "tarn" : "lumo"]
            if i % 40 == 7 { words.append("vexa") }
            if i % 100 == 11 { words.append("quor") }
            if i == 4_242 { words.append("zephyr") }
            return item(String(format: "s/%05d", i), title: words.joined(separator: " "), description: "filler \(i % 13)")
        }
        return mappedAndEnumeratingEngines(items, mapMinimum: 40)
    }()

    func plan(_ text: String, on engine: SearchEngine = engines.mapped) -> QueryPlan {
        engine.search(SearchQuery(typing: text, limit: 20, now: referenceNow)).plan
    }

    @Test func eachKindOfQueryHasItsStrategy() {
        #expect(plan("lum").strategy == .bestLists)
        #expect(plan("lum").reason.contains("reach"))
        #expect(plan("zephyr").strategy == .scan, "one word in one document")
        #expect(plan("lumo vexa").strategy == .fieldMaps)
        #expect(plan("lumo quor").strategy == .scan, "one slot in a hundred drives a scan")
        #expect(plan("kind:item").strategy == .filtersAlone)
        #expect(plan("").strategy == .nothing)
        let unmatched = plan("lumo qqqq")
        #expect(unmatched.strategy == .nothing)
        #expect(unmatched.reason.contains("qqqq"))
    }

    @Test func exactNamesGoFirstBesideTheStrategy() {
        let exact = plan("tarn lumo")
        #expect(exact.exactFirst)
        #expect(exact.strategy == .fieldMaps)
        #expect(exact.name == "exact+fieldMaps")
        // A prefix names no title exactly.
        #expect(!plan("lumo t").exactFirst)
        #expect(plan("lumo t").strategy == .fieldMaps)
    }

    @Test func withoutTheScanTheWordsAreEnumerated() {
        let enumerated = plan("lumo quor", on: Self.engines.enumerating)
        #expect(enumerated.strategy == .enumeration)
        #expect(enumerated.reason == "the scan is turned off")
        #expect(enumerated.fellBackFrom == nil)
    }

    @Test func everyPlanAnswersAsEnumerationDoes() {
        for text in ["lum", "zephyr", "lumo vexa", "lumo quor", "tarn lumo", "vex l"] {
            let request = SearchQuery(text, limit: 20, now: referenceNow)
            let (a, b) = (Self.engines.mapped.search(request), Self.engines.enumerating.search(request))
            #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(text) by \(a.plan.name)")
            #expect(a.total == b.total, "\(text) by \(a.plan.name)")
        }
    }
}
