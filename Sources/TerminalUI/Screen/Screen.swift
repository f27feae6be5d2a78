/// One terminal cell: a grapheme (or nothing, when it continues the wide
/// character to its left) and its style.
public struct Cell: Sendable, Hashable {
    /// The grapheme drawn here; empty for the right half of a wide character.
    public var text: String
    public var style: Style

    public static let blank = Cell(text: " ", style: .plain)
    public var isContinuation: Bool { text.isEmpty }
}

/// A grid of cells: what the screen model produces and the driver paints.
///
/// ```
///  col:  0   1   2   3   4
///       [北][  ][极][  ][ a]     a wide character takes its cell and
///                                 an empty continuation cell after it
/// ```
public struct Screen: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should sit, if visible.
    public var cursor: (row: Int, column: Int)? {
        get { cursorRow.map { ($0, cursorColumn) } }
        set {
            cursorRow = newValue?.row
            cursorColumn = newValue?.column ?? 0
        }
    }
    private var cursorRow: Int?
    private var cursorColumn = 0

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Changes the style of columns `from..<to` of `row`, keeping the text.
    public mutating func restyle(row: Int, from: Int = 0, to: Int? = nil, _ change: (inout Style) -> Void) {
        guard row >= 0, row < height else { return }
        let end = min(to ?? width, width)
        var column = max(0, from)
        while column < end {
            change(&cells[row * width + column].style)
            column += 1
        }
    }

    /// Writes `text` from `column`, never past `limit` (default the right
    /// edge); returns the column after the last cell written. A wide character
    /// that would not fit whole is replaced by a space, never cut in half.
    @discardableResult
    public mutating func write(_ text: String, row: Int, column: Int, limit: Int? = nil, style: Style = .plain) -> Int {
        guard row >= 0, row < height else { return column }
        let end = min(limit ?? width, width)
        var x = max(0, column)
        for character in text {
            if x >= end { break }
            let shown = Terminal.visible(character)
            let w = DisplayWidth.of(shown)
            if w == 0 {
                // A stray combining mark: attach nothing, draw nothing.
                continue
            }
            if x + w > end {
                cells[row * width + x] = Cell(text: " ", style: style)
                x += 1
                break
            }
            // Overwriting half of a wide character blanks its other half.
            if cells[row * width + x].isContinuation, x > 0 { cells[row * width + x - 1] = Cell(text: " ", style: cells[row * width + x - 1].style) }
            cells[row * width + x] = Cell(text: String(shown), style: style)
            if w == 2 {
                cells[row * width + x + 1] = Cell(text: "", style: style)
            } else if x + 1 < width, cells[row * width + x + 1].isContinuation {
                cells[row * width + x + 1] = Cell(text: " ", style: cells[row * width + x + 1].style)
            }
            x += w
        }
        return x
    }

    /// The screen as text lines (continuation cells skipped): for tests and snapshots.
    public var lines: [String] {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width where !self[row, column].isContinuation { line += self[row, column].text }
            return line
        }
    }

    public var text: String { lines.joined(separator: "\n") }

    public static func == (a: Screen, b: Screen) -> Bool {
        a.width == b.width && a.height == b.height && a.cells == b.cells && a.cursorRow == b.cursorRow && a.cursorColumn == b.cursorColumn
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(cells)
    }
}

extension String {
    /// This text cut to at most `columns` display columns, with `…` when cut.
    func truncated(toColumns columns: Int) -> String {
        guard columns > 0 else { return "" }
        if DisplayWidth.of(self) <= columns { return self }
        var out = ""
        var used = 0
        for character in self {
            let w = DisplayWidth.of(Terminal.visible(character))
            if used + w > columns - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// Words wrapped into lines of at most `columns` display columns.
    func wrapped(toColumns columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        // Leading spaces indent every line of the paragraph.
        let indent = String(prefix { $0 == " " })
        if !indent.isEmpty, indent.count < columns - 1 {
            return String(dropFirst(indent.count)).wrapped(toColumns: columns - indent.count).map { indent + $0 }
        }
        var lines: [String] = []
        var line = ""
        var used = 0
        for word in split(separator: " ", omittingEmptySubsequences: true) {
            let w = DisplayWidth.of(String(word))
            if used > 0 && used + 1 + w > columns {
                lines.append(line)
                line = ""
                used = 0
            }
            if w > columns {
                // A word longer than the line is cut, wide characters kept whole.
                for character in word {
                    let cw = DisplayWidth.of(Terminal.visible(character))
                    if used + cw > columns { lines.append(line); line = ""; used = 0 }
                    line.append(character)
                    used += cw
                }
                continue
            }
            if used > 0 { line += " "; used += 1 }
            line += word
            used += w
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
