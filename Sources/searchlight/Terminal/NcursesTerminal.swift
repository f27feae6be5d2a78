import CNcurses
import Foundation
import TerminalUI

/// The thin driver: paints a `Screen` with ncurses and reads keys. It holds
/// no state of the app, only the colour pairs it has allocated.
final class NcursesTerminal {
    private var pairs: [Int: Int16] = [:]
    private var nextPair: Int16 = 1
    private(set) var colorAvailable = false
    private var open = false

    /// Starts curses mode. `color` is false under `NO_COLOR`. With
    /// `onTTY` the screen is drawn on, and keys read from, `/dev/tty`, so
    /// that standard output stays free for a picker's answer.
    init(color: Bool, onTTY: Bool = false) throws {
        setlocale(LC_ALL, "")
        if onTTY {
            guard let tty = fopen("/dev/tty", "r+") else {
                throw CommandFailure(message: "pick needs a terminal (/dev/tty could not be opened)", code: ExitStatus.usage)
            }
            guard let screen = newterm(nil, tty, tty) else {
                throw CommandFailure(message: "pick could not start the terminal on /dev/tty", code: ExitStatus.usage)
            }
            set_term(screen)
        } else {
            initscr()
        }
        open = true
        Self.installSignalHandlers()
        raw()
        noecho()
        nonl()
        keypad(sl_stdscr(), true)
        set_escdelay(25)
        sl_enable_mouse()
        if color && has_colors() {
            start_color()
            use_default_colors()
            colorAvailable = true
        }
    }

    var width: Int { Int(sl_cols()) }
    var height: Int { Int(sl_lines()) }

    /// Restores the terminal. Safe to call more than once.
    func close() {
        guard open else { return }
        open = false
        endwin()
    }

    deinit { close() }

    private static func installSignalHandlers() {
        // SIGINT arrives only from outside (raw mode reads Ctrl-C as a key).
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                endwin()
                _exit(128 + received)
            }
        }
    }

    // MARK: - Keys

    /// The next key, or nil after `timeout` milliseconds without one.
    func readKey(timeout: Int32) -> Key? {
        wtimeout(sl_stdscr(), timeout)
        var code: wint_t = 0
        let status = sl_get_key(&code)
        if status == sl_err() { return nil }
        if status == KEY_CODE_YES { return functionKey(Int32(code)) }
        if code == 27 { return escapeOrAlt() }
        return characterKey(UInt32(code))
    }

    /// Esc, or Alt plus the key that follows it at once (a terminal sends
    /// Alt-B as ESC b): a lone Esc is one with nothing after it within
    /// the usual short delay.
    private func escapeOrAlt() -> Key {
        wtimeout(sl_stdscr(), 25)
        var next: wint_t = 0
        let status = sl_get_key(&next)
        guard status != sl_err() else { return .escape }
        if status != KEY_CODE_YES {
            switch UInt32(next) {
            case 127, 8: return .alt("\u{7F}")
            case 32..<127: return .alt(Character(UnicodeScalar(UInt32(next))!))
            default: break
            }
        }
        // Not an Alt key: the key after the Esc is read next, not lost.
        if status == KEY_CODE_YES { ungetch(Int32(next)) } else { unget_wch(wchar_t(next)) }
        return .escape
    }

    private func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_ENTER: return .enter
        case KEY_SR: return .shiftUp
        case KEY_SF: return .shiftDown
        case sl_key_resize(): return .resize(width: width, height: height)
        case sl_key_mouse():
            var y: Int32 = 0, x: Int32 = 0, up: Int32 = 0, down: Int32 = 0, click: Int32 = 0
            guard sl_mouse_event(&y, &x, &up, &down, &click) == 0 else { return nil }
            if up != 0 || down != 0 { return .wheel(up: up != 0, row: Int(y), column: Int(x)) }
            if click != 0 { return .click(row: Int(y), column: Int(x)) }
            return nil
        case KEY_F0 + 1...KEY_F0 + 12: return .function(Int(code - KEY_F0))
        default: return nil
        }
    }

    private func characterKey(_ code: UInt32) -> Key? {
        switch code {
        case 13: return .enter
        case 10: return .control("j")
        case 9: return .tab
        case 27: return .escape
        case 127, 8: return .backspace
        case 1...26: return .control(Character(UnicodeScalar(code + 96)!))
        case 0..<32: return nil
        default:
            guard let scalar = UnicodeScalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }

    // MARK: - Painting

    func paint(_ screen: Screen) {
        for row in 0..<min(screen.height, height) {
            for column in 0..<min(screen.width, width) {
                let cell = screen[row, column]
                if cell.isContinuation { continue }
                var attributes = sl_a_normal()
                if cell.style.bold { attributes |= sl_a_bold() }
                if cell.style.dim { attributes |= sl_a_dim() }
                if cell.style.reverse { attributes |= sl_a_reverse() }
                if cell.style.underline { attributes |= sl_a_underline() }
                let pair = colorPair(foreground: cell.style.foreground, background: cell.style.background)
                // The screen model already replaced control characters; this
                // is the last guard before bytes reach the terminal.
                var wide: [wchar_t] = cell.text.unicodeScalars.prefix(5).map { scalar in
                    scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) ? wchar_t(0xFFFD) : wchar_t(scalar.value)
                }
                if wide.isEmpty { wide = [wchar_t(32)] }
                wide.append(0)
                _ = sl_put_cell(Int32(row), Int32(column), wide, attributes, pair)
            }
        }
        if let cursor = screen.cursor {
            curs_set(1)
            move(Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        refresh()
    }

    private func colorPair(foreground: RGB?, background: RGB?) -> Int16 {
        guard colorAvailable, foreground != nil || background != nil else { return 0 }
        let fg = foreground.map(paletteIndex) ?? -1
        let bg = background.map(paletteIndex) ?? -1
        let key = (fg + 1) * 1000 + (bg + 1)
        if let pair = pairs[key] { return pair }
        guard Int(nextPair) < Int(sl_color_pairs()) - 1 else { return 0 }
        let pair = nextPair
        nextPair += 1
        init_pair(pair, Int16(fg), Int16(bg))
        pairs[key] = pair
        return pair
    }

    /// The nearest colour the terminal has: the 6×6×6 cube of 256-colour
    /// terminals, or the eight basic colours.
    private func paletteIndex(_ rgb: RGB) -> Int {
        if sl_colors() >= 256 { return rgb.paletteIndex }
        let r = rgb.red > 127 ? 1 : 0, g = rgb.green > 127 ? 1 : 0, b = rgb.blue > 127 ? 1 : 0
        return r | g << 1 | b << 2
    }
}
