import Foundation

/// What a caller asks: text, how many results, which domains, at what time.
public struct SearchQuery: Sendable, Hashable {
    public var text: String
    public var limit: Int
    /// Only results in these domains (hierarchical); empty means all.
    public var domains: [String]
    /// The clock for expiration and engagement recency.
    public var now: Date
    /// Whether each result's explanation names, per term, the token and
    /// field that matched (`Explanation.matches`). Finding them costs more
    /// than ranking a short prefix's top 50, so screens that show the
    /// explanation of one result at a time ask only when they show it;
    /// without them `matches` is empty and every rule's value is still there.
    public var explainsMatches: Bool

    public init(_ text: String, limit: Int = 20, domains: [String] = [], now: Date = Date(), explainsMatches: Bool = true) {
        self.text = text
        self.limit = limit
        self.domains = domains
        self.now = now
        self.explainsMatches = explainsMatches
    }
}

/// A highlighted range of a field, in characters.
public struct Highlight: Sendable, Hashable, Codable {
    public var field: String
    public var start: Int
    public var length: Int
}

/// One ranked result.
public struct SearchResult: Sendable, Hashable {
    public var uniqueIdentifier: String
    public var domainIdentifier: String?
    public var contentType: String
    public var title: String
    public var sources: [Source]
    public var attributes: AttributeSet
    public var visibility: Visibility
    /// The characters of the title (or another field) that the query matched.
    public var highlights: [Highlight] {
        get { highlightList.list }
        set { highlightList = HighlightList(newValue) }
    }
    /// `highlights`, kept without an array while they are few (see `HighlightList`).
    var highlightList: HighlightList
    public var explanation: Explanation
}

/// The answer to a query.
public struct SearchResponse: Sendable, Hashable {
    public var query: String
    /// Every matching result, not only those returned.
    public var total: Int
    public var results: [SearchResult]
}
