import Foundation
import SearchIndex

/// Leaving the index ready to answer: after an import the next process
/// loads the engine from a current snapshot instead of rebuilding it
/// from every record (Docs/architecture.md, "From a file to the first answer").
extension PersistentIndex {
    /// Batches from which the engine's change is made on another thread
    /// while the store writes (`EngineBuild`); a smaller one costs less
    /// than the thread.
    static let concurrentBuildMinimum = 4_096

    /// Stores of fewer rows are read whole in well under a second: the
    /// terminal UI reads them before it opens, an import before it writes.
    static let quickReadLimit = 50_000

    /// Whether the snapshot beside the store is of the store's current
    /// generation (read from its header: nothing is loaded).
    public func hasCurrentSnapshot() throws -> Bool {
        guard let path = store.path, let generation = try store.generation() else { return false }
        return SnapshotFile.header(at: SnapshotFile.path(forStore: path))?.generation == generation
    }

    /// The counts of the store's current state as its snapshot's header
    /// keeps them, or nil when the snapshot is not current (only the
    /// engine can count then).
    public func currentSummary() throws -> IndexSummary? {
        guard let path = store.path, let generation = try store.generation(),
              let header = SnapshotFile.header(at: SnapshotFile.path(forStore: path)), header.generation == generation
        else { return nil }
        return header.summary
    }

    /// Whether the engine is read in a moment whatever the snapshot: the
    /// store holds few rows.
    public func readsQuickly() throws -> Bool {
        let rows = try store.rowCounts()
        return rows.records + rows.activities < Self.quickReadLimit
    }

    /// Loads the engine before an import when that is cheap (a current
    /// snapshot, or a small store), so the import's items are added to it
    /// as the store writes them. Otherwise `leaveReady` reads the store
    /// once, after every file.
    public func prepareForImport() throws {
        guard loadedEngine == nil, store.path != nil else { return }
        if try hasCurrentSnapshot() || readsQuickly() {
            _ = try loadEngine()
        }
    }

    /// Makes sure the engine of the store's current state is in memory and
    /// saved beside the store, so the next process starts from it. A
    /// failure to save costs the next start time, never data.
    public func leaveReady() throws {
        guard store.path != nil else { return }
        _ = try loadEngine()
        try saveSnapshot()
    }
}
