import Foundation
import Testing
@testable import SearchIndex

@Suite struct IndexLifecycleTests {
    @Test func indexingTheSameIdentifierReplacesTheItem() {
        var e = engine([item("a", title: "Old name")])
        e.index([item("a", title: "New name")])
        #expect(e.ids("old").isEmpty)
        #expect(e.ids("new") == ["a"])
        #expect(e.documentCount == 1)
    }

    /// One batch naming an identifier twice (large enough to be built in
    /// chunks, as a bulk import is): the later item stands, once.
    @Test(arguments: [3, 9_000])
    func aBatchNamingAnIdentifierTwiceKeepsTheLaterItemOnce(count: Int) {
        var items = (0..<count).map { item("doc/\($0)", title: "plain \($0)") }
        items.append(item("doc/1", title: "replaced one"))
        items.insert(item("doc/2", title: "first two"), at: 0)
        var e = SearchEngine()
        e.index(items)
        #expect(e.documentCount == count)
        #expect(e.ids("replaced") == ["doc/1"])
        #expect(e.ids("first").isEmpty)
        #expect(e.search(SearchQuery("plain", now: referenceNow)).total == count - 1)
        #expect(e.search(SearchQuery("doc", now: referenceNow)).total == 0)
    }

    @Test func deleteByIdentifier() {
        var e = engine([item("a", title: "Lake"), item("b", title: "Lake")])
        #expect(e.deleteItems(identifiers: ["a", "missing"]) == ["a"])
        #expect(e.ids("lake") == ["b"])
    }

    @Test func deleteByDomainIsHierarchicalOnDots() {
        var e = engine([
            item("a", title: "Lake", domain: "com.acme.media"),
            item("b", title: "Lake", domain: "com.acme.media.photo"),
            item("c", title: "Lake", domain: "com.acme.mediakit"),
            item("d", title: "Lake"),
        ])
        #expect(Set(e.deleteItems(domainIdentifiers: ["com.acme.media"])) == ["a", "b"])
        #expect(e.ids("lake") == ["c", "d"])
    }

    @Test func deleteAllEmptiesButKeepsThePreference() {
        var e = engine([item("a", title: "Lake")])
        e.setPreference(.disabled)
        e.deleteAll()
        #expect(e.ids("lake").isEmpty)
        #expect(e.documentCount == 0)
        #expect(e.preference == .disabled)
    }

    @Test func deletingEverythingLeavesNoTrieNodesBehind() {
        var e = engine((0..<50).map { item("x/\($0)", title: "Word\($0) 北极光", emails: ["a\($0)@b.com"]) })
        e.deleteItems(identifiers: (0..<50).map { "x/\($0)" })
        #expect(e.trie.tokenCount == 0)
        #expect(e.trie.children(of: TokenTrie.root).isEmpty)
        #expect(e.trie[TokenTrie.root].subtreeCount == 0)
    }

    @Test func expiredItemsNeverAppear() {
        let e = engine([
            item("a", title: "Lake", expires: referenceNow.addingTimeInterval(3600)),
            item("b", title: "Lake"),
        ])
        #expect(e.ids("lake", now: referenceNow) == ["a", "b"])
        #expect(e.ids("lake", now: referenceNow.addingTimeInterval(3600)) == ["b"])
        #expect(e.expiredIdentifiers(at: referenceNow.addingTimeInterval(7200)) == ["a"])
    }

    @Test func activityMergesWithItsItem() throws {
        var e = engine([item("employee/7", title: "Brent Reid")])
        #expect(e.becomeCurrent(activity(for: "employee/7"), at: referenceNow) == .indexed)
        let results = e.search(SearchQuery("brent", now: referenceNow)).results
        #expect(results.count == 1)
        #expect(results[0].sources == [.item, .activity])
    }

    @Test func activityKeywordsMakeTheItemFindable() {
        var e = engine([item("employee/7", title: "Brent Reid")])
        var view = activity(for: "employee/7")
        view.keywords = ["escalation"]
        e.becomeCurrent(view, at: referenceNow)
        #expect(e.ids("escalation") == ["employee/7"])
    }

