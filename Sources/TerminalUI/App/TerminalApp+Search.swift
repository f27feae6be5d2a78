import Foundation
import SearchIndex

/// The search screen's keys: readline editing of the query, fzf's moves
/// through the list, opening, and the overlays.
extension TerminalApp {
    func handleSearch(_ key: Key) {
        if key == .character("?"), state.query.isEmpty {
            state.mode = .help
            return
        }
        var editor = QueryEditor(state.query, cursor: state.cursor)
        if editor.apply(key) {
            state.cursor = editor.cursor
            if editor.text != state.query {
                state.query = editor.text
                runQuery(keepSelection: false)
            }
            return
        }
        switch key {
        case .up, .control("p"), .control("k"), .wheelUp: move(by: -1)
        case .down, .control("n"), .control("j"), .wheelDown: move(by: 1)
        case .pageUp: move(by: -entries.count)
        case .pageDown: move(by: entries.count)
        case .shiftUp: state.previewScroll = max(0, state.previewScroll - 1)
        case .shiftDown: state.previewScroll += 1
        case .wheel(let up, let row, let column): wheel(up: up, row: row, column: column)
        case .click(let row, let column): click(row: row, column: column)
        case .enter: openSelection()
        case .tab: toggleExplanation()
        case .function(1): state.mode = .help
        case .control("t"), .function(2): showInspector()
        case .control("o"), .function(3): state.mode = .quickActions(selection: 0)
        case .escape:
            if state.picking || state.query.isEmpty {
                requestQuit()
            } else {
                state.query = ""
                state.cursor = 0
                runQuery(keepSelection: false)
            }
        default:
            break
        }
    }

    private func toggleExplanation() {
        state.showExplanation.toggle()
        guard state.showExplanation, state.response != nil, !state.showsStartingPoint else { return }
        // The same query again, now naming the matched tokens; the rank
        // movements of the last keystroke stay as they were.
        let (response, micros) = backend.search(state.query, limit: state.requested, explained: true)
        state.response = response
        state.microseconds = micros
        clampSelection()
    }

    /// The wheel scrolls the pane under the pointer: the preview, or the list.
    private func wheel(up: Bool, row: Int, column: Int) {
        let preview = layout.preview
        if row >= preview.top, row < preview.bottom, column >= preview.left, column < preview.right {
            state.previewScroll = max(0, state.previewScroll + (up ? -3 : 3))
        } else {
            move(by: up ? -1 : 1)
        }
    }

    /// A click selects a row; a click on the selected row (the second of a
    /// double-click) opens it.
    private func click(row: Int, column: Int) {
        let list = layout.list, entries = self.entries
        guard row >= entries.top, row < list.bottom, column >= list.left, column < list.right else { return }
        let index = state.scroll + (row - entries.top) / entries.rowsPerItem
        guard index < state.results.count else { return }
        if index == state.selection {
            openSelection()
        } else {
            move(by: index - state.selection)
        }
    }

    /// Opens the selection: the router's detail (recording a view), a
    /// domain of the starting point as a filter, or a picker's choice.
    func openSelection() {
        guard let selected = state.selected else { return }
        if selected.contentType == Self.domainListing {
            state.query = "domain:\(selected.title) "
            state.cursor = state.query.count
            runQuery(keepSelection: false)
            return
        }
        if state.picking {
            state.chosen = selected
            state.quit = true
            return
        }
        state.history = []
        show(backend.open(selected))
        // Opening records an engagement: the list behind follows.
        runQuery(keepSelection: true)
    }

    /// The content type of a starting point's domain rows.
    public static let domainListing = "searchlight.domain"

    func showInspector() {
        inspectorSnapshot = backend.inspector()
        state.inspectorScroll = 0
        state.mode = .inspector
    }
}
