import SearchIndex

/// Draws the state into a grid of cells. Pure: the same state and size give
/// the same screen.
public struct ScreenRenderer {
    public let state: AppState
    public let inspector: InspectorSnapshot?
    public let quickActions: [QuickAction]
    public let progress: String?

    public init(state: AppState, inspector: InspectorSnapshot? = nil, quickActions: [QuickAction] = [], progress: String? = nil) {
        self.state = state
        self.inspector = inspector
        self.quickActions = quickActions
        self.progress = progress
    }

    // MARK: - Styles

    private func style(_ s: Style) -> Style { state.color ? s : s.withoutColor }
    private var highlight: Style { style(Style(bold: true, underline: true, foreground: .accent)) }
    private var badge: Style { style(Style(foreground: .badge)) }
    private var muted: Style { style(Style(dim: true, foreground: .muted)) }
    private var heading: Style { style(Style(bold: true)) }

    public func render(width: Int, height: Int) -> Screen {
        var screen = Screen(width: width, height: height)
        let layout = Layout(width: width, height: height)
        if layout.tooSmall {
            for (i, line) in "Searchlight needs at least \(Layout.minimumWidth)×\(Layout.minimumHeight)".wrapped(toColumns: width).prefix(height).enumerated() {
                screen.write(line, row: i, column: 0)
            }
            return screen
        }
        drawSearchBar(&screen, layout)
        switch state.mode {
        case .search:
            drawResults(&screen, layout)
        case .detail(let detail):
            drawDetail(detail, &screen, layout)
        case .help:
            drawHelp(&screen, layout)
        case .inspector:
            drawInspector(&screen, layout)
        case .quickActions(let selection):
            drawQuickActions(selection, &screen, layout)
        case .confirm(let confirmation):
            if confirmation == .quitDuringImport { drawResults(&screen, layout) } else { drawInspector(&screen, layout) }
            drawConfirm(confirmation, &screen, layout)
        }
        drawStatus(&screen, layout)
        return screen
    }

    // MARK: - Search bar

    private func drawSearchBar(_ screen: inout Screen, _ layout: Layout) {
        let prompt = "Search › "
        var right = ""
        if let problem = state.queryError {
            right = "refused: \(problem)"
        } else if let response = state.response, !state.query.isEmpty {
            right = "\(response.total) result\(response.total == 1 ? "" : "s") · \(state.microseconds) µs"
        }
        let rightWidth = DisplayWidth.of(right)
        let fieldEnd = max(prompt.count + 4, layout.width - rightWidth - 1)
        var x = screen.write(prompt, row: 0, column: 0, style: heading)
        let fieldStart = x
        // Keep the cursor in view when the query is longer than the field.
        let characters = Array(state.query)
        // Drop characters from the left until the rest up to the cursor fits
        // (one width per character, so a long pasted query stays linear).
        var start = 0
        var widthToCursor = characters[..<min(state.cursor, characters.count)].reduce(0) {
            $0 + DisplayWidth.of(Terminal.visible($1))
        }
        while start < state.cursor, widthToCursor > fieldEnd - fieldStart - 1 {
            widthToCursor -= DisplayWidth.of(Terminal.visible(characters[start]))
            start += 1
        }
        var cursorColumn = fieldStart
        for (offset, character) in characters[start...].enumerated() {
            if start + offset == state.cursor { cursorColumn = x }
            let next = screen.write(String(character), row: 0, column: x, limit: fieldEnd)
            if next == x { break }
            x = next
        }
        if state.cursor >= characters.count { cursorColumn = x }
        if state.mode == .search, cursorColumn < fieldEnd {
            screen.cursor = (0, cursorColumn)
            // The cursor is also drawn, for terminals (and captures) that hide it.
            screen.restyle(row: 0, from: cursorColumn, to: cursorColumn + 1) { $0.reverse = true }
        }
        if rightWidth > 0 { screen.write(right, row: 0, column: layout.width - rightWidth, style: muted) }
        screen.write(String(repeating: "─", count: layout.width), row: 1, column: 0, style: muted)
    }

