import SearchIndex

/// The panes that scroll (preview, detail, inspector's log) and the
/// overlays. A pane holding more than fits shows `↑ more` on its first
/// row and `↓ more` on its last.
extension ScreenRenderer {
    /// Writes the window of `lines` starting at `scroll` into `rows` ×
    /// `left..<right`, with the markers; returns the scroll used (clamped).
    @discardableResult
    func drawScrolled(
        _ lines: [(text: String, style: Style, result: SearchResult?, selected: Bool)], scroll: Int,
        rows: Range<Int>, left: Int, right: Int, _ screen: inout Screen
    ) -> Int {
        guard !rows.isEmpty else { return 0 }
        let first = min(max(0, scroll), max(0, lines.count - rows.count))
        for (row, line) in zip(rows, lines[first...]) {
            if let result = line.result {
                writeHighlighted(line.text, for: result, row: row, column: left, limit: right, style: line.style, &screen)
            } else {
                screen.write(line.text, row: row, column: left, limit: right, style: line.style)
            }
            if line.selected { screen.restyle(row: row, from: left, to: right) { $0.reverse = true } }
        }
        if first > 0 { marker("↑ more", row: rows.lowerBound, right: right, &screen) }
        if first + rows.count < lines.count { marker("↓ more", row: rows.upperBound - 1, right: right, &screen) }
        return first
    }

    private func marker(_ text: String, row: Int, right: Int, _ screen: inout Screen) {
        let column = right - DisplayWidth.of(text)
        screen.write(String(repeating: " ", count: DisplayWidth.of(text) + 1), row: row, column: column - 1, limit: right)
        screen.write(text, row: row, column: column, limit: right, style: style(Style(bold: true, reverse: true, foreground: .accent)))
    }

    // MARK: - Preview

    func drawPreview(_ result: SearchResult, _ screen: inout Screen, _ layout: Layout) {
        let p = layout.preview
        guard p.height > 0, p.width > 4 else { return }
        var paragraphs: [(String, Style, Bool)] = []
        paragraphs.append((result.title, heading, true))
        if result.contentType == TerminalApp.domainListing {
            paragraphs.append((result.attributes.contentDescription ?? "", muted, false))
            paragraphs.append(("Enter lists them (the query domain:\(result.title)).", muted, false))
        } else {
            paragraphs.append(("\(Describe.badge(result.contentType)) · \(result.uniqueIdentifier)", badge, false))
            paragraphs.append(("sources: \(Describe.sources(result.sources))", muted, false))
            paragraphs.append(("visibility: \(result.visibility.rawValue)", muted, false))
            if let domain = result.domainIdentifier { paragraphs.append(("domain: \(domain)", muted, false)) }
            if state.showExplanation {
                paragraphs.append(("why here:", heading, false))
                for line in result.explanation.lines { paragraphs.append(("  " + line, .plain, false)) }
            }
            for (label, value) in Describe.facts(result.attributes) { paragraphs.append(("\(label): \(value)", .plain, true)) }
            if !state.showExplanation { paragraphs.append(("Tab shows why it ranks here.", muted, false)) }
        }
        let lines = paragraphs.flatMap { text, lineStyle, matched in
            text.wrapped(toColumns: p.width).map { (text: $0, style: lineStyle, result: matched ? result : nil, selected: false) }
        }
        drawScrolled(lines, scroll: state.previewScroll, rows: p.top..<p.bottom, left: p.left, right: p.right, &screen)
    }

    // MARK: - Detail

    func drawDetail(_ detail: Detail, _ screen: inout Screen, _ layout: Layout) {
        let text = DetailText(detail, selection: state.detailSelection, width: layout.width - 2)
        let lines = text.lines.map { line in
            (text: line.text, style: tone(line.tone), result: SearchResult?.none,
             selected: line.related != nil && line.related == state.detailSelection)
        }
        drawScrolled(lines, scroll: state.detailScroll, rows: layout.detailRows, left: 1, right: layout.width - 1, &screen)
        if !state.history.isEmpty {
            let trail = "Esc back to \(state.history.last!.detail.title)"
            screen.write(trail.truncated(toColumns: layout.width / 2), row: 1, column: 1, style: muted)
        }
    }

