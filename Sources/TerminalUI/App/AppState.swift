import SearchIndex

/// Everything the screen shows, and nothing the screen can compute.
public struct AppState: Sendable {
    public enum Mode: Sendable, Hashable {
        case search
        case detail(Detail)
        case help
        case inspector
        case quickActions(selection: Int)
        case confirm(Confirmation)
    }

    /// A destructive action waiting for y/n.
    public enum Confirmation: Sendable, Hashable {
        case deleteItem(String)
        case deleteDomain(String)
        case deleteEverything
        case reindex
        /// Quitting while an import runs drops the import.
        case quitDuringImport

        var question: String {
            switch self {
            case .deleteItem(let id): "Delete \(id)?"
            case .deleteDomain(let domain): "Delete every item in \(domain)?"
            case .deleteEverything: "Delete everything in the index?"
            case .reindex: "Re-index everything from Data/?"
            case .quitDuringImport: "An import is running: quit and discard it?"
            }
        }
    }

    public var query = ""
    /// Cursor position in the query, in characters.
    public var cursor = 0
    public var response: SearchResponse?
    public var microseconds = 0
    /// Why the query is not run (too long), shown in the search bar.
    public var queryError: String?
    public var selection = 0
    /// Selected related item in the detail pane.
    public var detailSelection = 0
    /// First line of the detail pane shown.
    public var detailScroll = 0
    /// The details under the one shown (Enter on a related item pushes,
    /// Esc pops), nearest last.
    public var history: [DetailFrame] = []
    /// First result shown in the list.
    public var scroll = 0
    /// First line of the preview shown (Shift-↑/↓).
    public var previewScroll = 0
    /// Log lines scrolled up from the newest in the inspector.
    public var inspectorScroll = 0
    /// Results asked of the engine: grows a page at a time as the list
    /// is browsed toward its end.
    public var requested = 0
    /// Tokens each shown result matched (any field, typos included), for
    /// highlighting, by identifier.
    public var matchedTokens: [String: Set<String>] = [:]
    /// Whether the list shows the starting point (recents, domains) of an empty query.
    public var showsStartingPoint = false
    /// A picker (`searchlight pick`): Enter chooses instead of opening.
    public var picking = false
    /// What the picker chose.
    public var chosen: SearchResult?
    /// Whether the user quit with Ctrl-C (exit 130) or left a picker with Esc.
    public var interrupted = false
    public var mode: Mode = .search
    /// Whether the preview shows the ranking explanation.
    public var showExplanation = false
    public var message: String?
    /// A demo's caption, shown above the status line.
    public var caption: String?
    /// Movement of each result since the previous answer (demos), by identifier.
    public var movements: [String: RankMovement] = [:]
    /// Titles that left the list with the last answer (demos).
    public var dropped: [String] = []
    public var quit = false
    /// Whether colours may be used (`NO_COLOR` unset and the terminal has them).
    public var color = true

    public init() {}

    /// A detail under the one shown, as it was left.
    public struct DetailFrame: Sendable, Hashable {
        public var detail: Detail
        public var selection: Int
        public var scroll: Int
    }

    public var results: [SearchResult] { response?.results ?? [] }
    public var selected: SearchResult? { results.indices.contains(selection) ? results[selection] : nil }
}

extension AppState.Mode {
    /// Whether a y/n question is showing.
    var isConfirmation: Bool {
        if case .confirm = self { return true }
        return false
    }
}
