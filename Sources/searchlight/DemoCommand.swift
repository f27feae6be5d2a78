import ArgumentParser
import Catalog
import Foundation
import Routing
import SearchIndex
import SearchStore
import TerminalUI

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play a scripted type-ahead demo in the terminal UI (space pauses, → steps, Esc leaves), or print it with --print.")

    @Argument(help: "A demo script (see Data/demos/).")
    var file: String

    @Flag(help: "Play without a terminal and print each step's summary.")
    var print = false

    @Option(help: "Results per summary with --print.")
    var top = 5

    @Option(help: "Play this many times faster than a human pace.")
    var speed = 1.0

    func validate() throws {
        if !(speed > 0 && speed <= 1000) { throw ValidationError("--speed must be above 0 and at most 1000") }
        if top < 1 { throw ValidationError("--top must be at least 1") }
    }

    @OptionGroup var global: GlobalOptions

    /// The clock demos start at when no --now is given.
    static let defaultClock = Clock.parse("2026-11-22T20:00:00Z")!

    func run() throws {
        try CommandContext.run {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure(message: "\(file): cannot read the demo script", code: ExitStatus.failure)
            }
            let script: DemoScript
            do {
                script = try DemoScript.parse(String(decoding: data, as: UTF8.self), name: file)
            } catch let error as DemoScript.ParseError {
                throw CommandFailure(message: error.description, code: ExitStatus.badData)
            }
            // Demos play on a fresh in-memory index of the fixtures, so they
            // are repeatable and never touch the user's index.
            // A fixed clock unless --now is given, so a demo plays the same on any day.
            let clock = DemoClock(global.now.flatMap(Clock.parse) ?? Self.defaultClock)
            let index = try PersistentIndex(store: IndexStore(path: nil))
            try index.replaceAll(with: try FixtureCatalog.items(in: global.dataDirectory), reason: global.dataDirectory, at: clock.now)
            let router = try Router.load(dataDirectory: global.dataDirectory)
            let backend = IndexBackend(index: index, router: router, dataDirectory: global.dataDirectory, clock: { clock.now })
            if print {
                let app = TerminalApp(backend: backend, width: 100, height: 30, color: false)
                let player = DemoPlayer(script: script, app: app, backend: backend, clock: clock, top: top)
                player.playAll()
                for summary in player.summaries { try Output.line(Output.safe(summary).replacingOccurrences(of: "␊", with: "\n")) }
                return
            }
            guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
                throw CommandFailure(message: "demo needs a terminal; use --print without one", code: ExitStatus.usage)
            }
            TerminalSession.runDemo(script: script, backend: backend, clock: clock, speed: speed)
        }
    }
}
