import ArgumentParser
import Foundation
import Routing
import SearchApp
import SearchStore
import TerminalUI

@main
struct Searchlight: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "searchlight",
        abstract: "A terminal search browser: Core Spotlight items, activities and web markup, ranked as you type.",
        version: BuildInfo.version,
        subcommands: [
            SearchCommand.self, PickCommand.self, IndexCommand.self, OpenCommand.self, SettingsCommand.self, CrawlCommand.self, ReplayCommand.self, DemoCommand.self, BenchCommand.self,
        ]
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("import"), help: "Import this file in the background while the UI runs (repeatable).")
    var imports: [String] = []

    func run() throws {
        try CommandContext.run {
            guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
                throw CommandFailure(message: "the terminal UI needs a terminal; for scripts use 'searchlight search QUERY --json'", code: ExitStatus.usage)
            }
            let index = try CommandContext.openForTerminalUI(global)
            let router = try Router.load(dataDirectory: global.dataDirectory)
            let clock: @Sendable () -> Date = { [now = global.now] in now.flatMap(Clock.parse) ?? Date() }
            let backend = IndexBackend(index: index, router: router, dataDirectory: global.dataDirectory, clock: clock)
            for file in imports { backend.startImport(path: file) }
            let left = try TerminalSession.run(backend: backend)
            // The next start loads this engine instead of rebuilding it.
            _ = try? index.saveSnapshot()
            if left.interrupted { throw ExitCode(ExitStatus.interrupted) }
        }
    }

    /// Moves global options written before the subcommand name after it, so
    /// `searchlight --index x search q` means `searchlight search q --index x`.
    static func reordered(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if GlobalOptions.flags.contains(argument) {
                leading.append(argument)
                index += 1
            } else if GlobalOptions.valued.contains(name) {
                leading.append(argument)
                if !argument.contains("="), index + 1 < arguments.count {
                    leading.append(arguments[index + 1])
                    index += 1
                }
                index += 1
            } else {
                break
            }
        }
        return Array(arguments[index...]) + leading
    }

    /// How this process signs the index's log: `searchlight index import · pid 42`.
    static func writerName(for command: any ParsableCommand, arguments: [String]) -> String {
        let pid = " · pid \(getpid())"
        guard !(command is Searchlight) else { return "searchlight (terminal UI)" + pid }
        let names = Set(configuration.subcommands.compactMap { $0.configuration.commandName }
            + IndexCommand.configuration.subcommands.compactMap { $0.configuration.commandName })
        let words = arguments.prefix(2).prefix { names.contains($0) }
        return (["searchlight"] + words).joined(separator: " ") + pid
    }

    /// As `ParsableCommand.main`, but every message goes through `Output`:
    /// input echoed in a usage error is filtered, and a failed write exits 74.
    static func main() {
        var code = ExitCode.success
        do {
            let arguments = reordered(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot(arguments)
            IndexStore.writerName = writerName(for: command, arguments: arguments)
            try command.run()
        } catch {
            code = exitCode(for: error)
            let text = fullMessage(for: error)
            if !text.isEmpty {
                if code == .success {
                    do { try Output.line(text) } catch { code = ExitCode(ExitStatus.ioError) }
                } else {
                    Output.errorText(text)
                }
            }
        }
        Foundation.exit(Output.standardErrorFailed ? ExitStatus.ioError : code.rawValue)
    }
}
