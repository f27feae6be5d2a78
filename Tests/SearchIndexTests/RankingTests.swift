import Foundation
import Testing
@testable import SearchIndex

/// One test per ranking rule: two results that differ in that rule only
/// (or in that rule and a later one pointing the other way).
@Suite struct RankingTests {
    @Test func fewerTyposFirst() {
        // The typo result would win every later rule: shorter title, smaller id.
        let e = engine([item("b", title: "Harbour lights in winter"), item("a", title: "Harbor")])
        #expect(e.ids("harbour") == ["b", "a"])
    }

    @Test func moreWholeWordsFirst() {
        let e = engine([item("a", title: "Carpet"), item("b", title: "Car park")])
        #expect(e.ids("car") == ["b", "a"])
    }

    @Test func bestFieldFirst() {
        let e = engine([
            item("a", title: "Zzz", description: "lantern"),
            item("b", title: "Zzz", extras: ["note": "lantern"]),
            item("c", title: "Zzz", keywords: ["lantern"]),
            item("d", title: "Lantern and a much longer title"),
        ])
        #expect(e.ids("lantern") == ["d", "c", "b", "a"])
    }

    @Test func engagementLiftsAResult() {
        var e = engine([item("a", title: "Brent"), item("b", title: "Brenda")])
        #expect(e.ids("bren") == ["a", "b"])
        let view = activity(for: "b")
        e.becomeCurrent(view, at: referenceNow.addingTimeInterval(-60))
        e.becomeCurrent(view, at: referenceNow.addingTimeInterval(-30))
        #expect(e.ids("bren") == ["b", "a"])
        // Engagement ranks below the text rules: a whole-word match still wins.
        #expect(e.ids("brent") == ["a", "b"])
    }

    @Test func recentViewsWeighMoreThanOldOnes() {
        var e = engine([item("a", title: "Lake"), item("b", title: "Loch")])
        e.becomeCurrent(activity(for: "a", eligible: false), at: referenceNow.addingTimeInterval(-60 * 86400))
        e.becomeCurrent(activity(for: "a", eligible: false), at: referenceNow.addingTimeInterval(-59 * 86400))
        e.becomeCurrent(activity(for: "b", eligible: false), at: referenceNow.addingTimeInterval(-3600))
        #expect(e.ids("l") == ["b", "a"])
        let a = e.engagementScore(of: "a", at: referenceNow)
        let b = e.engagementScore(of: "b", at: referenceNow)
        #expect(a.views == 2 && b.views == 1)
        #expect(a.score < b.score)
        // Views after the clock do not count yet.
        #expect(e.engagementScore(of: "b", at: referenceNow.addingTimeInterval(-7200)).views == 0)
    }

    @Test func moreSourcesFirst() {
        var e = SearchEngine()
        e.index([item("a", title: "Lake", url: "https://x.example/a"), item("b", title: "Lake", url: "https://x.example/b")])
        #expect(e.ids("lake") == ["a", "b"])
        e.index([item("https://x.example/b", title: "Lake page", url: "https://x.example/b")], source: .web)
        #expect(e.ids("lake") == ["b", "a"])
        #expect(e.search(SearchQuery("lake", now: referenceNow)).results.first?.sources == [.item, .web])
    }

    @Test func shorterTitleFirst() {
        let e = engine([item("a", title: "Lake District"), item("b", title: "Lake")])
        #expect(e.ids("lake") == ["b", "a"])
    }

    @Test func identifierBreaksTheLastTie() {
        let e = engine([item("b", title: "Lake"), item("a", title: "Lake"), item("c", title: "Lake")])
        #expect(e.ids("lake") == ["a", "b", "c"])
    }

    @Test func orderIsDeterministicWhateverTheInsertionOrder() {
        let items = (0..<200).map { i in
            item("x/\(i)", title: "Item \(["ka", "kar", "karen", "kat", "mi"][i % 5]) \(i % 7)",
                 description: i % 4 == 0 ? "kayak trip" : nil, keywords: i % 3 == 0 ? ["karma"] : [])
        }
        let forward = engine(items)
        let backward = engine(items.reversed())
        for query in ["k", "ka", "kar", "karen", "kayak", "item k", "karma"] {
            #expect(forward.ids(query, limit: 200) == backward.ids(query, limit: 200), "query \(query)")
            #expect(forward.ids(query, limit: 7) == Array(forward.ids(query, limit: 200).prefix(7)))
        }
    }

    @Test func explanationNamesEachRuleFieldAndToken() throws {
        let e = engine([item("a", title: "Brent Reid", keywords: ["search"])])
        let result = try #require(e.search(SearchQuery("reid sear", now: referenceNow)).results.first)
        let key = result.explanation.key
        #expect(key.typos == 0)
        #expect(key.wholeWords == 1)
        #expect(key.fieldScore == Int(Field.title.rawValue + Field.keywords.rawValue))
        #expect(key.titleLength == 10)
        let matches = result.explanation.matches
        #expect(matches.map(\.token) == ["reid", "search"])
        #expect(matches.map(\.field) == ["title", "keywords"])
        #expect(matches.map(\.whole) == [true, false])
    }

    @Test func highlightsCoverTheMatchedCharacters() throws {
        let e = engine([item("a", title: "Zoë Marchetti")])
        let result = try #require(e.search(SearchQuery("zoe mar", now: referenceNow)).results.first)
        #expect(result.highlights == [
            Highlight(field: "title", start: 0, length: 3), Highlight(field: "title", start: 4, length: 3),
        ])
        let cjk = engine([item("b", title: "看北极光")])
        let hit = try #require(cjk.search(SearchQuery("北极光", now: referenceNow)).results.first)
        #expect(hit.highlights == [Highlight(field: "title", start: 1, length: 3)])
    }
}

func activity(for id: String, eligible: Bool = true) -> UserActivity {
    var attributes = AttributeSet()
    attributes.relatedUniqueIdentifier = id
    return UserActivity(
        activityType: "com.example.view", title: "Viewed \(id)", contentAttributeSet: attributes,
        isEligibleForSearch: eligible)
}
