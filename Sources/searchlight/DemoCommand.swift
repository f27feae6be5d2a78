import ArgumentParser
import Catalog
import Foundation
import Routing
import SearchApp
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

    @Option(help: ArgumentHelp("Write the demo as an asciicast v2 recording to this file (asciinema play).", valueName: "file"))
    var cast: String?

    @Option(help: "The screen size of --cast and --frames, as WIDTHxHEIGHT.")
    var size = "100x30"

    @Flag(help: "With --print, print each step's whole screen after its summary.")
    var frames = false

    func validate() throws {
        if !(speed > 0 && speed <= 1000) { throw ValidationError("--speed must be above 0 and at most 1000") }
        if top < 1 { throw ValidationError("--top must be at least 1") }
        if CastRecording.parseSize(size) == nil { throw ValidationError("--size must be WIDTHxHEIGHT, from 20x6 to 500x200") }
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
            let (width, height) = CastRecording.parseSize(size)!
            if let cast {
                try record(script, backend: backend, clock: clock, width: width, height: height).write(to: cast)
                return
            }
            if print {
                // Frames as a recording draws them (colour swatches included).
                let app = TerminalApp(backend: backend, width: frames ? width : 100, height: frames ? height : 30, color: frames && Self.colorWanted)
                let player = DemoPlayer(script: script, app: app, backend: backend, clock: clock, top: top)
                while !player.isFinished {
                    player.tick()
                    if frames { player.appendFrame() }
                }
                for summary in player.summaries { try Output.line(Output.safe(summary).replacingOccurrences(of: "␊", with: "\n")) }
                return
            }
            guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
                throw CommandFailure(message: "demo needs a terminal; use --print without one", code: ExitStatus.usage)
            }
            TerminalSession.runDemo(script: script, backend: backend, clock: clock, speed: speed)
        }
    }

    /// Colours unless `NO_COLOR` is set (to anything but empty).
    static var colorWanted: Bool { ProcessInfo.processInfo.environment["NO_COLOR"].map { $0.isEmpty } ?? true }

    /// Plays the whole demo at its human pace (divided by --speed) and keeps
    /// every frame with its time.
    private func record(_ script: DemoScript, backend: IndexBackend, clock: DemoClock, width: Int, height: Int) -> CastRecording {
        let app = TerminalApp(backend: backend, width: width, height: height, color: Self.colorWanted)
        let player = DemoPlayer(script: script, app: app, backend: backend, clock: clock, top: top)
        var recording = CastRecording(width: width, height: height, title: (file as NSString).lastPathComponent)
        var seconds = 0.0
        recording.frame(app.render(), at: seconds)
        while !player.isFinished {
            seconds += Double(player.pause) / 1000 / speed
            player.tick()
            recording.frame(app.render(), at: seconds)
        }
        return recording
    }
}
