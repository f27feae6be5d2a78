import Foundation

/// A temporary folder that is removed when it is done with, and also when
/// the process is interrupted (SIGINT, SIGTERM, SIGHUP) while it exists.
///
/// The bench saves its corpus to a store in one (600 MB at 100,000 items,
/// gigabytes at a million) and runs child processes on it; a Ctrl-C there
/// used to leave it all behind in the temporary folder. On a signal the
/// running child, if any, is stopped, the folder removed, and the process
/// exits with 128 + the signal, as a shell reports a process the signal
/// killed.
///
/// The handler only writes the signal's number to a pipe (all a handler may
/// safely do); a thread waiting on the pipe does the rest. A dispatch
/// signal source would not do: it needs the signal blocked in every thread,
/// and the cores' worker threads exist before the folder does.
final class ScratchFolder: @unchecked Sendable {
    let url: URL
    private let lock = NSLock()
    private var child: Process?
    private var handled: [Int32] = []
    /// Set when a signal came: the watcher thread owns the ending then.
    private var interruption = false
    private static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// The pipe's write end, for the handler (which can capture nothing).
    nonisolated(unsafe) private static var signalPipe: Int32 = -1

    /// Creates `PREFIX-<UUID>` in the temporary folder (`$TMPDIR`).
    init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw CommandFailure(message: "cannot watch for interruptions: \(String(cString: strerror(errno)))", code: ExitStatus.failure)
        }
        Self.signalPipe = ends[1]
        let reader = ends[0]
        Thread.detachNewThread { [self] in
            var number: Int32 = 0
            guard read(reader, &number, MemoryLayout<Int32>.size) == MemoryLayout<Int32>.size else { return }
            interrupted(by: number)
        }
        for signalNumber in Self.signals {
            // A signal the process was started with ignored (a background
            // job's SIGINT) stays ignored.
            let previous = signal(signalNumber) { received in
                var number = received
                _ = write(ScratchFolder.signalPipe, &number, MemoryLayout<Int32>.size)
            }
            if Self.isIgnore(previous) {
                signal(signalNumber, SIG_IGN)
            } else {
                handled.append(signalNumber)
            }
        }
        // A mask inherited blocked (some test runners start children so)
        // would hold the signal back: this thread takes it.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in handled { sigaddset(&unblocked, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    /// Starts `process` as the child to stop on a signal, then runs `body`
    /// (which waits for it).
    ///
    /// Started under the lock the watcher thread takes: a signal either
    /// finds the child running, and stops it, or comes first, and then no
    /// child starts (`index import` would make the removed folder again
    /// for its store, and be left running in it).
    func running<T>(_ process: Process, _ body: () throws -> T) throws -> T {
        lock.lock()
        guard !interruption else {
            lock.unlock()
            waitForTheEnd()
        }
        child = process
        do {
            try process.run()
        } catch {
            child = nil
            lock.unlock()
            throw error
        }
        lock.unlock()
        defer { lock.withLock { child = nil } }
        return try body()
    }

    /// After a signal the watcher thread ends the process, with the
    /// signal's status: this thread waits for it.
    private func waitForTheEnd() -> Never {
        while true { sleep(60) }
    }

    /// Removes the folder and gives the signals back their default action.
    ///
    /// After a signal the watcher thread removes the folder and ends the
    /// process with the signal's status; the main thread, here on its way
    /// out (done, or failing because its store went away under it), waits
    /// for that instead of exiting with a status of its own.
    func remove() {
        if lock.withLock({ interruption }) { waitForTheEnd() }
        for signalNumber in handled { signal(signalNumber, SIG_DFL) }
        handled = []
        try? FileManager.default.removeItem(at: url)
    }

    private static func isIgnore(_ handler: __sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private func interrupted(by signalNumber: Int32) {
        lock.withLock {
            interruption = true
            if let child, child.isRunning {
                child.terminate()
                child.waitUntilExit()
            }
        }
        removeWhileInUse()
        // `_exit`, not `exit`: the main thread, finding its folder gone,
        // may be on its way to exit with its own error, and the status
        // is the signal's.
        _exit(128 + signalNumber)
    }

    /// Removes the folder while the main thread may still be writing in it
    /// (the bench's save to SQLite makes and removes its journal there by
    /// name): a file made after the folder was emptied and before it was
    /// removed failed the removal once and left the folder behind. Tried
    /// again until it is gone; once it is, nothing can be made in it.
    private func removeWhileInUse() {
        for _ in 0..<200 {
            try? FileManager.default.removeItem(at: url)
            if !FileManager.default.fileExists(atPath: url.path) { return }
            usleep(5_000)
        }
    }
}
