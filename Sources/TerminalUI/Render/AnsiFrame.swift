/// A screen as the bytes a terminal needs to show it: each row placed with
/// a cursor move, styles as SGR sequences (256 colours), control
/// characters already replaced by the screen model. The same cells the
/// ncurses driver paints, for a recording (`demo --cast`) that plays
/// without curses.
public enum AnsiFrame {
    static let escape = "\u{1B}["

    /// Clears the terminal and hides the cursor, before the first frame.
    public static let start = escape + "0m" + escape + "2J" + escape + "?25l"

    /// Shows the cursor again, after the last frame.
    public static let end = escape + "0m" + escape + "?25h"

    /// The rows of `screen` that differ from `previous` (all of them
    /// without one, or when the size changed), ending with styles reset.
    public static func render(_ screen: Screen, over previous: Screen? = nil) -> String {
        let previous = previous.flatMap { $0.width == screen.width && $0.height == screen.height ? $0 : nil }
        var out = ""
        for row in 0..<screen.height {
            if let previous, (0..<screen.width).allSatisfy({ previous[row, $0] == screen[row, $0] }) { continue }
            out += escape + "\(row + 1);1H"
            var current: Style?
            for column in 0..<screen.width {
                let cell = screen[row, column]
                if cell.isContinuation { continue }
                if cell.style != current {
                    out += sgr(cell.style)
                    current = cell.style
                }
                out += cell.text.isEmpty ? " " : cell.text
            }
        }
        return out + escape + "0m"
    }

    /// The SGR sequence that sets exactly `style`.
    static func sgr(_ style: Style) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if let foreground = style.foreground { codes.append("38;5;\(foreground.paletteIndex)") }
        if let background = style.background { codes.append("48;5;\(background.paletteIndex)") }
        return escape + codes.joined(separator: ";") + "m"
    }
}

extension RGB {
    /// The nearest colour of a 256-colour terminal's 6×6×6 cube.
    public var paletteIndex: Int {
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : (v < 115 ? 1 : (Int(v) - 35) / 40) }
        return 16 + 36 * level(red) + 6 * level(green) + level(blue)
    }
}
