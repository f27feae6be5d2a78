import ArgumentParser
import Catalog
import Foundation
import TerminalUI
#if canImport(Glibc)
import Glibc
#endif
import SearchIndex
import SearchStore

/// Exit codes (SPEC 4; sysexits where one fits).
enum ExitStatus {
    static let usage: Int32 = 64
    static let badData: Int32 = 65
    static let busy: Int32 = 75
    static let missingInput: Int32 = 66
    static let ioError: Int32 = 74
    /// The user interrupted: Ctrl-C in the UI, Esc or Ctrl-C in a picker.
    static let interrupted: Int32 = 130
    static let failure: Int32 = 1
}

/// A failure that reaches the user as one line with its exit code.
struct CommandFailure: Error {
    var message: String
    var code: Int32
}

/// Re-indexes from the fixtures when the store is new or lost.
struct FixtureDelegate: SearchableIndexDelegate {
    var directory: String

    func reindexAllSearchableItems(in index: PersistentIndex) throws {
        let items = try FixtureCatalog.items(in: directory)
        try index.replaceAll(with: items, reason: directory)
    }
}

/// Opens the index for a command and turns errors into exit codes.
enum CommandContext {
    /// Runs `body` and maps every error to one stderr line and an exit code.
    static func run(_ body: () throws -> Void) throws {
        defer { closeOpenedIndexes() }
        do {
            try body()
        } catch let error as ImportError {
            throw fail(error.description, error.isMissingInput ? ExitStatus.missingInput : ExitStatus.badData)
        } catch let error as StoreError {
            throw fail(error.description, error.kind == .busy ? ExitStatus.busy : ExitStatus.failure)
        } catch let error as CommandFailure {
            throw fail(error.message, error.code)
        } catch let error as Output.WriteFailure {
            throw fail(error.description, ExitStatus.ioError)
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail("\(error)", ExitStatus.failure)
        }
    }

    static func fail(_ message: String, _ code: Int32) -> ExitCode {
        Output.error(message)
        return ExitCode(Output.standardErrorFailed ? ExitStatus.ioError : code)
    }

    /// Opens (creating and filling if needed) the index the options name.
    /// `needsEngine: false` for commands that only write to the store.
    static func open(_ options: GlobalOptions, needsEngine: Bool = true) throws -> PersistentIndex {
        // A `--data` that names no folder is a mistyped path, refused even
        // when the index exists and will not read it: silence would hide it.
        if let data = options.data { try FixtureCatalog.requireFolder(data) }
        let delegate = FixtureDelegate(directory: options.dataDirectory)
        let (index, event) = try PersistentIndex.open(
            path: options.indexPath, delegate: delegate, now: options.date, loadingEngine: needsEngine)
        switch event {
        case .opened:
            break
        case .created:
            if let path = options.indexPath {
                Output.error("notice: created a new index at \(path) from \(delegate.directory)")
            }
        case .rebuilt(let reason, let movedTo, let salvaged):
            let refill = salvaged > 0 ? "carried \(salvaged) readable records into a new index" : "rebuilt the index from \(delegate.directory)"
            Output.error("notice: \(reason); moved it to \(movedTo ?? "-") and \(refill)")
        }
        opened.append(index)
        return index
    }

    /// Opens the index for the terminal UI: a large one is read on another
    /// thread (`IndexBackend`), so the UI opens at once; a small one is
    /// read here, as every command reads it (damage found is repaired
    /// before the UI opens).
    static func openForTerminalUI(_ options: GlobalOptions) throws -> PersistentIndex {
        let index = try open(options, needsEngine: false)
        return try index.readsQuickly() ? open(options) : index
    }

    /// The indexes `open` gave this command; only the main thread runs commands.
    nonisolated(unsafe) private static var opened: [PersistentIndex] = []

    /// Closes the command's stores but leaves their engines' memory to the
    /// process's exit. Freeing a million documents' objects one at a time
    /// took about a second after `search` had printed its answer (perf at
    /// 1M), while the shell waited; the system takes the memory back at once.
    private static func closeOpenedIndexes() {
        for index in opened where index.isEngineLoaded {
            // A copy that is never destroyed holds a reference to each of
            // the engine's buffers, so none is freed when the index goes.
            UnsafeMutablePointer<SearchEngine>.allocate(capacity: 1).initialize(to: index.engine)
        }
        opened.removeAll()
    }
}

/// Writing to the terminal or a pipe. Every byte passes one filter (the
/// UI's placeholders for control and bidi characters; JSON escapes in
/// `--json`), and a write that fails is an error (exit 74), never a crash.
enum Output {
    /// A write to standard output or standard error that did not complete.
    struct WriteFailure: Error, CustomStringConvertible {
        var stream: String
        var reason: String
        var description: String { "\(stream) could not be written (\(reason))" }
    }

    /// Set once standard error has failed: the exit code becomes 74 and
    /// nothing more is tried there.
    nonisolated(unsafe) static var standardErrorFailed = false

    static func line(_ text: String) throws {
        try write(Terminal.safe(text) + "\n", to: STDOUT_FILENO, stream: "standard output")
    }

    static func error(_ text: String) {
        guard !standardErrorFailed else { return }
        let line = "searchlight: " + Terminal.safe(text.replacingOccurrences(of: "\n", with: " ")) + "\n"
        do { try write(line, to: STDERR_FILENO, stream: "standard error") } catch { standardErrorFailed = true }
    }

    /// Text of several lines on standard error, as written (usage messages).
    static func errorText(_ text: String) {
        guard !standardErrorFailed else { return }
        do { try write(Terminal.safe(text) + "\n", to: STDERR_FILENO, stream: "standard error") } catch { standardErrorFailed = true }
    }

    static func json(_ value: Any) throws {
        try text(jsonLine(value))
    }

    /// The line `json` writes for `value`, its line break included; any
    /// thread may make one.
    static func jsonLine(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        return line(ofJSON: String(decoding: data, as: UTF8.self))
    }

    /// JSON text made elsewhere as a line `text` may write: what a terminal
    /// would act on escaped, as in every other line.
    static func line(ofJSON json: String) -> String {
        Terminal.escapedJSON(json) + "\n"
    }

    /// Text already made safe (by `jsonLine`), written as it is.
    static func text(_ text: String) throws {
        try write(text, to: STDOUT_FILENO, stream: "standard output")
    }

    /// A field of data safe to print inside a line: control characters,
    /// line breaks included, shown as visible placeholders.
    static func safe(_ text: String) -> String { Terminal.visibleText(text) }

    private static func write(_ text: String, to descriptor: Int32, stream: String) throws {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw WriteFailure(stream: stream, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
        bytes.removeAll()
    }
}
