import Foundation
import Testing
import TestSupport
@testable import SearchIndex
@testable import SearchSnapshot

/// SPEC 2's exact and `rankingHint` rules, each against its neighbours:
/// typos, whole words, exact, field, engagement, hint, sources, title.
@Suite struct HintAndExactRankingTests {
    @Test func anExactTitleBeatsALongerWholeWordTitleWithAHigherHint() {
        let e = engine([
            item("exact", title: "Requests", hint: 10),
            item("longer", title: "Requests Toolbelt", hint: 90_000),
            item("prefix", title: "Requestsx", hint: 1),
        ])
        // While the word is a prefix of both, nothing is exact: the hint decides.
        #expect(e.ids("request") == ["longer", "exact", "prefix"])
        // Typed whole, the title that is the word itself comes first.
        #expect(e.ids("requests") == ["exact", "longer", "prefix"])
        #expect(e.ids("requests toolbelt") == ["longer"])
    }

    @Test func exactIsEveryWordOfTheNameInAnyOrderAndNothingElse() {
        let e = engine([
            item("city", title: "New York City", hint: 500),
            item("state", title: "New York", hint: 5),
            item("named", title: "NYC guide", displayName: "York New", hint: 1),
        ])
        let exact = e.search(SearchQuery("york new", now: referenceNow)).results
        #expect(exact.map(\.uniqueIdentifier) == ["state", "named", "city"])
        #expect(exact.map(\.explanation.key.exact) == [true, true, false])
        // A word left over in the name, or a word the name lacks, is not exact.
        #expect(e.search(SearchQuery("new", now: referenceNow)).results.allSatisfy { !$0.explanation.key.exact })
        #expect(e.ids("new york city") == ["city"])
        #expect(e.search(SearchQuery("new york city", now: referenceNow)).results.first?.explanation.key.exact == true)
    }

    @Test func aTypoOrAPrefixIsNotExact() {
        let e = engine([item("short", title: "Harbour", hint: 1), item("long", title: "Harbour Lights", hint: 50)])
        // "harbor" reaches both with one typo; neither is exact, so the hint decides.
        #expect(e.ids("harbor") == ["long", "short"])
        #expect(e.search(SearchQuery("harbor", now: referenceNow)).results.allSatisfy { !$0.explanation.key.exact })
    }

    @Test func theHintBeatsMoreSourcesAndAShorterTitle() {
        var e = SearchEngine()
        e.index([
            item("plain", title: "Lake", url: "https://x.example/plain"),
            item("popular", title: "Lakeside inn by the water", hint: 3),
        ])
        e.index([item("https://x.example/plain", title: "Lake page", url: "https://x.example/plain")], source: .web)
        let results = e.search(SearchQuery("lak", now: referenceNow)).results
        #expect(results.map(\.uniqueIdentifier) == ["popular", "plain"])
        #expect(results.map(\.explanation.key.sources) == [1, 2])
    }

    @Test func engagementBeatsTheHint() {
        var e = engine([item("popular", title: "Brenda", hint: 10_000), item("mine", title: "Brent")])
        #expect(e.ids("bren") == ["popular", "mine"])
        e.becomeCurrent(activity(for: "mine"), at: referenceNow.addingTimeInterval(-60))
        #expect(e.ids("bren") == ["mine", "popular"])
    }

    @Test func typosAndWholeWordsStillComeFirst() {
        let e = engine([
            item("typo", title: "Harbor", hint: 1_000_000), item("right", title: "Harbour lights"),
            item("prefix", title: "Carpet", hint: 1_000_000), item("whole", title: "Car park"),
        ])
        #expect(e.ids("harbour") == ["right", "typo"])
        #expect(e.ids("car") == ["whole", "prefix"])
    }

    @Test func theFieldStillComesBeforeTheHint() {
        let e = engine([item("keyword", title: "Zzz", keywords: ["lantern"], hint: 1_000), item("title", title: "Lantern fair")])
        #expect(e.ids("lantern") == ["title", "keyword"])
    }

    @Test func hintsTellApartWholeNumbersAndTieBeyondTheirPrecision() {
        #expect(StaticRank.rankedHint(12_345) == 12_345)
        #expect(StaticRank.rankedHint(32_768) < StaticRank.rankedHint(32_772))
        #expect(StaticRank.rankedHint(100_000) < StaticRank.rankedHint(100_010))
        #expect(StaticRank.rankedHint(1_000_000_000) == StaticRank.rankedHint(1_000_000_001))
        #expect(StaticRank.rankedHint(0) == 0 && StaticRank.rankedHint(.greatestFiniteMagnitude) > StaticRank.rankedHint(1e30))
        // Tied hints leave it to the rules after.
        let e = engine([item("b", title: "Node long", hint: 1_000_000_001), item("a", title: "Node longer", hint: 1_000_000_000)])
        #expect(e.ids("nod") == ["b", "a"])
    }

    @Test func changesAndDeletionsKeepExactUpToDate() {
        var e = engine([item("a", title: "Solar Panel", hint: 1), item("b", title: "Solar Panel Kit", hint: 9)])
        #expect(e.ids("solar panel") == ["a", "b"])
        e.index([item("a", title: "Solar Panels", hint: 1)])
        #expect(e.ids("solar panel") == ["b", "a"])
        e.index([item("b", title: "Solar Panel", hint: 9)])
        #expect(e.ids("solar panel") == ["b", "a"])
        _ = e.deleteItems(identifiers: ["b"])
        #expect(e.ids("solar panel") == ["a"])
        #expect(e.search(SearchQuery("solar panel", now: referenceNow)).results.first?.explanation.key.exact == false)
    }

