import Foundation
import TestSupport
import Testing
@testable import SearchIndex

/// A result reads its title from its attribute set: what a caller sees
/// must be as if it were a stored string.
@Suite struct SearchResultTests {
    func first(_ query: String, in items: [SearchableItem]) throws -> SearchResult {
        try #require(engine(items).search(SearchQuery(query, now: referenceNow)).results.first)
    }

    @Test func theTitleIsTheSetsTitleElseItsDisplayName() throws {
        let long = "Harbour lights over the winter sea at dusk"
        #expect(try first("harb", in: [item("a", title: long)]).title == long)
        var named = item("b", description: "harbour")
        named.attributeSet.displayName = "Dana Harbour-Whitfield"
        #expect(try first("harb", in: [named]).title == "Dana Harbour-Whitfield")
        #expect(try first("harb", in: [item("c", description: "harbour")]).title == "")
    }

    @Test func replacingTheAttributesKeepsTheTitle() throws {
        var result = try first("harb", in: [item("a", title: "Harbour lights over the winter sea")])
        var other = AttributeSet(contentType: "public.item")
        other.title = "Something else entirely, and long"
        result.attributes = other
        #expect(result.title == "Harbour lights over the winter sea")
        #expect(result.attributes.title == "Something else entirely, and long")
        result.title = "Renamed"
        #expect(result.title == "Renamed")
    }

    @Test func resultsAreEqualWhenTheyReadTheSame() throws {
        let result = try first("harb", in: [item("a", title: "Harbour lights over the winter sea")])
        var pinned = result
        pinned.title = result.title
        #expect(pinned == result)
        #expect(pinned.hashValue == result.hashValue)
        var renamed = result
        renamed.title = "Harbour lights"
        #expect(renamed != result)
    }
}
