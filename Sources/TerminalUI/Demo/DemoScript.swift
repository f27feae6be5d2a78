import Foundation
import SearchIndex

/// A scripted demonstration: one step a line.
///
/// ```
/// # A comment
/// caption Results appear from the first keystroke
/// type bre              # typed one keystroke at a time
/// key down              # enter, esc, up, down, tab, pgup, pgdn, backspace, ctrl-u, f1, …
/// wait 800ms            # or 2s
/// open                  # open the selected result (Enter)
/// back                  # Esc
/// open employee/4 3     # open an identifier, three times
/// delete employee/4
/// delete-domain com.example.tv.show
/// indexing disabled     # or viewed-records
/// clock 2027-01-01T00:00:00Z
/// ```
public struct DemoScript: Sendable, Hashable {
    public enum Step: Sendable, Hashable {
        case caption(String)
        case type(String)
        case key(Key)
        case wait(milliseconds: Int)
        case openSelected
        case back
        case openIdentifier(String, times: Int)
        case delete(String)
        case deleteDomain(String)
        case indexing(IndexingPreference)
        case clock(Date)
    }

    public struct Line: Sendable, Hashable {
        public var number: Int
        public var step: Step
    }

    /// A script that cannot be read: file, line and what is wrong.
    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public var file: String
        public var line: Int
        public var message: String
        public var description: String { "\(file):\(line): step: \(message)" }
    }

    public var name: String
    public var lines: [Line]

    public init(name: String, lines: [Line]) {
        self.name = name
        self.lines = lines
    }

    public static func parse(_ text: String, name: String) throws -> DemoScript {
        var lines: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var line = String(raw)
            if let hash = line.range(of: " #") { line = String(line[..<hash.lowerBound]) }
            line = line.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            let verb = parts[0].lowercased()
            let argument = parts.count > 1 ? parts[1] : ""
            func fail(_ message: String) -> ParseError { ParseError(file: name, line: number, message: message) }
            func need() throws -> String {
                if argument.isEmpty { throw fail("'\(verb)' needs an argument") }
                return argument
            }
            let step: Step
            switch verb {
            case "caption": step = .caption(try need())
            case "type": step = .type(try need())
            case "key":
                guard let key = Self.key(named: try need()) else { throw fail("unknown key '\(argument)'") }
                step = .key(key)
            case "wait":
                guard let ms = Self.milliseconds(try need()) else { throw fail("'\(argument)' is not a duration (800ms, 2s)") }
                step = .wait(milliseconds: ms)
            case "open":
                if argument.isEmpty {
                    step = .openSelected
                } else {
                    let words = argument.split(separator: " ").map(String.init)
                    let times = words.count > 1 ? Int(words[1]) : 1
                    guard let times, times >= 1, times <= 100, words.count <= 2 else { throw fail("open ID [TIMES], TIMES from 1 to 100") }
                    step = .openIdentifier(words[0], times: times)
                }
            case "back": step = .back
            case "delete": step = .delete(try need())
            case "delete-domain": step = .deleteDomain(try need())
            case "indexing":
                guard let preference = IndexingPreference(rawValue: try need()) else { throw fail("indexing takes disabled or viewed-records") }
                step = .indexing(preference)
            case "clock":
                guard let date = Self.date(try need()) else { throw fail("'\(argument)' is not an ISO 8601 date") }
                step = .clock(date)
            default:
                throw fail("unknown step '\(verb)'")
            }
            lines.append(Line(number: number, step: step))
        }
        return DemoScript(name: name, lines: lines)
    }

    static func key(named name: String) -> Key? {
        let lower = name.lowercased()
        switch lower {
        case "enter", "return": return .enter
        case "esc", "escape": return .escape
        case "up": return .up
        case "down": return .down
        case "left": return .left
        case "right": return .right
        case "tab": return .tab
        case "pgup", "pageup": return .pageUp
        case "pgdn", "pagedown": return .pageDown
        case "home": return .home
        case "end": return .end
        case "backspace": return .backspace
        case "space": return .character(" ")
        default:
            if lower.hasPrefix("ctrl-"), lower.count == 6, let c = lower.last, c.isLetter { return .control(c) }
            if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n) { return .function(n) }
            return nil
        }
    }

    /// The script name of a key (`ctrl-u`, `enter`, `f1`).
    static func name(of key: Key) -> String {
        switch key {
        case .character(" "): "space"
        case .character(let c): String(c)
        case .control(let c): "ctrl-\(c)"
        case .function(let n): "f\(n)"
        case .pageUp: "pgup"
        case .pageDown: "pgdn"
        case .escape: "esc"
        default: "\(key)"
        }
    }

    static func milliseconds(_ text: String) -> Int? {
        if text.hasSuffix("ms"), let n = Int(text.dropLast(2)), n >= 0 { return n }
        if text.hasSuffix("s"), let n = Double(text.dropLast()), n >= 0 { return Int(n * 1000) }
        return nil
    }

    static func date(_ text: String) -> Date? {
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withFullDate]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
