import ArgumentParser
import Foundation
import Routing
import SearchApp
import SearchIndex
import TerminalUI

/// The terminal UI as a chooser for scripts, as fzf is: drawn on the
/// terminal, the choice printed on standard output.
struct PickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Choose a result in the terminal UI and print its identifier (id=$(searchlight pick brent)).")

    @Argument(help: "The query to start with.")
    var query: [String] = []

    @Flag(help: "Print the chosen item's record as JSON instead of its identifier.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try CommandContext.run {
            let index = try CommandContext.openForTerminalUI(global)
            let router = try Router.load(dataDirectory: global.dataDirectory)
            let clock: @Sendable () -> Date = { [now = global.now] in now.flatMap(Clock.parse) ?? Date() }
            let backend = IndexBackend(index: index, router: router, dataDirectory: global.dataDirectory, clock: clock)
            let left = try TerminalSession.run(backend: backend, picking: true, query: query.joined(separator: " "))
            guard let chosen = left.chosen, !left.interrupted else { throw ExitCode(ExitStatus.interrupted) }
            guard json else { return try Output.line(Output.safe(chosen.uniqueIdentifier)) }
            try Output.json(Self.record(of: chosen, in: index.engine))
        }
    }

    /// The chosen item as `index export` writes it (an activity as its entry).
    static func record(of result: SearchResult, in engine: SearchEngine) -> [String: Any] {
        if let record = engine.records[result.uniqueIdentifier] {
            var object = JSONForm.encodable(record.item) as? [String: Any] ?? [:]
            object["source"] = record.source.rawValue
            return object
        }
        if let activity = engine.activities[result.uniqueIdentifier] {
            return ["source": "activity", "identifier": result.uniqueIdentifier, "activity": JSONForm.encodable(activity)]
        }
        return JSONForm.result(result, explain: false)
    }
}
