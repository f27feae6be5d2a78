import Foundation
import Testing

/// What people expect of an installed tool and of a shared demo:
/// `--version`, completions, and asciicast recordings that asciinema plays
/// as the terminal UI looks.
@Suite(.serialized) struct ShareableToolTests {
    static let asciinema = ["/usr/bin/asciinema", "/usr/local/bin/asciinema"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let demos = ((try? FileManager.default.contentsOfDirectory(atPath: CLI.dataDirectory + "/demos")) ?? [])
        .filter { $0.hasSuffix(".demo") }.sorted()

    @Test func versionPrintsThePackagesVersionAndExitsZero() throws {
        let run = try CLI().run(["--version"], withIndex: false)
        #expect(run.status == 0)
        #expect(run.stdout.range(of: #"^\d+\.\d+\.\d+( \([0-9a-f]{7,}\))?\n$"#, options: .regularExpression) != nil, "\(run.stdout)")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreGenerated(shell: String) throws {
        let run = try CLI().run(["--generate-completion-script", shell], withIndex: false)
        #expect(run.status == 0)
        #expect(run.stdout.contains("searchlight") && run.stdout.contains("pick"))
    }

    /// Header and events of a cast, checked as asciinema reads them.
    func events(of path: String) throws -> (header: [String: Any], events: [[Any]]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let events = try lines.dropFirst().map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any]) }
        return (header, events)
    }

    @Test(arguments: demos)
    func everyDemoRecordsACastThatPlaysAsItsLastFrame(demo: String) throws {
        let cli = CLI()
        let path = CLI.dataDirectory + "/demos/" + demo
        let cast = (cli.folder as NSString).appendingPathComponent("demo.cast")
        #expect(try cli.run(["demo", path, "--cast", cast, "--size", "80x24", "--speed", "50"]).status == 0)
        let (header, events) = try events(of: cast)
        #expect(header["version"] as? Int == 2 && header["width"] as? Int == 80 && header["height"] as? Int == 24)
        #expect(header["duration"] as? Double == events.last?.first as? Double)
        let times = events.compactMap { $0.first as? Double }
        #expect(times.count == events.count && times == times.sorted() && events.count > 3)
        #expect(events.allSatisfy { $0.count == 3 && $0[1] as? String == "o" })
        let print = try cli.run(["demo", path, "--print", "--frames", "--size", "80x24"])
        let frames = print.stdout.components(separatedBy: "--- frame ---\n")
        let lastFrame = try #require(frames.last?.components(separatedBy: "\n--- end of frame ---").first)
        guard let asciinema = Self.asciinema, TerminalEndToEndTests.tmuxAvailable else { return }
        // Played into a real terminal of the cast's size, it leaves the demo's last screen.
        let t = TerminalEndToEndTests.Tmux()
        defer { t.stop() }
        try t.start(width: 80, height: 24)
        try t.type("clear; \(asciinema) play -i 0.05 -s 20 '\(cast)'; echo PLAYED > '\(t.file("played"))'; sleep 60")
        try t.send("Enter")
        // Up to a minute: asciinema's first start on a fresh machine, busy with other suites, is slow.
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: t.file("played")) { Thread.sleep(forTimeInterval: 0.1) }
        #expect(FileManager.default.fileExists(atPath: t.file("played")))
        let played = try t.screen()
        #expect(Self.comparable(played) == Self.comparable(lastFrame), "\(demo)\n\(played)\n---\n\(lastFrame)")
    }

    /// A screen with the query's time (which differs run to run, in digits
    /// and so in where the bar's right side starts) masked, and trailing
    /// blanks dropped.
    static func comparable(_ screen: String) -> [String] {
        screen.components(separatedBy: "\n").prefix(24).enumerated().map { row, line in
            var line = line.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
            if row == 0 {
                line = line.replacingOccurrences(of: #"\d+ µs$"#, with: "N µs", options: .regularExpression)
                    .replacingOccurrences(of: #" +"#, with: " ", options: .regularExpression)
            }
            return line
        }
    }

    @Test func replayRecordsOneFrameAKeystroke() throws {
        let cli = CLI()
        let cast = (cli.folder as NSString).appendingPathComponent("replay.cast")
        #expect(try cli.run(["replay", "brent", "--cast", cast, "--size", "60x20"]).status == 0)
        let (header, events) = try events(of: cast)
        #expect(header["width"] as? Int == 60)
        // Start, the empty screen, five keystrokes, the end.
        #expect(events.count == 8)
        #expect((events[6][2] as? String)?.contains("brent") == true)
        #expect(try cli.run(["replay", "brent", "--cast", cast, "--size", "10x2"]).status == 64)
    }
}
