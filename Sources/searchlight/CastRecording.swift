import Foundation
import TerminalUI

/// A recording in asciinema's asciicast v2 format: a JSON header line
/// (size, title), then one `[seconds, "o", text]` line per frame, where the
/// text is what the terminal UI draws for that frame (`AnsiFrame`).
struct CastRecording {
    let width: Int
    let height: Int
    let title: String
    private(set) var events: [(seconds: Double, text: String)] = []

    init(width: Int, height: Int, title: String) {
        self.width = width
        self.height = height
        self.title = title
        events.append((0, AnsiFrame.start))
    }

    private var shown: Screen?

    /// Adds `screen` as the frame shown from `seconds` on: the rows that
    /// changed since the last frame, as a terminal redraws.
    mutating func frame(_ screen: Screen, at seconds: Double) {
        events.append((seconds, AnsiFrame.render(screen, over: shown)))
        shown = screen
    }

    /// The whole file: header, then the events, then the cursor shown again.
    func text() throws -> String {
        let last = Self.rounded(events.last?.seconds ?? 0)
        // The timing: how long it plays, the last frame held a second.
        let header: [String: Any] = [
            "version": 2, "width": width, "height": height, "title": title, "duration": last + 1,
            "env": ["TERM": "xterm-256color"],
        ]
        var lines = [try Self.json(header)]
        for (seconds, text) in events + [(last + 1, AnsiFrame.end)] {
            lines.append(try Self.json([Self.rounded(seconds), "o", text]))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds to the microsecond, as asciinema writes them.
    private static func rounded(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1_000_000 }

    func write(to path: String) throws {
        do {
            try Data(try text().utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(message: "\(path): cannot write the recording (\(error.localizedDescription))", code: ExitStatus.ioError)
        }
    }

    private static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    /// `WIDTHxHEIGHT`, within the sizes the terminal UI draws.
    static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (20...500).contains(width), (6...200).contains(height)
        else { return nil }
        return (width, height)
    }
}
