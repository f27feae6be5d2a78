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
    /// First result shown in the list.
    public var scroll = 0
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