    // MARK: - Results

    private func drawResults(_ screen: inout Screen, _ layout: Layout) {
        let list = layout.list
        if !layout.sideBySide {
            screen.write(String(repeating: "─", count: layout.width), row: list.bottom, column: 0, style: muted)
        } else {
            for row in list.top..<list.bottom { screen.write("│", row: row, column: list.right, style: muted) }
        }
        if state.query.isEmpty {
            let lines = ["Type to search colleagues, shows, photos and web pages.",
                         "Try: brent · aurora · 北极光 · 555-010 · drama", "F1 or ? shows every key."]
            var row = list.top
            for line in lines {
                for part in line.wrapped(toColumns: list.width - 2) where row < list.bottom {
                    screen.write(part, row: row, column: list.left + 1, style: row == list.top ? heading : muted)
                    row += 1
                }
            }
            drawPreviewHint(&screen, layout)
            return
        }
        if state.results.isEmpty {
            let lines = ["No results for “\(state.query)”.", "Every word must match: try fewer words,", "or the start of a name, e.g. “aur”."]
            var row = list.top
            for line in lines {
                for part in line.wrapped(toColumns: list.width - 2) where row < list.bottom {
                    screen.write(part, row: row, column: list.left + 1, style: row == list.top ? heading : muted)
                    row += 1
                }
            }
            return
        }
        let visible = layout.visibleItems
        let first = state.scroll
        for (slot, index) in (first..<min(state.results.count, first + visible)).enumerated() {
            drawResult(state.results[index], selected: index == state.selection,
                       top: list.top + slot * layout.rowsPerItem, layout: layout, screen: &screen)
        }
        if let selected = state.selected { drawPreview(selected, &screen, layout) }
    }

    private func drawResult(_ result: SearchResult, selected: Bool, top: Int, layout: Layout, screen: inout Screen) {
        let list = layout.list
        let limit = list.right
        var x = screen.write(selected ? "▸ " : "  ", row: top, column: list.left, limit: limit, style: selected ? heading : .plain)
        if let movement = state.movements[result.uniqueIdentifier] {
            let marker = movement.description.padding(toLength: 4, withPad: " ", startingAt: 0)
            x = screen.write(marker, row: top, column: x, limit: limit, style: movement == .same ? muted : highlight)
        }
        x = screen.write("[\(Describe.badge(result.contentType))] ", row: top, column: x, limit: limit, style: badge)
        // Title, with the matched characters highlighted.
        let highlighted = Set(result.highlights.filter { $0.field == "title" }.flatMap { $0.start..<($0.start + $0.length) })
        let titleWidth = limit - x
        let title = result.title.truncated(toColumns: titleWidth)
        for (offset, character) in title.enumerated() {
            x = screen.write(String(character), row: top, column: x, limit: limit,
                             style: highlighted.contains(offset) && character != "…" ? highlight : .plain)
        }
        if selected { screen.restyle(row: top, from: list.left, to: limit) { $0.reverse = true } }
        guard layout.rowsPerItem >= 3 else { return }
        let description = result.attributes.contentDescription ?? result.uniqueIdentifier
        screen.write(description.truncated(toColumns: list.width - 4), row: top + 1, column: list.left + 4, limit: limit, style: muted)
        if let thumbnail = Describe.thumbnail(result.attributes.thumbnail) {
            var tx = list.left + 4
            if let hex = result.attributes.thumbnail?.dominantColor, let rgb = RGB(hex: hex), state.color {
                tx = screen.write("██", row: top + 2, column: tx, limit: limit, style: Style(foreground: rgb))
                tx += 1
            }
            screen.write(thumbnail.truncated(toColumns: limit - tx), row: top + 2, column: tx, limit: limit, style: muted)
        }
    }

    private func drawPreviewHint(_ screen: inout Screen, _ layout: Layout) {
        let p = layout.preview
        guard p.height > 0 else { return }
        screen.write("The preview follows the selection.", row: p.top, column: p.left, limit: p.right, style: muted)
    }

