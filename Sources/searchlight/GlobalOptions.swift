import ArgumentParser
import Foundation
import SearchStore

/// Options every command takes, before or after its name.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "The index file (default $SEARCHLIGHT_INDEX, else $XDG_DATA_HOME/searchlight/index.sqlite).")
    var index: String?

    @Flag(name: .long, help: "Keep the index in memory only, filled from --data.")
    var inMemory = false

    @Option(name: .long, help: "The fixtures directory (default $SEARCHLIGHT_DATA, else the bundled Data/).")
    var data: String?

    @Option(name: .long, help: "Pretend the time is this ISO 8601 date (for expiration and recency).")
    var now: String?

    /// Global options, for moving them after the subcommand name.
    static let valued: Set<String> = ["--index", "--data", "--now"]
    static let flags: Set<String> = ["--in-memory"]

    func validate() throws {
        if let now, Clock.parse(now) == nil {
            throw ValidationError("--now: '\(now)' is not an ISO 8601 date (e.g. 2026-11-22T10:00:00Z)")
        }
    }

    /// The clock every command uses.
    var date: Date { now.flatMap(Clock.parse) ?? Date() }

    var indexPath: String? {
        if inMemory { return nil }
        return index ?? IndexStore.defaultPath
    }

    var dataDirectory: String {
        if let data { return data }
        if let env = ProcessInfo.processInfo.environment["SEARCHLIGHT_DATA"], !env.isEmpty { return env }
        return BundledData.directory()
    }
}

/// Parses `--now`.
enum Clock {
    static func parse(_ text: String) -> Date? {
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}

/// Finds the `Data/` directory shipped with the package.
enum BundledData {
    static func directory() -> String {
        let fileManager = FileManager.default
        var candidates: [String] = []
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(folder.appendingPathComponent("Data").path)
            folder = folder.deletingLastPathComponent()
        }
        candidates.append((fileManager.currentDirectoryPath as NSString).appendingPathComponent("Data"))
        for candidate in candidates where fileManager.fileExists(atPath: (candidate as NSString).appendingPathComponent("employees.json")) {
            return candidate
        }
        return "Data"
    }
}
