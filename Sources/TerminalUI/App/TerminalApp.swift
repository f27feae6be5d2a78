import Foundation
import SearchIndex

/// The screen model: key events in, state and a grid of cells out. It owns
/// the state; the backend owns the index. The driver calls `handle` for every
/// key and `render` after it.
public final class TerminalApp {
    public private(set) var state: AppState
    public private(set) var width: Int
    public private(set) var height: Int
    private let backend: any SearchBackend
    private var inspectorSnapshot: InspectorSnapshot?

    /// Results kept per query: more than a screen, so paging stays local.
    public static let resultLimit = 100

    public init(backend: any SearchBackend, width: Int, height: Int, color: Bool = true) {
        self.backend = backend
        self.width = width
        self.height = height
        state = AppState()
        state.color = color
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

    public func render() -> Screen {
        ScreenRenderer(state: state, inspector: inspectorSnapshot, quickActions: backend.quickActions, progress: backend.progress)
            .render(width: width, height: height)
    }

    /// Re-runs the query, as after the index changed underneath: the
    /// selection stays on its item, and an open inspector is read again.
    public func refresh() {
        runQuery(keepSelection: true)
        if state.mode == .inspector || state.mode.isConfirmation { inspectorSnapshot = backend.inspector() }
    }

    public func handle(_ key: Key) {
        if case .resize(let w, let h) = key {
            width = w
            height = h
            clampSelection()
            return
        }
        if key == .control("c") {
            requestQuit()
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

    // MARK: - Search

    private var layout: Layout { Layout(width: width, height: height) }

    private func handleSearch(_ key: Key) {
        var characters = Array(state.query)
        let before = state.query
        switch key {
        case .character("?") where state.query.isEmpty:
            state.mode = .help
            return
        case .character(let c):
            characters.insert(c, at: state.cursor)
            state.cursor += 1
        case .backspace, .control("h"):
            if state.cursor > 0 {
                characters.remove(at: state.cursor - 1)
                state.cursor -= 1
            }
        case .delete, .control("d"):
            if state.cursor < characters.count { characters.remove(at: state.cursor) }
        case .left, .control("b"): state.cursor = max(0, state.cursor - 1)
        case .right, .control("f"): state.cursor = min(characters.count, state.cursor + 1)
        case .home, .control("a"): state.cursor = 0
        case .end, .control("e"): state.cursor = characters.count
        case .control("u"):
            characters.removeSubrange(0..<state.cursor)
            state.cursor = 0
        case .control("w"):
            var start = state.cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<state.cursor)
            state.cursor = start
        case .up, .control("p"), .control("k"): move(by: -1)
        case .down, .control("n"), .control("j"): move(by: 1)
        case .pageUp: move(by: -layout.visibleItems)
        case .pageDown: move(by: layout.visibleItems)
        case .wheelUp: move(by: -1)
        case .wheelDown: move(by: 1)
        case .click(let row, let column): click(row: row, column: column)
        case .enter: openSelection()
        case .tab:
            state.showExplanation.toggle()
            if state.showExplanation, state.response != nil {
                // The same query again, now naming the matched tokens; the
                // rank movements of the last keystroke stay as they were.
                let (response, micros) = backend.search(state.query, limit: Self.resultLimit, explained: true)
                state.response = response
                state.microseconds = micros
                clampSelection()
            }
        case .function(1): state.mode = .help
        case .control("t"), .function(2): showInspector()
        case .control("o"), .function(3): state.mode = .quickActions(selection: 0)
        case .escape:
            if state.query.isEmpty {
                requestQuit()
            } else {
                characters = []
                state.cursor = 0
            }
        default:
            break
        }
        let query = String(characters)
        if query != before {
            state.query = query
            runQuery(keepSelection: false)
        }
    }

    /// Quits, after asking when an import would be dropped.
    private func requestQuit() {
        if backend.isImporting, state.mode != .confirm(.quitDuringImport) {
            state.mode = .confirm(.quitDuringImport)
        } else {
            state.quit = true
        }
    }

    private func runQuery(keepSelection: Bool) {
        let previousSelection = state.selected?.uniqueIdentifier
        let previous = state.results.prefix(layout.visibleItems).map { ($0.uniqueIdentifier, $0.title) }
        defer {
            if showMovement {
                let shown = state.results.prefix(layout.visibleItems).map(\.uniqueIdentifier)
                let (movements, dropped) = RankMovement.compare(previous: previous.map(\.0), current: shown)
                state.movements = Dictionary(zip(shown, movements), uniquingKeysWith: { a, _ in a })
                let titles = Dictionary(previous, uniquingKeysWith: { a, _ in a })
                state.dropped = dropped.map { titles[$0] ?? $0 }
            }
        }
        state.queryError = QueryLimits.problem(with: state.query)
        if state.queryError != nil || state.query.trimmingCharacters(in: .whitespaces).isEmpty {
            state.response = nil
            state.microseconds = 0
        } else {
            // The explanation's matched tokens only while it is shown (Tab).
            let (response, micros) = backend.search(state.query, limit: Self.resultLimit, explained: state.showExplanation)
            state.response = response
            state.microseconds = micros
        }
        if !keepSelection {
            state.selection = 0
            state.scroll = 0
        } else if let selected = previousSelection, let index = state.results.firstIndex(where: { $0.uniqueIdentifier == selected }) {
            // The selection follows its item; when the item is gone it
            // stays at the same rank.
            state.selection = index
        }
        clampSelection()
    }

    private func move(by delta: Int) {
        state.selection += delta
        clampSelection()
    }

    private func clampSelection() {
        let count = state.results.count
        state.selection = count == 0 ? 0 : min(max(0, state.selection), count - 1)
        let visible = layout.visibleItems
        if state.selection < state.scroll { state.scroll = state.selection }
        if state.selection >= state.scroll + visible { state.scroll = state.selection - visible + 1 }
        state.scroll = max(0, min(state.scroll, max(0, count - visible)))
    }

    private func click(row: Int, column: Int) {
        let list = layout.list
        guard row >= list.top, row < list.bottom, column >= list.left, column < list.right else { return }
        let index = state.scroll + (row - list.top) / layout.rowsPerItem
        if index < state.results.count {
            if index == state.selection {
                openSelection()
            } else {
                state.selection = index
            }
        }
    }

    private func openSelection() {
        guard let selected = state.selected else { return }
        state.detailSelection = 0
        state.mode = .detail(backend.open(selected))
        // Opening records an engagement: the list behind follows.
        runQuery(keepSelection: true)
    }

    // MARK: - Detail

    private func handleDetail(_ key: Key, _ detail: Detail) {
        switch key {
        case .escape, .backspace, .control("h"):
            state.mode = .search
        case .up, .control("p"), .control("k"):
            state.detailSelection = max(0, state.detailSelection - 1)
        case .down, .control("n"), .control("j"):
            state.detailSelection = min(max(0, detail.related.count - 1), state.detailSelection + 1)
        case .enter:
            guard detail.related.indices.contains(state.detailSelection) else { return }
            let next = backend.open(identifier: detail.related[state.detailSelection].identifier)
            state.detailSelection = 0
            state.mode = .detail(next)
            runQuery(keepSelection: true)
        case .function(1):
            state.mode = .help
        default:
            break
        }
    }

    // MARK: - Inspector

    private func showInspector() {
        inspectorSnapshot = backend.inspector()
        state.mode = .inspector
    }

    private func handleInspector(_ key: Key) {
        switch key {
        case .escape, .control("t"), .function(2):
            state.mode = .search
        case .character("p"):
            state.message = backend.togglePreference()
            afterChange()
        case .character("d"):
            if let id = state.selected?.uniqueIdentifier { state.mode = .confirm(.deleteItem(id)) } else { state.message = "nothing selected" }
        case .character("D"):
            if let domain = state.selected?.domainIdentifier { state.mode = .confirm(.deleteDomain(domain)) } else { state.message = "the selection has no domain" }
        case .character("X"):
            state.mode = .confirm(.deleteEverything)
        case .character("r"):
            state.mode = .confirm(.reindex)
        default:
            break
        }
    }

    private func handleConfirm(_ key: Key, _ confirmation: AppState.Confirmation) {
        switch key {
        case .character("y"), .character("Y"):
            switch confirmation {
            case .deleteItem(let id): state.message = backend.deleteItem(id)
            case .deleteDomain(let domain): state.message = backend.deleteDomain(domain)
            case .deleteEverything: state.message = backend.deleteEverything()
            case .reindex: state.message = backend.reindex()
            case .quitDuringImport:
                state.quit = true
                return
            }
            state.mode = .inspector
            afterChange()
        case .character("n"), .character("N"), .escape:
            state.mode = confirmation == .quitDuringImport ? .search : .inspector
            state.message = "cancelled"
        default:
            break
        }
    }

    private func afterChange() {
        runQuery(keepSelection: true)
        inspectorSnapshot = backend.inspector()
    }

    // MARK: - Quick actions

    private func handleQuickActions(_ key: Key, _ selection: Int) {
        let count = backend.quickActions.count
        switch key {
        case .escape, .control("o"), .function(3):
            state.mode = .search
        case .up, .control("p"), .control("k"):
            state.mode = .quickActions(selection: max(0, selection - 1))
        case .down, .control("n"), .control("j"):
            state.mode = .quickActions(selection: min(max(0, count - 1), selection + 1))
        case .enter:
            guard backend.quickActions.indices.contains(selection) else { return }
            state.detailSelection = 0
            state.mode = .detail(backend.runQuickAction(backend.quickActions[selection].type))
        default:
            break
        }
    }
}
