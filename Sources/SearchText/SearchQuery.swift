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
    /// Filters written in the query (`kind:photo`), taken out of `text`.
    public var filters: QueryFilters

    public init(
        _ text: String, limit: Int = 20, domains: [String] = [], now: Date = Date(), explainsMatches: Bool = true,
        filters: QueryFilters = QueryFilters()
    ) {
        self.text = text
        self.limit = limit
        self.domains = domains
        self.now = now
        self.explainsMatches = explainsMatches
        self.filters = filters
    }

    /// A query as typed: its filter words (`kind:photo`) become `filters`,
    /// the rest its text.
    public init(
        parsing typed: String, limit: Int = 20, domains: [String] = [], now: Date = Date(), explainsMatches: Bool = true
    ) throws(QueryFilters.Problem) {
        let (filters, text) = try QueryFilters.parse(typed)
        self.init(text, limit: limit, domains: domains, now: now, explainsMatches: explainsMatches, filters: filters)
    }

    /// A query being typed: filter words it does not know yet are left out.
    public init(typing typed: String, limit: Int = 20, now: Date = Date(), explainsMatches: Bool = true) {
        let (filters, text) = QueryFilters.parseLeniently(typed)
        self.init(text, limit: limit, now: now, explainsMatches: explainsMatches, filters: filters)
    }

    /// Whether some results may be left out by a filter or a domain.
    @inlinable package var restricts: Bool { !domains.isEmpty || !filters.isEmpty }
}