    private func drawPreview(_ result: SearchResult, _ screen: inout Screen, _ layout: Layout) {
        let p = layout.preview
        guard p.height > 0, p.width > 4 else { return }
        var lines: [(String, Style)] = []
        lines.append((result.title, heading))
        lines.append(("\(Describe.badge(result.contentType)) · \(result.uniqueIdentifier)", badge))
        lines.append(("sources: \(Describe.sources(result.sources))", muted))
        lines.append(("visibility: \(result.visibility.rawValue)", muted))
        if let domain = result.domainIdentifier { lines.append(("domain: \(domain)", muted)) }
        if state.showExplanation {
            lines.append(("why here:", heading))
            for line in result.explanation.lines { lines.append(("  " + line, .plain)) }
        }
        for (label, value) in Describe.facts(result.attributes) {
            lines.append(("\(label): \(value)", .plain))
        }
        if !state.showExplanation { lines.append(("Tab shows why it ranks here.", muted)) }
        var row = p.top
        for (text, lineStyle) in lines {
            for part in text.wrapped(toColumns: p.width) {
                guard row < p.bottom else { return }
                screen.write(part, row: row, column: p.left, limit: p.right, style: lineStyle)
                row += 1
            }
        }
    }

    // MARK: - Detail

    private func drawDetail(_ detail: Detail, _ screen: inout Screen, _ layout: Layout) {
        let width = layout.width - 2
        var lines: [(String, Style)] = [
            (detail.title, heading), (detail.subtitle, badge), (detail.via, muted),
        ]
        if let url = detail.browserURL {
            lines.append(("This opens in the browser (not run here): \(url)", highlight))
        }
        for fact in detail.facts { lines.append(("\(fact.label): \(fact.value)", .plain)) }
        if !detail.actions.isEmpty {
            lines.append(("Actions (shown, not run):", heading))
            for action in detail.actions { lines.append(("  • " + action, .plain)) }
        }
        var relatedRows: [Int: Bool] = [:]
        if !detail.related.isEmpty {
            var lastHeading = ""
            for (index, related) in detail.related.enumerated() {
                if related.heading != lastHeading {
                    lines.append((related.heading + ":", heading))
                    lastHeading = related.heading
                }
                relatedRows[lines.count] = index == state.detailSelection
                lines.append(((index == state.detailSelection ? "▸ " : "  ") + related.title + "  " + related.identifier, .plain))
            }
        }
        var row = 2
        for (index, (text, lineStyle)) in lines.enumerated() where !text.isEmpty {
            for part in text.wrapped(toColumns: width) {
                guard row < layout.statusRow else { return }
                screen.write(part, row: row, column: 1, limit: layout.width - 1, style: lineStyle)
                if relatedRows[index] == true { screen.restyle(row: row, from: 1, to: layout.width - 1) { $0.reverse = true } }
                row += 1
            }
        }
    }

    // MARK: - Overlays

    static let keyHelp: [(String, String)] = [
        ("type", "search as you type (every word must match)"),
        ("↑ ↓  Ctrl-P Ctrl-N  Ctrl-K Ctrl-J", "move the selection"),
        ("PgUp PgDn", "move a page"),
        ("← →  Home End  Ctrl-A Ctrl-E", "move in the query"),
        ("Backspace  Delete", "delete a character"),
        ("Ctrl-U  Ctrl-W", "delete to the start, the word before"),
        ("Enter", "open the selection (router, detail, engagement)"),
        ("Tab", "show why a result ranks where it does"),
        ("Ctrl-O  F3", "quick actions"),
        ("Ctrl-T  F2", "inspector: counts, log, preference, delete, re-index"),
        ("Esc", "back; on the search screen clear, then quit"),
        ("F1  ?", "this help (? when the query is empty)"),
        ("Ctrl-C", "quit"),
        ("mouse", "wheel moves, click selects"),
    ]

