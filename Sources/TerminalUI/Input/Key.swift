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
    case wheelUp, wheelDown
    case click(row: Int, column: Int)
}
