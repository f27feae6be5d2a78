import Catalog
import Foundation
import SearchIndex
import SearchStore
import TerminalUI

/// Files imported while the UI runs, one after another on one thread.
///
/// Each file is read, checked and written in one transaction of its own
/// connection, so it is in the store whole or not at all: quitting or a
/// kill before the commit leaves the store as it was. The UI loop sees the
/// result as it sees any other writer's (`PersistentIndex.followStore`).
/// An index in memory has no second connection: its items are handed to
/// the UI loop, which applies them in one batch.
final class BackgroundImport: @unchecked Sendable {
    struct Failure: Sendable {
        var date: Date
        var message: String
    }

    private let lock = NSLock()
    private var pending: [(path: String, domain: String?, storePath: String?)] = []
    private var working = false
    private var phase: String?
    private var message: String?
    private var messageShownUntil = Date.distantPast
    private var inMemory: (items: [SearchableItem], label: String)?
    private var failed: [Failure] = []

    /// Queues a file; starts the worker when none runs.
    func enqueue(path: String, domain: String?, storePath: String?) {
        lock.lock(); defer { lock.unlock() }
        pending.append((path, domain, storePath))
        guard !working else { return }
        working = true
        let thread = Thread { [self] in work() }
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func work() {
        while let next = nextFile() {
            let label = (next.path as NSString).lastPathComponent
            setPhase("reading \(label)…")
            do {
                let items = try ItemImporter.items(atPath: next.path, domain: next.domain)
                guard let storePath = next.storePath else {
                    handOver(items, label: label)
                    continue
                }
                setPhase("writing \(label) to the index (\(items.count) items)…")
                let writer = try PersistentIndex(store: IndexStore(path: storePath))
                try writer.index(items, clientState: "imported \(label)")
                finish("imported \(items.count) items from \(label)")
            } catch {
                fail(label, "import of \(label) failed: \(error)")
            }
        }
    }

    private func nextFile() -> (path: String, domain: String?, storePath: String?)? {
        lock.lock(); defer { lock.unlock() }
        guard !pending.isEmpty else {
            working = false
            phase = nil
            return nil
        }
        return pending.removeFirst()
    }

    private func setPhase(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        phase = text
    }

    private func handOver(_ items: [SearchableItem], label: String) {
        lock.lock()
        inMemory = (items, label)
        phase = "importing \(label)…"
        lock.unlock()
        // Waits for the UI loop to take them: one import at a time.
        while lock.withLock({ inMemory != nil }) { Thread.sleep(forTimeInterval: 0.01) }
        finish("imported \(items.count) items from \(label)")
    }

    private func finish(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        phase = nil
        message = text
        messageShownUntil = Date().addingTimeInterval(5)
    }

    /// Records a failure: shown for a while, and kept for the inspector's log.
    func fail(_ label: String, _ text: String) {
        lock.lock(); defer { lock.unlock() }
        phase = nil
        message = text
        messageShownUntil = Date().addingTimeInterval(8)
        failed.append(Failure(date: Date(), message: text))
    }

    /// Every failure of this session, oldest first.
    var failures: [Failure] { lock.withLock { failed } }

    /// Whether a file is being read or written (quitting would drop it).
    var isRunning: Bool { lock.withLock { working } }

    var hasItemsInMemory: Bool { lock.withLock { inMemory != nil } }

    func takeItemsInMemory() -> (items: [SearchableItem], label: String)? {
        lock.lock(); defer { lock.unlock() }
        defer { inMemory = nil }
        return inMemory
    }

    var progress: String? {
        lock.lock(); defer { lock.unlock() }
        if let phase { return phase + (pending.isEmpty ? "" : " (\(pending.count) more queued)") }
        return Date() < messageShownUntil ? message : nil
    }
}