    private func drawHelp(_ screen: inout Screen, _ layout: Layout) {
        var row = 2
        screen.write("Keys", row: row, column: 1, style: heading)
        row += 1
        let keyWidth = min(34, layout.width / 2)
        for (keys, meaning) in Self.keyHelp where row < layout.statusRow {
            screen.write(keys, row: row, column: 1, limit: keyWidth, style: badge)
            screen.write(meaning, row: row, column: keyWidth + 1, limit: layout.width - 1)
            row += 1
        }
    }

    private func drawInspector(_ screen: inout Screen, _ layout: Layout) {
        guard let inspector else { return }
        var lines: [(String, Style)] = [("Inspector", heading)]
        lines.append(("indexing preference: \(inspector.preference.rawValue)  (p toggles)", .plain))
        lines.append(("by source: " + inspector.bySource.map { "\($0) \($1)" }.joined(separator: " · "), .plain))
        lines.append(("by domain:", heading))
        for (domain, count) in inspector.byDomain { lines.append(("  \(domain) \(count)", .plain)) }
        let target = state.selected.map { "\($0.uniqueIdentifier)" } ?? "nothing selected"
        lines.append(("d delete \(target) · D delete its domain · X delete everything · r re-index", badge))
        lines.append(("log (newest last):", heading))
        let room = max(0, layout.statusRow - 2 - lines.count)
        for (time, kind, detail) in inspector.log.suffix(room) { lines.append(("  \(time) \(kind) \(detail)", muted)) }
        var row = 2
        for (text, lineStyle) in lines where row < layout.statusRow {
            screen.write(text.truncated(toColumns: layout.width - 2), row: row, column: 1, limit: layout.width - 1, style: lineStyle)
            row += 1
        }
    }

    private func drawQuickActions(_ selection: Int, _ screen: inout Screen, _ layout: Layout) {
        var row = 2
        screen.write("Quick actions", row: row, column: 1, style: heading)
        row += 1
        for (index, action) in quickActions.enumerated() where row < layout.statusRow {
            let text = (index == selection ? "▸ " : "  ") + action.title + (action.subtitle.isEmpty ? "" : " — " + action.subtitle)
            screen.write(text.truncated(toColumns: layout.width - 2), row: row, column: 1, limit: layout.width - 1)
            if index == selection { screen.restyle(row: row, from: 1, to: layout.width - 1) { $0.reverse = true } }
            row += 1
        }
    }

    private func drawConfirm(_ confirmation: AppState.Confirmation, _ screen: inout Screen, _ layout: Layout) {
        let text = confirmation.question + " (y/n)"
        let row = max(2, layout.height / 2)
        screen.write(String(repeating: " ", count: layout.width), row: row, column: 0)
        screen.write(text.truncated(toColumns: layout.width - 2), row: row, column: 1, style: style(Style(bold: true, reverse: true, foreground: .alert)))
    }

    private func drawStatus(_ screen: inout Screen, _ layout: Layout) {
        let hint: String
        switch state.mode {
        case .search: hint = "↑↓ move · Enter open · Tab why · ^O actions · ^T inspector · F1 keys · ^C quit"
        case .detail: hint = "Esc back · ↑↓ related · Enter open related · ^C quit"
        case .help: hint = "Esc back"
        case .inspector: hint = "p preference · d/D/X delete · r re-index · Esc back"
        case .quickActions: hint = "↑↓ choose · Enter run · Esc back"
        case .confirm: hint = "y yes · n no"
        }
        if let caption = state.caption, layout.statusRow - 1 > 2 {
            screen.write(String(repeating: " ", count: layout.width), row: layout.statusRow - 1, column: 0)
            screen.write(("▶ " + caption).truncated(toColumns: layout.width), row: layout.statusRow - 1, column: 0,
                         style: style(Style(bold: true, reverse: true, foreground: .accent)))
        }
        let droppedNote = state.dropped.isEmpty ? nil : "dropped: " + state.dropped.joined(separator: ", ")
        let text = [progress, state.message, droppedNote].compactMap { $0 }.joined(separator: " · ")
        screen.write((text.isEmpty ? hint : text).truncated(toColumns: layout.width), row: layout.statusRow, column: 0,
                     style: text.isEmpty ? muted : heading)
    }
}