    @Test func exactResultsComeFirstWithinTheLimitAndTheTotalCountsEveryMatch() {
        let others = (0..<30).map { item("other/\($0)", title: "Maple \($0) street", hint: Double(100 + $0)) }
        let e = engine(others + [item("exact", title: "Maple Street")])
        let response = e.search(SearchQuery("maple street", limit: 5, now: referenceNow))
        #expect(response.total == 31)
        #expect(response.results.map(\.uniqueIdentifier) == ["exact", "other/29", "other/28", "other/27", "other/26"])
        // Filters and expiry apply to exact results as to every other.
        let expired = engine(others + [item("exact", title: "Maple Street", expires: referenceNow.addingTimeInterval(-1))])
        #expect(!expired.ids("maple street").contains("exact"))
    }

    @Test func theExplanationShowsBothRules() throws {
        let e = engine([item("a", title: "Orchard", hint: 2_500)])
        let result = try #require(e.search(SearchQuery("orchard", now: referenceNow)).results.first)
        #expect(result.explanation.key.exact)
        #expect(result.explanation.key.rankingHint == 2_500)
        #expect(result.explanation.lines.contains("exact yes"))
        #expect(result.explanation.lines.contains("ranking hint 2500"))
        let prefix = try #require(e.search(SearchQuery("orch", now: referenceNow)).results.first)
        #expect(prefix.explanation.lines.contains("exact no"))
    }

    /// Every strategy (best lists, field maps, scan) gives what enumeration
    /// gives over items of which a third carry hints.
    @Test func everyStrategyRanksHintsAsEnumerationDoes() {
        let syllables = ["ka", "ren", "to", "mi", "sa", "lo"]
        var generator = SeededGenerator(seed: 73)
        func word() -> String {
            (0..<Int.random(in: 1...3, using: &generator)).map { _ in syllables.randomElement(using: &generator)! }.joined()
        }
        let corpus = (0..<2_000).map { i -> SearchableItem in
            let title = (0..<Int.random(in: 1...3, using: &generator)).map { _ in word() }.joined(separator: " ")
            let hint: Double? = i % 3 == 0 ? Double(Int.random(in: 1...50, using: &generator)) : nil
            return item("h/\(i)", title: title, description: word() + " " + word(), keywords: [word()], hint: hint)
        }
        let (mapped, enumerating) = mappedAndEnumeratingEngines(corpus, mapMinimum: 50)
        for query in ["k", "ka", "kare", "karen", "ren", "sa lo", "mi to", "kato", "lomi sa", "torenka", "sa"] {
            let a = mapped.search(SearchQuery(query, limit: 40, now: referenceNow))
            let b = enumerating.search(SearchQuery(query, limit: 40, now: referenceNow))
            #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(query)")
            #expect(a.results.map(\.explanation.key) == b.results.map(\.explanation.key), "\(query)")
            #expect(a.total == b.total, "\(query)")
        }
    }
}

/// The exact-name table answers as a model does through inserts, updates
/// and deletions of documents whose names share words and repeat (long
/// runs of equal signatures, buckets shifted back over them), and after a
/// snapshot round trip.
@Suite struct ExactNamesTests {
    @Test(arguments: [5, 6])
    func exactResultsFollowTheModelThroughChurnAndASnapshot(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let words = ["ka", "ren", "to", "ka ren", "ren ka", "to to", "ka to ren", "mi"]
        var model: [String: String] = [:]  // identifier → title
        var engine = SearchEngine()
        for step in 0..<600 {
            let id = "n/\(Int.random(in: 0..<120, using: &generator))"
            if model[id] != nil, Int.random(in: 0..<3, using: &generator) == 0 {
                _ = engine.deleteItems(identifiers: [id])
                model[id] = nil
            } else {
                let title = words.randomElement(using: &generator)!
                let displayName = Bool.random(using: &generator) ? words.randomElement(using: &generator) : nil
                engine.index([item(id, title: title, displayName: displayName)])
                model[id] = title + "|" + (displayName ?? "")
            }
            if step % 100 == 99 { try check(engine, model) }
        }
        try check(engine, model)
        var bytes: [UInt8] = []
        try engine.writeSnapshot { bytes.append(contentsOf: $0) }
        let loaded = try bytes.withUnsafeBytes { try SearchEngine(snapshot: $0, verified: false) }
        try check(loaded, model)
    }

    func check(_ engine: SearchEngine, _ model: [String: String]) throws {
        for query in ["ka", "ren", "to", "ka ren", "ren ka", "to to", "ka to ren", "mi", "ren to ka"] {
            let wanted = Set(Tokenizer.queryTerms(query))
            let expected = Set(model.filter { _, names in
                names.split(separator: "|", omittingEmptySubsequences: false).contains {
                    !$0.isEmpty && Set(Tokenizer.queryTerms(String($0))) == wanted
                }
            }.keys)
            let results = engine.search(SearchQuery(query, limit: 200, now: referenceNow)).results
            #expect(Set(results.map(\.uniqueIdentifier)).count == results.count, "\(query): each result once")
            let exact = Set(results.filter(\.explanation.key.exact).map(\.uniqueIdentifier))
            #expect(exact == expected, "\(query)")
            // Exact results lead.
            let leading = results.prefix(while: \.explanation.key.exact).count
            #expect(leading == exact.count, "\(query)")
        }
    }
}
