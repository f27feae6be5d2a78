import Foundation
import SearchStore

/// A whole engine read from the store on another thread: when the
/// terminal UI opens (it draws and takes keys at once), and when the change
/// log cannot bring the engine in memory up to date (it keeps answering
/// from the old one meanwhile).
final class EngineLoad: @unchecked Sendable {
    /// Why the engine is being read, for the status line.
    enum Reason: Sendable {
        case opening
        case othersChanges
    }

    let reason: Reason
    private let lock = NSLock()
    private let started = Date()
    // Guarded by `lock`.
    private var result: Result<PersistentIndex.LoadedEngine, any Error>?
    private var fraction: Double?

    init(path: String, reason: Reason) {
        self.reason = reason
        let thread = Thread { [self] in
            let loaded = Result { () throws -> PersistentIndex.LoadedEngine in
                let store = try IndexStore(path: path, readOnly: true)
                return try PersistentIndex.readEngine(from: store) { done in self.lock.withLock { self.fraction = done } }
            }
            lock.withLock { result = loaded }
        }
        thread.name = "searchlight.engine-load"
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// How far a read from the records has come (nil: a snapshot is being
    /// read, which takes a moment).
    var done: Double? { lock.withLock { fraction } }

    /// `building the index: 40% ████████░░░░░░░░░░░░ 12 s`.
    var progress: String {
        let seconds = Int(Date().timeIntervalSince(started))
        guard let done else {
            return reason == .opening ? "loading the index… \(seconds) s" : "another process changed much of the index: reading it again… \(seconds) s"
        }
        let percent = Int(done * 100)
        let filled = min(Self.barWidth, Int(done * Double(Self.barWidth)))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: Self.barWidth - filled)
        let what = reason == .opening ? "building the index" : "another process changed much of the index: reading it again"
        return "\(what): \(percent)% \(bar) \(seconds) s"
    }

    static let barWidth = 20

    /// The engine once read (then nil again).
    func take() -> Result<PersistentIndex.LoadedEngine, any Error>? {
        lock.lock(); defer { lock.unlock() }
        defer { result = nil }
        return result
    }
}
