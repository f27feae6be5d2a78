import Testing
@testable import SearchIndex

@Suite struct MatchingTests {
    let index = engine([
        item("p/1", title: "Zoë Marchetti", keywords: ["engineering"]),
        item("p/2", title: "Brent Reid", emails: ["brent.reid@example.com"], phones: ["+1 (555) 010-2001"]),
        item("p/3", title: "北极光", keywords: ["aurora"]),
        item("p/4", title: "Marchmont Gardens"),
    ])

    @Test func resultsFromTheFirstKeystroke() {
        #expect(index.ids("m") == ["p/1", "p/4"])
        #expect(index.ids("ma") == ["p/1", "p/4"])
        #expect(index.ids("marc") == ["p/1", "p/4"])
        #expect(index.ids("marchet") == ["p/1"])
    }

    @Test func everyTermMustMatch() {
        #expect(index.ids("zoe march") == ["p/1"])
        #expect(index.ids("zoe gardens").isEmpty)
    }

    @Test func foldedQueriesFindFoldedText() {
        #expect(index.ids("ZOE") == ["p/1"])
        #expect(index.ids("zoë") == ["p/1"])
        #expect(index.ids("ｚｏｅ") == ["p/1"])
    }

    @Test func cjkSubstringsFindTheTitle() {
        #expect(index.ids("北极") == ["p/3"])
        #expect(index.ids("极光") == ["p/3"])
        #expect(index.ids("北极光") == ["p/3"])
        #expect(index.ids("光") == ["p/3"])
        #expect(index.ids("南极").isEmpty)
    }

    @Test func emailAndPhoneForms() {
        #expect(index.ids("brent.reid@example.com") == ["p/2"])
        #expect(index.ids("reid") == ["p/2"])
        #expect(index.ids("555-010-2001") == ["p/2"])
        #expect(index.ids("5550102001") == ["p/2"])
        #expect(index.ids("(555) 010-2001") == ["p/2"])
        #expect(index.ids("5550102009").isEmpty, "numbers take no typos")
    }

    @Test func noTypoUnderFiveCharacters() {
        let e = engine([item("a", title: "Brent"), item("b", title: "Cary")])
        #expect(e.ids("crry").isEmpty)  // 4 characters: exact only
        #expect(e.ids("bremt") == ["a"])  // 5: one typo
        #expect(e.ids("brxmt").isEmpty)  // 5: not two
    }

    @Test func typoBoundsGrowWithLength() {
        let e = engine([item("a", title: "Marchetti"), item("b", title: "Engineering")])
        #expect(e.ids("marchetx") == ["a"])  // 8 characters: one typo
        #expect(e.ids("marchexx").isEmpty)  // 8 characters: not two
        #expect(e.ids("enginexxing") == ["b"])  // 11: two typos
        #expect(e.ids("enxinexxing").isEmpty)  // 11: not three
    }

    @Test func adjacentSwapCountsAsOneTypo() {
        let e = engine([item("a", title: "Brent")])
        #expect(e.ids("bernt") == ["a"])
        #expect(e.search(SearchQuery("bernt", now: referenceNow)).results.first?.explanation.key.typos == 1)
    }

    @Test func prefixWithTypo() {
        let e = engine([item("a", title: "Photographers")])
        #expect(e.ids("photgr") == ["a"])
    }

    @Test func emptyAndPunctuationQueriesFindNothing() {
        #expect(index.ids("").isEmpty)
        #expect(index.ids("   ").isEmpty)
        #expect(index.ids("!!").isEmpty)
    }

    @Test func domainFilterIsHierarchical() {
        let e = engine([
            item("a", title: "Lake", domain: "com.acme.media"),
            item("b", title: "Lake", domain: "com.acme.media.photo"),
            item("c", title: "Lake", domain: "com.acme.mediakit"),
        ])
        #expect(Set(e.ids("lake", domains: ["com.acme.media"])) == ["a", "b"])
        #expect(e.ids("lake", domains: ["com.acme.mediakit"]) == ["c"])
    }

    @Test func totalCountsEveryMatchNotOnlyTheLimit() {
        let e = engine((0..<30).map { item("x/\($0)", title: "Lake \($0)") })
        let response = e.search(SearchQuery("lake", limit: 5, now: referenceNow))
        #expect(response.results.count == 5)
        #expect(response.total == 30)
    }
}
