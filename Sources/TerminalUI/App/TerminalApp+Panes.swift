import Foundation
import SearchIndex

/// The panes over the list: the detail (with its history), the inspector,
/// the y/n questions and the quick actions.
extension TerminalApp {
    // MARK: - Detail

    /// Shows `detail` at its top, its first related item selected.
    func show(_ detail: Detail) {
        state.detailSelection = 0
        state.detailScroll = 0
        state.mode = .detail(detail)
    }

    private var detailText: DetailText? {
        guard case .detail(let detail) = state.mode else { return nil }
        return DetailText(detail, selection: state.detailSelection, width: layout.width - 2)
    }

    private var detailHeight: Int { max(1, layout.detailRows.count) }

    func handleDetail(_ key: Key, _ detail: Detail) {
        switch key {
        case .escape, .backspace, .control("h"): back()
        case .up, .control("p"), .control("k"): stepDetail(-1, detail)
        case .down, .control("n"), .control("j"): stepDetail(1, detail)
        case .pageUp: scrollDetail(by: -detailHeight)
        case .pageDown: scrollDetail(by: detailHeight)
        case .wheelUp: scrollDetail(by: -3)
        case .wheelDown: scrollDetail(by: 3)
        case .wheel(let up, _, _): scrollDetail(by: up ? -3 : 3)
        case .home: scrollDetail(by: -Int(Int32.max))
        case .end: scrollDetail(by: Int(Int32.max))
        case .enter: openRelated(detail)
        case .function(1): state.mode = .help
        default: break
        }
    }

    /// Esc: the detail before, as it was left, then the results.
    private func back() {
        guard let frame = state.history.popLast() else {
            state.mode = .search
            clampSelection()
            return
        }
        state.mode = .detail(frame.detail)
        state.detailSelection = frame.selection
        state.detailScroll = frame.scroll
    }

    /// ↑↓ move among the related items (the pane follows); without any,
    /// they scroll the pane.
    private func stepDetail(_ delta: Int, _ detail: Detail) {
        guard !detail.related.isEmpty else { return scrollDetail(by: delta) }
        state.detailSelection = min(max(0, state.detailSelection + delta), detail.related.count - 1)
        keepDetailSelectionVisible()
    }

    /// Scrolls the pane; the selection moves onto a related item still in
    /// view, so Enter never opens one that is not shown.
    private func scrollDetail(by delta: Int) {
        guard let text = detailText else { return }
        let last = max(0, text.lines.count - detailHeight)
        state.detailScroll = min(max(0, state.detailScroll + delta), last)
        let window = state.detailScroll..<(state.detailScroll + detailHeight)
        let shown = text.related(in: window)
        if let line = text.line(ofRelated: state.detailSelection), !window.contains(line), let first = shown.first, let lastShown = shown.last {
            state.detailSelection = line < window.lowerBound ? first : lastShown
        }
    }

    /// Scrolls so that the selected related item is in view.
    func keepDetailSelectionVisible() {
        guard let text = detailText, let line = text.line(ofRelated: state.detailSelection) else { return }
        state.detailScroll = DetailText.scroll(state.detailScroll, keeping: line, height: detailHeight)
    }

    /// Enter on a related item opens it on top of this one (Esc returns).
    private func openRelated(_ detail: Detail) {
        guard detail.related.indices.contains(state.detailSelection) else { return }
        let identifier = detail.related[state.detailSelection].identifier
        state.history.append(.init(detail: detail, selection: state.detailSelection, scroll: state.detailScroll))
        show(backend.open(identifier: identifier))
        runQuery(keepSelection: true)
    }

    // MARK: - Inspector

    func handleInspector(_ key: Key) {
        let page = max(1, layout.height - 12)
        switch key {
        case .escape, .control("t"), .function(2):
            state.mode = .search
        case .up, .control("p"), .wheelUp, .wheel(up: true, _, _): state.inspectorScroll += 1
        case .down, .control("n"), .wheelDown, .wheel(up: false, _, _): state.inspectorScroll = max(0, state.inspectorScroll - 1)
        case .pageUp: state.inspectorScroll += page
        case .pageDown: state.inspectorScroll = max(0, state.inspectorScroll - page)
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
        state.inspectorScroll = min(state.inspectorScroll, max(0, (inspectorSnapshot?.log.count ?? 0) - 1))
    }

    func handleConfirm(_ key: Key, _ confirmation: AppState.Confirmation) {
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

    func handleQuickActions(_ key: Key, _ selection: Int) {
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
            state.history = []
            show(backend.runQuickAction(backend.quickActions[selection].type))
        default:
            break
        }
    }
}
