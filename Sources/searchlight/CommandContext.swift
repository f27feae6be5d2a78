import ArgumentParser
import Catalog
import Foundation
import SearchIndex
import SearchStore

/// Exit codes (SPEC 4; sysexits where one fits).
enum ExitStatus {
    static let usage: Int32 = 64
    static let badData: Int32 = 65
    static let busy: Int32 = 75
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
            throw fail(error.description, ExitStatus.badData)
        } catch let error as StoreError {
            throw fail(error.description, error.kind == .busy ? ExitStatus.busy : ExitStatus.failure)
        } catch let error as CommandFailure {
            throw fail(error.message, error.code)
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
        return ExitCode(code)
    }

    /// Opens (creating and filling if needed) the index the options name.
    /// `needsEngine: false` for commands that only write to the store.
    static func open(_ options: GlobalOptions, needsEngine: Bool = true) throws -> PersistentIndex {
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
        case .rebuilt(let reason, let movedTo):
            Output.error("notice: \(reason); moved it to \(movedTo ?? "-") and rebuilt the index from \(delegate.directory)")
        }
        opened.append(index)
        return index
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

/// Writing to the terminal or a pipe.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("searchlight: " + text.replacingOccurrences(of: "\n", with: " ") + "\n").utf8))
    }

    static func json(_ value: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// Text safe to print: control characters shown as visible placeholders.
    static func safe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            if scalar.value < 0x20 || scalar.value == 0x7F { return Unicode.Scalar(0x2400 + (scalar.value == 0x7F ? 0x21 : scalar.value))! }
            if (0x80..<0xA0).contains(scalar.value) { return "\u{FFFD}" }
            return scalar
        }))
    }
}
