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
    var restricts: Bool { !domains.isEmpty || !filters.isEmpty }

    /// Whether `document` passes the query's domains and filters.
    func admits(_ document: Document) -> Bool {
        if !domains.isEmpty {
            guard let domain = document.domainIdentifier,
                domains.contains(where: { SearchableItem.domain(domain, isWithin: $0) })
            else { return false }
        }
        return filters.isEmpty
            || filters.admits(contentType: document.contentType, domain: document.domainIdentifier, sources: document.sourceSet)
    }
}

/// A highlighted range of a field, in characters.
public struct Highlight: Sendable, Hashable, Codable {
    public var field: String
    public var start: Int
    public var length: Int
}

/// One ranked result.
///
/// Equal (and hashed alike) exactly when what its properties read is:
/// highlights made when read compare as the list they make.
public struct SearchResult: Sendable, Hashable {
    public var uniqueIdentifier: String
    public var domainIdentifier: String?
    public var contentType: String
    /// The name shown: the attribute set's (`AttributeSet.shownTitle`),
    /// read from the set when asked. A string made for each of a
    /// keystroke's results, beside the set that holds the same text, was
    /// the most frequent allocation of a keystroke once highlights were
    /// kept inline. Each read decodes it: a caller that
    /// reads it often keeps the string.
    public var title: String {
        get { pinnedTitle ?? shownAttributes.shownTitle }
        set {
            // Highlights not made yet are made from the title as it was.
            settleHighlights()
            pinnedTitle = Self.pinned(newValue, over: shownAttributes)
        }
    }
    public var sources: [Source]
    /// Every attribute of the result. Replacing them keeps the title as it was.
    public var attributes: AttributeSet {
        get { shownAttributes }
        set {
            settleHighlights()
            let title = self.title
            shownAttributes = newValue
            pinnedTitle = Self.pinned(title, over: newValue)
        }
    }
    /// The title when it is not the attribute set's (set, or kept across
    /// a change of set). Nil exactly when it is, so that the synthesised
    /// equality and hash are those of what the properties read.
    private(set) var pinnedTitle: String?
    private(set) var shownAttributes: AttributeSet
    public var visibility: Visibility
    /// The characters of the title (or another field) that the query
    /// matched. Made when first read for most results (`DeferredHighlights`),
    /// from the title the result had when made; each read makes them again.
    public var highlights: [Highlight] {
        get { highlightList.list }
        set { highlighting = .made(HighlightList(newValue)) }
    }
    /// `highlights`, kept without an array while they are few (see `HighlightList`).
    var highlightList: HighlightList {
        switch highlighting {
        case .made(let list): list
        case .deferred(let maker):
            // Deferred only over the set's own title, and made before
            // either changes (`settleHighlights`).
            shownAttributes.withShownTitleUTF8(maker.highlights(ofTitle:))
        }
    }
    /// The highlights, or what makes them when read.
    private(set) var highlighting: Highlighting
    public var explanation: Explanation

    enum Highlighting: Sendable {
        case made(HighlightList)
        case deferred(DeferredHighlights)
    }

    /// Makes deferred highlights now, before the title they are read from changes.
    private mutating func settleHighlights() {
        if case .deferred = highlighting { highlighting = .made(highlightList) }
    }

    public static func == (a: SearchResult, b: SearchResult) -> Bool {
        a.uniqueIdentifier == b.uniqueIdentifier && a.domainIdentifier == b.domainIdentifier
            && a.contentType == b.contentType && a.sources == b.sources && a.pinnedTitle == b.pinnedTitle
            && a.shownAttributes == b.shownAttributes && a.visibility == b.visibility
            && a.explanation == b.explanation && a.highlightList == b.highlightList
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uniqueIdentifier)
        hasher.combine(domainIdentifier)
        hasher.combine(contentType)
        hasher.combine(sources)
        hasher.combine(pinnedTitle)
        hasher.combine(shownAttributes)
        hasher.combine(visibility)
        hasher.combine(highlightList)
        hasher.combine(explanation)
    }

    /// `title` as `pinnedTitle` keeps it beside `attributes`.
    private static func pinned(_ title: String?, over attributes: AttributeSet) -> String? {
        title.flatMap { $0 == attributes.shownTitle ? nil : $0 }
    }
}

extension SearchResult {
    // In an extension, so that the struct keeps its memberwise
    // initializer, which builds the value from its parts: an initializer
    // that assigned `self.x` field by field kept the result in a stack
    // variable, returned by a copy (a retain of every reference a result
    // holds, then a release of the variable's), fifty times a short
    // keystroke. The memberwise one
    // takes `pinnedTitle` as stored, so it must come canonical (`pinned`):
    // results are made through this one.
    init(
        uniqueIdentifier: String, domainIdentifier: String?, contentType: String, title: String? = nil, sources: [Source],
        attributes: AttributeSet, visibility: Visibility, highlighting: Highlighting, explanation: Explanation
    ) {
        self.init(
            uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier, contentType: contentType,
            sources: sources, pinnedTitle: Self.pinned(title, over: attributes), shownAttributes: attributes,
            visibility: visibility, highlighting: highlighting, explanation: explanation)
    }
}

/// The answer to a query.
public struct SearchResponse: Sendable, Hashable {
    public var query: String
    /// Every matching result, not only those returned.
    public var total: Int
    public var results: [SearchResult]
    /// The strategy that answered, and why.
    public var plan: QueryPlan

    public init(query: String, total: Int, results: [SearchResult], plan: QueryPlan = QueryPlan(.nothing, why: .notSearched)) {
        self.query = query
        self.total = total
        self.results = results
        self.plan = plan
    }
}

extension QueryFilters {
    /// Whether a result with these fields passes every filter.
    func admits(contentType: String, domain: String?, sources: SourceSet) -> Bool {
        if !contentTypes.isEmpty, !contentTypes.contains(contentType) { return false }
        if !domains.isEmpty {
            guard let domain, domains.contains(where: { SearchableItem.domain(domain, isWithin: $0) }) else { return false }
        }
        if !self.sources.isEmpty, !self.sources.contains(where: sources.contains) { return false }
        return true
    }
}
