import ArgumentParser
import Foundation
import SearchIndex
import Routing
import SearchApp
import SearchStore
import TerminalUI

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Type a query one keystroke at a time and show, for each, the top results and how they moved.")

    @Argument(help: "The query to type.")
    var query: [String]

    @Option(help: "Results shown per keystroke.")
    var top = 5

    @Flag(help: "Print a JSON array, one object per keystroke.")
    var json = false

    @Flag(help: "Leave the timings out (everything else is deterministic for an index and clock).")
    var noTimes = false

    @Option(help: ArgumentHelp("Write the typing as an asciicast v2 recording of the terminal UI to this file.", valueName: "file"))
    var cast: String?

    @Option(help: "The screen size of --cast, as WIDTHxHEIGHT.")
    var size = "100x30"

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if top < 1 { throw ValidationError("--top must be at least 1") }
        let text = query.joined(separator: " ")
        if let problem = QueryLimits.problem(with: text) ?? QueryFilters.problem(with: text) { throw ValidationError(problem) }
        if CastRecording.parseSize(size) == nil { throw ValidationError("--size must be WIDTHxHEIGHT, from 20x6 to 500x200") }
    }

    func run() throws {
        try CommandContext.run {
            let index = try CommandContext.open(global)
            let text = query.joined(separator: " ")
            if let cast {
                try record(text, index: index).write(to: cast)
                return
            }
            let steps = Replay.run(text, in: index.engine, top: top, now: global.date)
            if json {
                try Output.json(steps.map { step -> [String: Any] in
                    var object: [String: Any] = [
                        "query": step.query, "total": step.total,
                        "results": step.results.map {
                            var entry: [String: Any] = [
                                "uniqueIdentifier": $0.uniqueIdentifier, "title": $0.title, "rank": $0.rank,
                                "movement": $0.movement.description, "rankingHint": $0.key.rankingHint,
                            ]
                            if let rule = $0.decidedBy { entry["decidedBy"] = rule }
                            return entry
                        },
                        "dropped": step.dropped.map { ["uniqueIdentifier": $0.0, "title": $0.1] },
                    ]
                    if !noTimes { object["tookMicroseconds"] = step.microseconds }
                    return object
                })
                return
            }
            for line in ReplayTable.lines(steps, showTimes: !noTimes) { try Output.line(line) }
        }
    }
}

extension ReplayCommand {
    /// Types `text` into the terminal UI at a human pace, a frame a keystroke.
    func record(_ text: String, index: PersistentIndex) throws -> CastRecording {
        let (width, height) = CastRecording.parseSize(size)!
        let router = try Router.load(dataDirectory: global.dataDirectory)
        let backend = IndexBackend(index: index, router: router, dataDirectory: global.dataDirectory) { [now = global.date] in now }
        let app = TerminalApp(backend: backend, width: width, height: height, color: DemoCommand.colorWanted)
        app.showMovement = true
        var recording = CastRecording(width: width, height: height, title: "searchlight replay \(text)")
        recording.frame(app.render(), at: 0)
        for (offset, character) in text.enumerated() {
            app.handle(.character(character))
            recording.frame(app.render(), at: 0.5 + Double(offset) * Self.keystrokePause)
        }
        return recording
    }

    /// Seconds between two recorded keystrokes: a steady typist.
    static let keystrokePause = 0.18
}

/// The replay as a compact table that reads well pasted into a README.
enum ReplayTable {
    /// A whole number with thousands separators (`3,200,000`), others as `--explain` writes them.
    static func grouped(_ value: Double) -> String {
        guard value == value.rounded(), abs(value) < 1e15 else { return Explanation.format(value) }
        return Describe.grouped(Int(value))
    }

    /// Why a result rose, when the exact or hint rule decided it.
    static func reason(_ entry: Replay.Entry) -> String {
        switch entry.decidedBy {
        case "exact": "  (exact)"
        case "rankingHint": "  (hint \(grouped(entry.key.rankingHint)))"
        default: ""
        }
    }

    static func lines(_ steps: [Replay.Step], showTimes: Bool) -> [String] {
        let titleWidth = min(32, steps.flatMap(\.results).map { DisplayWidth.of(Output.safe($0.title)) }.max() ?? 10)
        var out: [String] = []
        for step in steps {
            var head = "“\(Output.safe(step.query))”  \(step.total) result\(step.total == 1 ? "" : "s")"
            if showTimes { head += "  \(step.microseconds) µs" }
            out.append(head)
            for entry in step.results {
                var title = Output.safe(entry.title)
                while DisplayWidth.of(title) > titleWidth { title = String(title.dropLast(2)) + "…" }
                let pad = String(repeating: " ", count: max(0, titleWidth - DisplayWidth.of(title)))
                out.append("  \(entry.rank). \(title)\(pad)  \(entry.movement.description.padding(toLength: 4, withPad: " ", startingAt: 0)) \(Output.safe(entry.uniqueIdentifier))\(reason(entry))")
            }
            if !step.dropped.isEmpty {
                out.append("     dropped: " + step.dropped.map { "\(Output.safe($0.1)) (\(Output.safe($0.0)))" }.joined(separator: ", "))
            }
        }
        return out
    }
}