    private func tone(_ tone: DetailText.Tone) -> Style {
        switch tone {
        case .heading: heading
        case .badge: badge
        case .muted: muted
        case .plain: .plain
        case .alert: highlight
        }
    }

    // MARK: - Overlays

    static let keyHelp: [(String, String)] = [
        ("type", "search as you type (every word must match)"),
        ("kind: domain: source:", "filter, e.g. kind:photo aurora, domain:com.example.tv"),
        ("↑ ↓  Ctrl-P Ctrl-N  Ctrl-K Ctrl-J", "move the selection"),
        ("PgUp PgDn", "move a page (more results load on the way)"),
        ("Shift-↑ Shift-↓", "scroll the preview"),
        ("← →  Ctrl-B Ctrl-F", "move a character in the query"),
        ("Home End  Ctrl-A Ctrl-E", "go to the start, the end"),
        ("Alt-B Alt-F", "move a word back, forward"),
        ("Backspace  Delete  Ctrl-D", "delete a character"),
        ("Ctrl-U  Ctrl-W", "delete to the start, the word before"),
        ("Alt-Backspace  Alt-D", "delete the word before, after"),
        ("Enter", "open the selection (router, detail, engagement)"),
        ("Tab", "show why a result ranks where it does"),
        ("Ctrl-O  F3", "quick actions"),
        ("Ctrl-T  F2", "inspector: counts, log, preference, delete, re-index"),
        ("Esc", "back (detail history); on search clear, then quit"),
        ("F1  ?", "this help (? when the query is empty)"),
        ("Ctrl-C", "quit (exit 130)"),
        ("mouse", "click selects, click again opens; wheel scrolls"),
    ]

    func drawHelp(_ screen: inout Screen, _ layout: Layout) {
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

    func drawInspector(_ screen: inout Screen, _ layout: Layout) {
        guard let inspector else { return }
        var lines: [(String, Style)] = [("Inspector", heading)]
        lines.append(("indexing preference: \(inspector.preference.rawValue)  (p toggles)", .plain))
        lines.append(("by source: " + inspector.bySource.map { "\($0) \($1)" }.joined(separator: " · "), .plain))
        if let writer = inspector.lastWriter { lines.append(("last written by \(writer)", .plain)) }
        lines.append(("by domain:", heading))
        for (domain, count) in inspector.byDomain { lines.append(("  \(domain) \(count)", .plain)) }
        let target = state.selected.map { "\($0.uniqueIdentifier)" } ?? "nothing selected"
        lines.append(("d delete \(target) · D delete its domain · X delete everything · r re-index", badge))
        lines.append(("log (newest last):", heading))
        var row = 2
        for (text, lineStyle) in lines where row < layout.statusRow {
            screen.write(text.truncated(toColumns: layout.width - 2), row: row, column: 1, limit: layout.width - 1, style: lineStyle)
            row += 1
        }
        let log = inspector.log.map { (time, kind, detail) in
            (text: "  \(time) \(kind) \(detail)".truncated(toColumns: layout.width - 2), style: muted, result: SearchResult?.none, selected: false)
        }
        // Scrolled from the newest line up.
        let rows = row..<max(row, layout.statusRow)
        let scroll = max(0, log.count - rows.count - state.inspectorScroll)
        drawScrolled(log, scroll: scroll, rows: rows, left: 1, right: layout.width - 1, &screen)
    }

    func drawQuickActions(_ selection: Int, _ screen: inout Screen, _ layout: Layout) {
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

    func drawConfirm(_ confirmation: AppState.Confirmation, _ screen: inout Screen, _ layout: Layout) {
        let text = confirmation.question + " (y/n)"
        let row = max(2, layout.height / 2)
        screen.write(String(repeating: " ", count: layout.width), row: row, column: 0)
        screen.write(text.truncated(toColumns: layout.width - 2), row: row, column: 1, style: style(Style(bold: true, reverse: true, foreground: .alert)))
    }
}