    @Test func activityWithoutItsItemIsNotStored() {
        var e = SearchEngine()
        #expect(e.becomeCurrent(activity(for: "employee/9"), at: referenceNow) == .relatedItemMissing)
        #expect(e.activities.isEmpty)
        #expect(e.ids("viewed").isEmpty)
    }

    @Test func activityGoesWithItsItem() {
        var e = engine([item("employee/7", title: "Brent Reid")])
        e.becomeCurrent(activity(for: "employee/7"), at: referenceNow)
        e.deleteItems(identifiers: ["employee/7"])
        #expect(e.activities.isEmpty)
        #expect(e.engagements["employee/7"] == nil)
        e.index([item("employee/7", title: "Brent Reid")])
        #expect(e.search(SearchQuery("brent", now: referenceNow)).results.first?.sources == [.item])
    }

    @Test func standaloneActivityIsAResultUntilItExpires() {
        var e = SearchEngine()
        let standalone = UserActivity(
            activityType: "com.example.search", title: "Search for lanterns", isEligibleForSearch: true,
            expirationDate: referenceNow.addingTimeInterval(60))
        #expect(e.becomeCurrent(standalone, at: referenceNow) == .indexed)
        #expect(e.search(SearchQuery("lanterns", now: referenceNow)).results.first?.sources == [.activity])
        #expect(e.ids("lanterns", now: referenceNow.addingTimeInterval(61)).isEmpty)
    }

    @Test func ineligibleActivityCountsAViewButIsNotAResult() {
        var e = SearchEngine()
        let plain = UserActivity(activityType: "com.example.search", title: "Search for lanterns")
        #expect(e.becomeCurrent(plain, at: referenceNow) == .recordedOnly)
        #expect(e.ids("lanterns").isEmpty)
        #expect(e.engagements[plain.identifier]?.count == 1)
    }

    @Test func disabledPreferenceRemovesAndRefusesActivities() {
        var e = engine([item("employee/7", title: "Brent Reid")])
        e.becomeCurrent(activity(for: "employee/7"), at: referenceNow)
        e.setPreference(.disabled)
        #expect(e.activities.isEmpty)
        #expect(e.search(SearchQuery("brent", now: referenceNow)).results.first?.sources == [.item])
        #expect(e.becomeCurrent(activity(for: "employee/7"), at: referenceNow) == .recordedOnly)
        #expect(e.activities.isEmpty)
    }

    @Test func appleDefaultsForActivities() {
        let plain = UserActivity(activityType: "a.b")
        #expect(!plain.isEligibleForSearch)
        #expect(!plain.isEligibleForPublicIndexing)
        #expect(plain.isEligibleForHandoff)
        #expect(UserActivity(activityType: "a.b", webpageURL: "https://x.example").isEligibleForPublicIndexing)
        #expect(UserActivity(activityType: "a.b", requiredUserInfoKeys: ["id"]).isEligibleForPublicIndexing)
    }

    @Test func webPageMergesWithTheItemAtItsURLAndSplitsWhenItGoes() {
        var e = engine([item("photo/1", title: "北极光", url: "https://photos.example.com/photos/1")])
        e.index([item("https://photos.example.com/photos/1", title: "Northern lights", url: "https://photos.example.com/photos/1")], source: .web)
        #expect(e.documentCount == 1)
        #expect(e.ids("northern") == ["photo/1"])
        e.deleteItems(identifiers: ["photo/1"])
        #expect(e.ids("northern") == ["https://photos.example.com/photos/1"])
        e.index([item("photo/1", title: "北极光", url: "https://photos.example.com/photos/1")])
        #expect(e.ids("northern") == ["photo/1"])
        #expect(e.documentCount == 1)
    }

