import Foundation
import SearchIndex

/// The screen model: key events in, state and a grid of cells out. It owns
/// the state; the backend owns the index. The driver calls `handle` for every
/// key and `render` after it.
public final class TerminalApp {
    public internal(set) var state: AppState
    public private(set) var width: Int
    public private(set) var height: Int
    let backend: any SearchBackend
    var inspectorSnapshot: InspectorSnapshot?

    /// Results asked of the engine at a time; more are paged in as the
    /// list is browsed toward its end.
    public static let pageSize = 100

    public init(backend: any SearchBackend, width: Int, height: Int, color: Bool = true, picking: Bool = false) {
        self.backend = backend
        self.width = width
        self.height = height
        state = AppState()
        state.color = color
        state.picking = picking
        state.requested = Self.pageSize
        runQuery(keepSelection: false)
    }

    public var shouldQuit: Bool { state.quit }

    /// Whether answers are compared with the one before (rank movement), as demos show.
    public var showMovement = false

    /// Sets a demo caption.
    public var caption: String? {
        get { state.caption }
        set { state.caption = newValue }
    }

    /// Shows a one-line message in the status line.
    public func note(_ message: String) {
        state.message = message
    }

    /// Starts with `query` typed (a picker's initial query).
    public func start(with query: String) {
        state.query = query
        state.cursor = query.count
        runQuery(keepSelection: false)
    }

    public func render() -> Screen {
        ScreenRenderer(
            state: state, inspector: inspectorSnapshot, quickActions: backend.quickActions, progress: backend.progress,
            loading: backend.isLoading)
            .render(width: width, height: height)
    }

    /// Re-runs the query, as after the index changed underneath: the
    /// selection stays on its item, and an open inspector is read again.
    public func refresh() {
        state.matchedTokens = [:]
        runQuery(keepSelection: true)
        if state.mode == .inspector || state.mode.isConfirmation { inspectorSnapshot = backend.inspector() }
    }

    public func handle(_ key: Key) {
        if case .resize(let w, let h) = key {
            width = w
            height = h
            clampSelection()
            keepDetailSelectionVisible()
            return
        }
        if key == .control("c") {
            requestQuit(interrupted: true)
            return
        }
        state.message = nil
        switch state.mode {
        case .search: handleSearch(key)
        case .detail(let detail): handleDetail(key, detail)
        case .help: state.mode = .search
        case .inspector: handleInspector(key)
        case .quickActions(let selection): handleQuickActions(key, selection)
        case .confirm(let confirmation): handleConfirm(key, confirmation)
        }
    }

    /// Quits, after asking when an import would be dropped. Ctrl-C and a
    /// picker's Esc quit as interrupted (exit 130).
    func requestQuit(interrupted: Bool = false) {
        if backend.isImporting, state.mode != .confirm(.quitDuringImport) {
            state.mode = .confirm(.quitDuringImport)
        } else {
            state.interrupted = state.interrupted || interrupted || state.picking
            state.quit = true
        }
    }

    var layout: Layout { Layout(width: width, height: height) }

    /// Where the list's entries are drawn now.
    var entries: Layout.Entries { layout.entries(startingPoint: state.showsStartingPoint) }

    // MARK: - Query

    func runQuery(keepSelection: Bool) {
        let previousSelection = state.selected?.uniqueIdentifier
        let previous = state.showsStartingPoint ? [] : state.results.prefix(entries.count).map { ($0.uniqueIdentifier, $0.title) }
        defer {
            if showMovement { compareWithPrevious(previous) }
        }
        if !keepSelection { state.requested = Self.pageSize }
        state.queryError = QueryLimits.problem(with: state.query) ?? QueryFilters.problem(with: state.query)
        state.showsStartingPoint = false
        if state.queryError != nil {
            state.response = nil
            state.microseconds = 0
        } else if state.query.trimmingCharacters(in: .whitespaces).isEmpty {
            // Spotlight's starting point: what was viewed, then each domain.
            let entries = backend.startingPoint()
            state.response = SearchResponse(query: "", total: entries.count, results: entries)
            state.microseconds = 0
            state.showsStartingPoint = true
        } else {
            // The explanation's matched tokens only while it is shown (Tab).
            let (response, micros) = backend.search(state.query, limit: state.requested, explained: state.showExplanation)
            state.response = response
            state.microseconds = micros
        }
        if !keepSelection {
            state.selection = 0
            state.scroll = 0
            state.matchedTokens = [:]
        } else if let selected = previousSelection, let index = state.results.firstIndex(where: { $0.uniqueIdentifier == selected }) {
            // The selection follows its item; when the item is gone it
            // stays at the same rank.
            state.selection = index
        }
        if state.selected?.uniqueIdentifier != previousSelection { state.previewScroll = 0 }
        clampSelection()
        findMatchedTokens()
    }

    private func compareWithPrevious(_ previous: [(String, String)]) {
        let shown = state.showsStartingPoint ? [] : state.results.prefix(entries.count).map(\.uniqueIdentifier)
        let (movements, dropped) = RankMovement.compare(previous: previous.map(\.0), current: shown)
        state.movements = Dictionary(zip(shown, movements), uniquingKeysWith: { a, _ in a })
        let titles = Dictionary(previous, uniquingKeysWith: { a, _ in a })
        state.dropped = dropped.map { titles[$0] ?? $0 }
    }

    /// Asks which tokens the rows on screen matched, for those not known yet.
    func findMatchedTokens() {
        guard !state.showsStartingPoint, !state.results.isEmpty else { return }
        let shown = state.results[state.scroll..<min(state.results.count, state.scroll + entries.count)]
        let unknown = shown.map(\.uniqueIdentifier).filter { state.matchedTokens[$0] == nil }
        guard !unknown.isEmpty else { return }
        state.matchedTokens.merge(backend.matchedTokens(of: unknown, query: state.query)) { _, new in new }
    }

    // MARK: - Selection

    func move(by delta: Int) {
        let before = state.selection
        state.selection += delta
        pageInIfNeeded()
        clampSelection()
        if state.selection != before { state.previewScroll = 0 }
        findMatchedTokens()
    }

    /// Asks the engine for the next page when the selection nears the end
    /// of the results it has and more match.
    private func pageInIfNeeded() {
        guard !state.showsStartingPoint, let response = state.response,
            state.selection >= response.results.count - entries.count, response.total > response.results.count
        else { return }
        state.requested = max(state.requested, response.results.count) + Self.pageSize
        let selection = state.selection
        let (more, micros) = backend.search(state.query, limit: state.requested, explained: state.showExplanation)
        state.response = more
        state.microseconds = micros
        state.selection = selection
    }

    func clampSelection() {
        let count = state.results.count
        state.selection = count == 0 ? 0 : min(max(0, state.selection), count - 1)
        let visible = entries.count
        if state.selection < state.scroll { state.scroll = state.selection }
        if state.selection >= state.scroll + visible { state.scroll = state.selection - visible + 1 }
        state.scroll = max(0, min(state.scroll, max(0, count - visible)))
    }
}
