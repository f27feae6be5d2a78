/// A key press or terminal event, as the driver decodes it.
public enum Key: Sendable, Hashable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab
    /// Control plus a letter: `.control("n")` is Ctrl-N.
    case control(Character)
    /// F1…F12.
    case function(Int)
    case resize(width: Int, height: Int)
    /// Shift-↑ / Shift-↓: scroll the preview from the list, as fzf does.
    case shiftUp, shiftDown
    /// Alt (Meta) plus a key: `.alt("b")` is Alt-B; `.alt("\u{7F}")` Alt-Backspace.
    case alt(Character)
    /// The wheel over no pane in particular (the list).
    case wheelUp, wheelDown
    /// The wheel over a cell: it scrolls the pane under the pointer.
    case wheel(up: Bool, row: Int, column: Int)
    /// A press of the first button.
    case click(row: Int, column: Int)
}
