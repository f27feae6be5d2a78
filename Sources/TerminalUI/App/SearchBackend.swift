import SearchIndex

/// What the terminal UI asks of the index, the router and the store. The
/// screen model depends on this protocol only, so tests can drive it with
/// a real index in memory.
public protocol SearchBackend: AnyObject {
    /// Runs a query; returns the response and the time it took in
    /// microseconds. Its explanations name the matched tokens only when
    /// `explained` (see `SearchQuery.explainsMatches`).
    func search(_ text: String, limit: Int, explained: Bool) -> (response: SearchResponse, microseconds: Int)
    /// Opens a result the way the system would (continuation → router →
    /// detail) and records an engagement.
    func open(_ result: SearchResult) -> Detail
    /// Opens an identifier (a related item).
    func open(identifier: String) -> Detail
    var quickActions: [QuickAction] { get }
    func runQuickAction(_ type: String) -> Detail
    func inspector() -> InspectorSnapshot
    /// Each returns a one-line message for the status line.
    func togglePreference() -> String
    func setPreference(_ preference: IndexingPreference) -> String
    func deleteItem(_ identifier: String) -> String
    func deleteDomain(_ domain: String) -> String
    func deleteEverything() -> String
    func reindex() -> String
    /// Progress of background work, if any ("importing big.jsonl: 40%").
    var progress: String? { get }
    /// Whether the index is still being read: queries are answered once
    /// it is (`pump` returns true then), and `progress` says how far it is.
    var isLoading: Bool { get }
    /// Whether background work has something for `pump` to apply.
    var hasPendingWork: Bool { get }
    /// Does one small piece of background work between keys (applies
    /// other writers' changes, takes in a rebuilt engine); true when the
    /// index changed and the caller re-runs the query.
    func pump() -> Bool
    /// What changed underneath since last asked, for the status line.
    func takeNotice() -> String?
    /// Whether an import is under way (quitting would drop it).
    var isImporting: Bool { get }
    /// The tokens each of `identifiers` matched for `query` in any field,
    /// typo matches included, for highlighting the rows on screen.
    func matchedTokens(of identifiers: [String], query: String) -> [String: Set<String>]
    /// An empty query's starting point: recently viewed results, newest
    /// first, then a row per domain (`TerminalApp.domainListing`).
    func startingPoint() -> [SearchResult]
}

extension SearchBackend {
    /// A query explained in full.
    public func search(_ text: String, limit: Int) -> (response: SearchResponse, microseconds: Int) {
        search(text, limit: limit, explained: true)
    }
    public var hasPendingWork: Bool { false }
    public func pump() -> Bool { false }
    public func takeNotice() -> String? { nil }
    public var isImporting: Bool { false }
    public var isLoading: Bool { false }
    public func matchedTokens(of identifiers: [String], query: String) -> [String: Set<String>] { [:] }
    public func startingPoint() -> [SearchResult] { [] }
}
