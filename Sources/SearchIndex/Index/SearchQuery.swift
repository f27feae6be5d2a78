import Foundation

extension SearchQuery {
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
    /// read from the set when asked rather than a string made for every
    /// result. Each read decodes it: a caller that reads it often keeps it.
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
