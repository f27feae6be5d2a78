import SearchIndex

/// Draws the state into a grid of cells. Pure: the same state and size give
/// the same screen.
public struct ScreenRenderer {
    public let state: AppState
    public let inspector: InspectorSnapshot?
    public let quickActions: [QuickAction]
    public let progress: String?
    /// Whether the index is still being read (`progress` says how far).
    public let loading: Bool
    /// The query's terms, read once a frame for every highlighted line.
    let queryTerms: [String]

    public init(
        state: AppState, inspector: InspectorSnapshot? = nil, quickActions: [QuickAction] = [], progress: String? = nil,
        loading: Bool = false
    ) {
        self.loading = loading
        self.state = state
        queryTerms = MatchHighlighter.terms(of: state.query)
        self.inspector = inspector
        self.quickActions = quickActions
        self.progress = progress
    }

    // MARK: - Styles

    func style(_ s: Style) -> Style { state.color ? s : s.withoutColor }
    var highlight: Style { style(Style(bold: true, underline: true, foreground: .accent)) }
    var badge: Style { style(Style(foreground: .badge)) }
    var muted: Style { style(Style(dim: true, foreground: .muted)) }
    var heading: Style { style(Style(bold: true)) }

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
        // Narrow, the prompt shortens and the count and time give way:
        // the query itself always stays in view.
        let prompt = layout.width < 30 ? "› " : "Search › "
        let queryWidth = DisplayWidth.of(Terminal.visibleText(state.query))
        let room = layout.width - DisplayWidth.of(prompt) - queryWidth - 2
        let right = barCounts().first { DisplayWidth.of($0) <= room } ?? ""
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

    /// The bar's right side, longest first: the first that fits is shown.
    private func barCounts() -> [String] {
        if let problem = state.queryError {
            let short = problem.components(separatedBy: " (").first ?? problem
            return ["refused: \(problem)", "refused: \(short)", "refused"]
        }
        guard let response = state.response, !state.showsStartingPoint else { return [] }
        if loading { return ["reading the index…", "reading…", "…"] }
        let total = Describe.grouped(response.total)
        let time = "\(state.microseconds) µs"
        guard response.total > 0 else { return ["0 results · \(time)", "0 results", "0"] }
        let position = "\(state.selection + 1)/\(total)"
        return ["\(position) · \(time)", position, total]
    }


    // MARK: - Results

    private func drawResults(_ screen: inout Screen, _ layout: Layout) {
        let list = layout.list
        if !layout.sideBySide {
            screen.write(String(repeating: "─", count: layout.width), row: list.bottom, column: 0, style: muted)
        } else {
            for row in list.top..<list.bottom { screen.write("│", row: row, column: list.right, style: muted) }
        }
        if state.showsStartingPoint {
            drawStartingPoint(&screen, layout)
            return
        }
        if state.query.trimmingCharacters(in: .whitespaces).isEmpty || state.queryError != nil {
            drawPreviewHint(&screen, layout)
            return
        }
        if state.results.isEmpty {
            let lines = loading
                ? [(progress ?? "Reading the index…"), "Results for “\(state.query)” appear when it is ready."]
                : ["No results for “\(state.query)”.", "Every word must match: try fewer words,", "or the start of a name, e.g. “aur”."]
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

    /// An empty query: a hint, then recently viewed items and each domain.
    private func drawStartingPoint(_ screen: inout Screen, _ layout: Layout) {
        let list = layout.list, entries = layout.entries(startingPoint: true)
        let recents = state.results.contains { $0.contentType != TerminalApp.domainListing }
        let hint = state.results.isEmpty
            ? "Type to search colleagues, shows, photos and web pages."
            : recents ? "Type to search · recently viewed, then by domain:" : "Type to search, or browse by domain:"
        screen.write(hint.truncated(toColumns: list.width - 1), row: list.top, column: list.left + 1, style: heading)
        for (slot, index) in (state.scroll..<min(state.results.count, state.scroll + entries.count)).enumerated() {
            let result = state.results[index], row = entries.top + slot, selected = index == state.selection
            let isDomain = result.contentType == TerminalApp.domainListing
            var x = screen.write(selected ? "▸ " : "  ", row: row, column: list.left, limit: list.right, style: selected ? heading : .plain)
            x = screen.write(isDomain ? "[domain] " : "[\(Describe.badge(result.contentType))] ", row: row, column: x, limit: list.right, style: badge)
            let text = isDomain ? "\(result.title) · \(result.attributes.contentDescription ?? "")" : result.title
            screen.write(text.truncated(toColumns: max(0, list.right - x)), row: row, column: x, limit: list.right)
            if selected { screen.restyle(row: row, from: list.left, to: list.right) { $0.reverse = true } }
        }
        if let selected = state.selected {
            drawPreview(selected, &screen, layout)
        } else {
            let lines = ["Try: brent · aurora · 北极光 · 555-010 · drama", "kind:photo · domain:com.example.tv · F1 or ? keys"]
            for (i, line) in lines.enumerated() where entries.top + i < list.bottom {
                screen.write(line.truncated(toColumns: list.width - 2), row: entries.top + i, column: list.left + 1, style: muted)
            }
        }
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
        let description = (result.attributes.contentDescription ?? result.uniqueIdentifier).truncated(toColumns: list.width - 4)
        writeHighlighted(description, for: result, row: top + 1, column: list.left + 4, limit: limit, style: muted, &screen)
        if let thumbnail = Describe.thumbnail(result.attributes.thumbnail) {
            var tx = list.left + 4
            if let hex = result.attributes.thumbnail?.dominantColor, let rgb = RGB(hex: hex), state.color {
                tx = screen.write("██", row: top + 2, column: tx, limit: limit, style: Style(foreground: rgb))
                tx += 1
            }
            screen.write(thumbnail.truncated(toColumns: limit - tx), row: top + 2, column: tx, limit: limit, style: muted)
        }
    }

    /// Writes `text` with the words the query matched in `result` highlighted.
    func writeHighlighted(
        _ text: String, for result: SearchResult, row: Int, column: Int, limit: Int, style base: Style, _ screen: inout Screen
    ) {
        let matcher = MatchHighlighter(tokens: state.matchedTokens[result.uniqueIdentifier] ?? [], terms: queryTerms)
        let marked = matcher.offsets(in: text)
        guard !marked.isEmpty else {
            screen.write(text, row: row, column: column, limit: limit, style: base)
            return
        }
        var x = column
        for (offset, character) in text.enumerated() {
            x = screen.write(String(character), row: row, column: x, limit: limit,
                             style: marked.contains(offset) && character != "…" ? highlight : base)
        }
    }

    private func drawPreviewHint(_ screen: inout Screen, _ layout: Layout) {
        let p = layout.preview
        guard p.height > 0 else { return }
        screen.write("The preview follows the selection.", row: p.top, column: p.left, limit: p.right, style: muted)
    }

    private func drawStatus(_ screen: inout Screen, _ layout: Layout) {
        let hint: String
        switch state.mode {
        case .search where state.picking: hint = "↑↓ move · Enter choose · Esc cancel · F1 keys"
        case .search: hint = "↑↓ move · Enter open · Tab why · ^O actions · ^T inspector · F1 keys · ^C quit"
        case .detail: hint = "Esc back · ↑↓ related · PgUp/PgDn scroll · Enter open related · ^C quit"
        case .help: hint = "any key goes back"
        case .inspector: hint = "p preference · d/D/X delete · r re-index · ↑↓ PgUp/PgDn log · Esc back"
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
