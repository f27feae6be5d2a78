/// Where each part of the screen goes for a terminal size.
///
/// ```
///  wide (≥ 80 columns)                 narrow
///  ┌ search bar ─────── count · µs ┐   ┌ search bar ────────┐
///  │ results        │ preview      │   │ results            │
///  │                │              │   ├────────────────────┤
///  │                │              │   │ preview            │
///  └ status / keys ────────────────┘   └ status / keys ─────┘
/// ```
struct Layout {
    struct Rect {
        var top: Int
        var left: Int
        var width: Int
        var height: Int
        var bottom: Int { top + height }
        var right: Int { left + width }
    }

    let width: Int
    let height: Int
    let sideBySide: Bool
    let list: Rect
    let preview: Rect
    /// Rows per result: three (title, description, thumbnail) when there is room.
    let rowsPerItem: Int

    static let minimumWidth = 20
    static let minimumHeight = 6

    var tooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }
    var statusRow: Int { height - 1 }
    var visibleItems: Int { max(1, list.height / rowsPerItem) }

    /// Where the list's entries go: an empty query's starting point has a
    /// line of hint on top, then one row an entry.
    struct Entries {
        var top: Int
        var rowsPerItem: Int
        var count: Int
    }

    func entries(startingPoint: Bool) -> Entries {
        startingPoint
            ? Entries(top: list.top + 1, rowsPerItem: 1, count: max(1, list.height - 1))
            : Entries(top: list.top, rowsPerItem: rowsPerItem, count: visibleItems)
    }

    /// The detail pane's lines: between the search bar and the status line.
    var detailRows: Range<Int> { 2..<max(2, statusRow) }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let mainTop = 2
        let mainHeight = max(0, height - 3)
        sideBySide = width >= 80
        if sideBySide {
            let listWidth = width * 55 / 100
            list = Rect(top: mainTop, left: 0, width: listWidth, height: mainHeight)
            preview = Rect(top: mainTop, left: listWidth + 2, width: max(0, width - listWidth - 2), height: mainHeight)
        } else {
            let listHeight = max(1, mainHeight * 55 / 100)
            list = Rect(top: mainTop, left: 0, width: width, height: listHeight)
            preview = Rect(top: mainTop + listHeight + 1, left: 0, width: width, height: max(0, mainHeight - listHeight - 1))
        }
        rowsPerItem = list.height >= 12 ? 3 : 1
    }
}