    /// A result shows the attribute set it stands for: the item's (not a
    /// page or activity merged into it), a standalone page's or activity's
    /// own, through re-indexing, merging and un-merging, on search and on
    /// `result(for:)`.
    @Test func resultsShowTheAttributesTheyStandFor() {
        var owner = item("photo/1", title: "Harbour", description: "item text", keywords: ["boats"], url: "https://x.example/harbour")
        var e = engine([owner])
        let page = item("https://x.example/harbour", title: "Harbour page", description: "page text", url: "https://x.example/harbour")
        let lonely = item("https://x.example/lonely", title: "Lonely page", description: "lonely text", url: "https://x.example/lonely")
        e.index([page, lonely], source: .web)
        e.becomeCurrent(activity(for: "photo/1"), at: referenceNow)
        let standalone = UserActivity(activityType: "com.example.search", title: "Search harbour lights", keywords: ["lights"],
                                      isEligibleForSearch: true)
        e.becomeCurrent(standalone, at: referenceNow)
        func shown(_ query: String, _ id: String) -> AttributeSet? {
            e.search(SearchQuery(query, limit: 50, now: referenceNow)).results.first { $0.uniqueIdentifier == id }?.attributes
        }
        #expect(shown("harbour", "photo/1") == owner.attributeSet)
        #expect(e.result(for: "photo/1")?.attributes == owner.attributeSet)
        #expect(shown("lonely", "https://x.example/lonely") == lonely.attributeSet)
        #expect(shown("lights", standalone.identifier) == standalone.searchableAttributes)
        #expect(e.result(for: standalone.identifier)?.attributes == standalone.searchableAttributes)
        owner.attributeSet.contentDescription = "new item text"
        e.index([owner])
        #expect(shown("harbour", "photo/1") == owner.attributeSet)
        // With its item gone, the page stands alone and shows its own.
        e.deleteItems(identifiers: ["photo/1"])
        #expect(shown("harbour", "https://x.example/harbour") == page.attributeSet)
        #expect(e.result(for: "https://x.example/harbour")?.attributes == page.attributeSet)
    }
}

@Suite struct SharedPageTests {
    @Test func aPageSharedByTwoItemsMergesWithTheSmallestIdentifierWhateverTheOrder() {
        let page = item("https://x.example/p", title: "Shared page", url: "https://x.example/p")
        var a = SearchEngine()
        a.index([item("b/2", title: "Second", url: "https://x.example/p"), item("a/1", title: "First", url: "https://x.example/p")])
        a.index([page], source: .web)
        var b = SearchEngine()
        b.index([page], source: .web)
        b.index([item("a/1", title: "First", url: "https://x.example/p"), item("b/2", title: "Second", url: "https://x.example/p")])
        #expect(a.ids("shared") == ["a/1"])
        #expect(b.ids("shared") == ["a/1"])
        a.deleteItems(identifiers: ["a/1"])
        #expect(a.ids("shared") == ["b/2"])
        #expect(a.search(SearchQuery("second", now: referenceNow)).results.first?.sources == [.item, .web])
        a.deleteItems(identifiers: ["b/2"])
        #expect(a.ids("shared") == ["https://x.example/p"])
    }
}

@Suite struct EngagementHistoryTests {
    @Test func aStandaloneActivityViewedAgainKeepsEveryView() {
        var e = SearchEngine()
        let search = UserActivity(activityType: "com.example.search", title: "Search for lanterns", isEligibleForSearch: true)
        e.becomeCurrent(search, at: referenceNow.addingTimeInterval(-60))
        e.becomeCurrent(search, at: referenceNow)
        #expect(e.engagementScore(of: search.identifier, at: referenceNow).views == 2)
        #expect(e.ids("lanterns") == [search.identifier])
    }

    @Test func disablingIndexingKeepsViewsAndDeletingTheActivityDropsThem() {
        var e = SearchEngine()
        let search = UserActivity(activityType: "com.example.search", title: "Search for lanterns", isEligibleForSearch: true)
        e.becomeCurrent(search, at: referenceNow)
        e.setPreference(.disabled)
        #expect(e.activities.isEmpty)
        #expect(e.engagements[search.identifier]?.count == 1)
        e.setPreference(.viewedRecords)
        e.becomeCurrent(search, at: referenceNow)
        e.deleteItems(identifiers: [search.identifier])
        #expect(e.engagements[search.identifier] == nil)
        #expect(e.ids("lanterns").isEmpty)
    }
}
