import Foundation
import Testing

/// `Examples/ColleaguesIndexer`, a separate package that depends on this one
/// by path, built and run as a developer would: its items, written through
/// the Core Spotlight API, are then found by `searchlight search`. Building
/// it takes minutes, so it runs when `SEARCHLIGHT_EXAMPLE_TEST` is set
/// (`.ci/run` sets it for a run of its own after `swift test`).
@Suite struct SpotlightExampleTests {
    static let enabled = ProcessInfo.processInfo.environment["SEARCHLIGHT_EXAMPLE_TEST"] != nil
    static let example = URL(fileURLWithPath: CLI.dataDirectory).deletingLastPathComponent()
        .appendingPathComponent("Examples/ColleaguesIndexer").path

    /// Runs a process to its end; its status and the last of what it printed.
    @discardableResult
    func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output.suffix(4_000), as: UTF8.self))
    }

    @Test(.enabled(if: enabled)) func theExamplesItemsAreFoundBySearch() throws {
        let build = try run("/usr/bin/env", ["swift", "build", "--package-path", Self.example])
        try #require(build.status == 0, "swift build of the example:\n\(build.output)")
        let cli = CLI()
        let binary = Self.example + "/.build/debug/ColleaguesIndexer"
        let indexer = try run(binary, [], environment: ["SEARCHLIGHT_INDEX": cli.indexPath])
        #expect(indexer.status == 0, "\(indexer.output)")
        let ada = try cli.run(["search", "ada", "--json", "--explain"])
        let first = try #require((ada.json?["results"] as? [[String: Any]])?.first)
        #expect(first["uniqueIdentifier"] as? String == "employee/101")
        #expect(first["contentType"] as? String == "public.contact")
        // The viewed-employee activity merged with its item.
        #expect(first["sources"] as? [String] == ["item", "activity"])
        #expect(try cli.ids("glacier") == ["show/101"])
        #expect(try cli.ids("spotlight") == ["employee/101"])
        // Stats name the program that wrote last, by its executable's name.
        let stats = try cli.run(["index", "stats", "--json"]).json
        #expect((stats?["lastWriter"] as? String)?.hasPrefix("ColleaguesIndexer · pid ") == true)
    }
}
