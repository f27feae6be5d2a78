import Foundation
import SearchIndex
import SearchSupport

/// Asked to fill the index again when the stored one is missing, damaged or
/// of an older format, after `CSSearchableIndexDelegate`.
public protocol SearchableIndexDelegate {
    /// Index every item the app has.
    func reindexAllSearchableItems(in index: PersistentIndex) throws
}

/// The searchable index as the app sees it: the in-memory engine that
/// serves queries, kept in step with the store that survives restarts.
///
/// Every operation is prepared on a copy of the engine, written to the
/// store in one transaction, and only then made current, so a failure at
/// any point leaves both exactly as they were. Indexing a batch, the most
/// frequent change (a background import applies one per keystroke), is
/// written to the store first and then made to the engine in place: its
/// store batch needs nothing from the change, and a change prepared on a
/// copy copies every structure it touches (at a million items, the trie's
/// node array, the records and the documents) for each batch.
public final class PersistentIndex {
    /// The engine that serves queries, loaded from the store the first time
    /// it is needed: commands that only write (import, reset) never pay for it.
    ///
    /// Open with `loadingEngine` (or call `loadEngine`) to have damage
    /// reported; an engine that cannot be read here is empty.
    public var engine: SearchEngine {
        if let loadedEngine { return loadedEngine }
        let loaded = (try? loadEngine()) ?? SearchEngine(preference: preference)
        loadedEngine = loaded
        return loaded
    }
    var loadedEngine: SearchEngine?
    /// Whether the engine has been loaded (reading `engine` would load it).
    public var isEngineLoaded: Bool { loadedEngine != nil }
    /// Takes a loaded engine's background work into it once it is done
    /// (`SearchEngine.settleLoadIfReady`); for an idle moment.
    @discardableResult
    public func settleLoadedEngineIfReady() -> Bool {
        loadedEngine?.settleLoadIfReady() ?? false
    }
    public let store: IndexStore
    public internal(set) var lastClientState: String?
    /// The indexing preference, known without loading the engine.
    public internal(set) var preference: IndexingPreference

    /// Opens a store; its records are read when the engine is first needed.
    public init(store: IndexStore) throws {
        self.store = store
        let meta = try store.meta()
        preference = meta.preference
        lastClientState = meta.clientState
    }

    /// Where the engine in memory came from.
    public enum EngineOrigin: Sendable, Equatable {
        /// The snapshot saved beside the store, for its current generation.
        case snapshot
        /// Every record, activity and view, tokenised again.
        case records
    }

    /// Where the loaded engine came from; nil until it is loaded.
    public internal(set) var engineOrigin: EngineOrigin?
    /// The store generation the engine in memory reflects (nil: unknown,
    /// and no snapshot is saved from it).
    public internal(set) var engineGeneration: String?
    /// The generation of the snapshot on disk, when known to be current.
    private var snapshotGeneration: String?

    /// The engine: from the snapshot when it is the store's current one,
    /// else from every record, activity and engagement. Unreadable content
    /// means a damaged store.
    public func loadEngine() throws -> SearchEngine {
        if let loadedEngine { return loadedEngine }
        adopt(try Self.readEngine(from: store))
        return loadedEngine!
    }

    /// An engine read from a store, and what it was read from: made on any
    /// thread (`readEngine`), taken in by the index that serves (`adopt`).
    public struct LoadedEngine: Sendable {
        public var engine: SearchEngine
        public var origin: EngineOrigin
        /// The store generation it reflects.
        public var generation: String?
        /// The generation of the snapshot it came from, if it did.
        var snapshotGeneration: String?
        /// What a read of the records left out (nil: not read).
        var quarantined: [QuarantinedRecord]?
    }

    /// How far a read from the records has come, from 0 to 1: called on
    /// the reading thread.
    public typealias LoadProgress = @Sendable (Double) -> Void

    /// Reads the engine of `store`'s current state: from the snapshot when
    /// it is current (or only views were recorded since, replayed on it),
    /// else from every record.
    public static func readEngine(from store: IndexStore, progress: LoadProgress? = nil) throws -> LoadedEngine {
        if let path = store.path, let generation = try store.generation() {
            var views: [(activity: UserActivity, date: Date)] = []
            let read = SnapshotFile.read(at: SnapshotFile.path(forStore: path)) { saved in
                guard let journal = try? store.journal(from: saved, to: generation, limit: Self.replayLimit) else { return false }
                views = journal
                return true
            } sets: { length, checksum in
                try StoredRun.read(from: store, length: length, checksum: checksum)
            }
            if case .success(let (loaded, saved)) = read {
                var engine = loaded
                for view in views { _ = engine.becomeCurrent(view.activity, at: view.date) }
                return LoadedEngine(engine: engine, origin: .snapshot, generation: generation, snapshotGeneration: saved)
            }
        }
        var state: StoredState
        do {
            state = try store.load { progress?($0 * Self.readingShare) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.corrupt, path: store.path ?? ":memory:", message: "the index holds unreadable records (\(error))")
        }
        let engine = Self.engine(from: &state) { progress?(Self.readingShare + $0 * (1 - Self.readingShare)) }
        return LoadedEngine(engine: engine, origin: .records, generation: state.generation, quarantined: state.quarantined)
    }

    /// The part of a read from the records that reading the store takes
    /// (the rest is the engine's build), for its progress.
    static let readingShare = 0.3

    /// The engine of everything `state` holds; its records are moved out.
    static func engine(from state: inout StoredState, progress: ((Double) -> Void)? = nil) -> SearchEngine {
        var engine = SearchEngine(preference: state.preference)
        // Records moved out one at a time, so none is copied on its way in.
        // Their order within a source does not matter.
        var itemsBySource: [Source: [SearchableItem]] = [:]
        let total = Double(max(state.records.count, 1))
        while let record = state.records.popLast() { itemsBySource[record.source, default: []].append(record.item) }
        var done = 0
        for source in Source.allCases {
            guard let items = itemsBySource.removeValue(forKey: source) else { continue }
            let (before, count) = (Double(done), Double(items.count))
            done += items.count
            engine.index(items, source: source) { progress?((before + $0 * count) / total) }
        }
        for activity in state.activities { engine.restoreActivity(activity) }
        for (id, dates) in state.engagements { engine.restoreEngagement(id, at: dates) }
        progress?(1)
        return engine
    }

    /// Makes `loaded` the engine that serves queries.
    public func adopt(_ loaded: LoadedEngine) {
        loadedEngine = loaded.engine
        engineOrigin = loaded.origin
        engineGeneration = loaded.generation
        snapshotGeneration = loaded.snapshotGeneration
        preference = loaded.engine.preference
        knownQuarantine = loaded.quarantined
    }

    /// Makes `engine`, read from the records of `generation`, the one that
    /// serves queries (a rebuild made elsewhere, e.g. on another thread).
    public func adopt(_ engine: SearchEngine, generation: String?, quarantined: [QuarantinedRecord]? = nil) {
        adopt(LoadedEngine(engine: engine, origin: .records, generation: generation, quarantined: quarantined))
    }

    /// What the last load from the records left out; nil when the engine
    /// came from a snapshot and the store was not read.
    var knownQuarantine: [QuarantinedRecord]?

    /// Stored rows that cannot be read back and so are not searched: kept
    /// in the store until their identifier is deleted or indexed again.
    /// Free when the engine was read from the records; otherwise the store
    /// is read only when its counts differ from the engine's.
    public func quarantinedRecords() throws -> [QuarantinedRecord] {
        if let knownQuarantine { return knownQuarantine }
        let counts = try store.rowCounts()
        let found = counts == (engine.records.count, engine.activities.count) ? [] : try store.unreadableRecords()
        knownQuarantine = found
        return found
    }

    /// Forgets quarantined rows that a write replaced or removed.
    private func release(quarantined identifiers: some Sequence<String>) {
        guard let known = knownQuarantine, !known.isEmpty else { return }
        let gone = Set(identifiers)
        knownQuarantine = known.filter { !gone.contains($0.uniqueIdentifier) }
    }

    /// Saves the engine beside the store when the snapshot there is not of
    /// the store's current generation, so the next process loads it instead
    /// of rebuilding. Does nothing in memory, before the engine is loaded,
    /// or when another process has written since (its engine would differ).
    /// Returns whether it wrote.
    @discardableResult
    public func saveSnapshot() throws -> Bool {
        guard let path = store.path, let engine = loadedEngine, let generation = engineGeneration,
              generation != snapshotGeneration, try store.generation() == generation else { return false }
        // The engine's counts are made while the store's rows are read.
        var counted: IndexSummary?
        var laidOut: Result<StoredRun, any Error> = .success(StoredRun())
        ParallelWork.both({ laidOut = Result { try StoredRun.layout(of: self.store, expecting: engine.documentCount) } },
                          { counted = IndexSummary(engine) })
        try SnapshotFile.write(engine, generation: generation, summary: counted!, run: laidOut.get(), to: SnapshotFile.path(forStore: path))
        snapshotGeneration = generation
        return true
    }

    /// Views replayed on a loaded snapshot at most; with more since it
    /// was saved, the engine is rebuilt.
    ///
    /// Replaying is the fallback for a save that did not happen (a process
    /// stopped while writing its snapshot): a view that indexes an
    /// activity changes a loaded engine's borrowed columns, which copies
    /// them (more than a start from a current snapshot costs, far less
    /// than a rebuild), so a process still saves its snapshot when
    /// it ends.
    static let replayLimit = 256

    /// Size of the snapshot file beside the store, in bytes (0 if none).
    public func snapshotFileSize() -> Int {
        guard let path = store.path else { return 0 }
        return (try? FileManager.default.attributesOfItem(atPath: SnapshotFile.path(forStore: path))[.size] as? Int) ?? 0
    }

    deinit {
        // A snapshot is a cache: failing to save one costs the next start
        // time, never data.
        _ = try? saveSnapshot()
    }

    /// What `open` found and did, for a one-line notice.
    public enum OpenEvent: Sendable, Equatable {
        case opened
        case created
        /// Moved aside; `salvaged` rows of it were carried into the new store
        /// (none: it was filled again by the delegate).
        case rebuilt(reason: String, movedTo: String?, salvaged: Int)
    }

    /// Opens the index at `path` (nil: in memory). A missing store is created
    /// and filled by `delegate`; a damaged or newer-format one is moved aside
    /// and rebuilt the same way. While the preference is `disabled`, leftover
    /// activity entries are deleted.
    ///
    /// With `loadingEngine` (the default) the records are read now, so damage
    /// anywhere in the file is found here and repaired; without it only the
    /// schema is checked, for commands that only write.
    public static func open(
        path: String?, delegate: (any SearchableIndexDelegate)?, now: Date = Date(), loadingEngine: Bool = true
    ) throws -> (index: PersistentIndex, event: OpenEvent) {
        guard let path else {
            let index = try PersistentIndex(store: IndexStore(path: nil))
            try delegate?.reindexAllSearchableItems(in: index)
            if loadingEngine { _ = try index.loadEngine() }
            return (index, .created)
        }
        let fileManager = FileManager.default
        let existed = fileManager.fileExists(atPath: path)
        if !existed {
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty {
                try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
        }
        if existed, !isWritable(path) {
            // Searched, never repaired or written: a read-only index stays as it is.
            let index = try PersistentIndex(store: IndexStore(path: path, readOnly: true))
            if loadingEngine { _ = try index.loadEngine() }
            return (index, .opened)
        }
        do {
            let index = try PersistentIndex(store: IndexStore(path: path))
            if !existed {
                do { try delegate?.reindexAllSearchableItems(in: index) } catch {
                    // A store that could not be filled is not left behind empty.
                    for suffix in ["", "-wal", "-shm"] { try? fileManager.removeItem(atPath: path + suffix) }
                    throw error
                }
            }
            try index.dropActivitiesIfDisabled()
            if loadingEngine { _ = try index.loadEngine() }
            return (index, existed ? .opened : .created)
        } catch let error as StoreError where error.kind == .corrupt || error.kind == .newerFormat {
            let aside = Self.asideName(for: path, now: now)
            try fileManager.moveItem(atPath: path, toPath: aside)
            for suffix in ["-wal", "-shm"] {
                if fileManager.fileExists(atPath: path + suffix) { try? fileManager.moveItem(atPath: path + suffix, toPath: aside + suffix) }
            }
            let store = try IndexStore(path: path)
            // What SQLite can still read of a damaged file is carried over;
            // only an empty salvage is refilled by the delegate.
            let salvaged = error.kind == .corrupt ? StoreSalvage.copy(from: aside, into: store) : 0
            let index = try PersistentIndex(store: store)
            if salvaged == 0 { try delegate?.reindexAllSearchableItems(in: index) }
            if loadingEngine { _ = try index.loadEngine() }
            return (index, .rebuilt(reason: error.message, movedTo: aside, salvaged: salvaged))
        }
    }

    /// Whether this process may write the store: the file, and the folder
    /// its journal files go in.
    static func isWritable(_ path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        return FileManager.default.isWritableFile(atPath: path)
            && FileManager.default.isWritableFile(atPath: directory.isEmpty ? "." : directory)
    }

    /// `PATH.broken-<time>`, with a counter when that name is taken: two
    /// stores moved aside in one second both stay.
    static func asideName(for path: String, now: Date) -> String {
        let base = path + ".broken-\(Int(now.timeIntervalSince1970))"
        var name = base
        var counter = 1
        while FileManager.default.fileExists(atPath: name) {
            counter += 1
            name = base + "-\(counter)"
        }
        return name
    }

    private func dropActivitiesIfDisabled() throws {
        guard preference == .disabled, try !store.activityIdentifiers().isEmpty else { return }
        try write(at: Date()) { transaction in
            var next = self.engine
            var batch = StoreBatch()
            batch.deletedActivityIDs = Array(Set(next.removeAllActivities() + (try transaction.activityIdentifiers()))).sorted()
            batch.log = [("deleted", "\(batch.deletedActivityIDs.count) activities (indexing disabled)")]
            return WritePlan(batch: batch, next: next)
        }
    }

    /// What one operation writes: its batch, and the engine after it,
    /// either made beforehand (`next`) or by a change in place once the
    /// store holds the batch (`change`, which cannot fail).
    struct WritePlan {
        var batch: StoreBatch
        var next: SearchEngine?
        var change: ((inout SearchEngine) -> Void)?
        /// Or by a change made on another thread while the store writes
        /// the batch, to an engine moved out of this index for it.
        var build: EngineBuild?
        /// Nothing to write after all (the catch-up made it moot).
        var skip = false
    }

    /// Writes one operation on top of the latest state: inside one write
    /// transaction the engine first catches up with every other writer,
    /// then `prepare` plans the operation from it. The engine in memory
    /// takes the operation only once the transaction has committed.
    @discardableResult
    func write(at date: Date, needsEngine: Bool = true, _ prepare: (StoreTransaction) throws -> WritePlan) throws -> WritePlan {
        // Loaded before the transaction: a load reads the store on its own.
        if needsEngine { _ = engine }
        var building: EngineBuild?
        let (plan, generation): (WritePlan, String?)
        do {
            (plan, generation) = try store.writing { transaction in
                try catchUp(in: transaction)
                let plan = try prepare(transaction)
                building = plan.build
                if plan.skip { return (plan, engineGeneration) }
                return (plan, Optional(try transaction.apply(plan.batch, at: date).current))
            }
        } catch {
            // The build's engine holds a batch the store refused: it is
            // dropped, and with no engine in memory the next use reads the
            // store again.
            _ = building?.wait()
            throw error
        }
        if let build = plan.build { loadedEngine = build.wait() }
        if let next = plan.next { loadedEngine = next }
        if let change = plan.change, loadedEngine != nil { change(&loadedEngine!) }
        if loadedEngine != nil { engineGeneration = generation }
        if let state = plan.batch.clientState { lastClientState = state }
        if let preference = plan.batch.preference { self.preference = preference }
        return plan
    }

    // MARK: - Operations

    /// Indexes (inserts or replaces) a batch, atomically.
    public func index(_ items: [SearchableItem], source: Source = .item, clientState: String? = nil, at date: Date = Date()) throws {
        var batch = StoreBatch()
        batch.upsertedRecords = items.map { IndexRecord(source: source, item: $0) }
        batch.clientState = clientState
        try write(at: date, needsEngine: false) { transaction in
            // Counted by the store: the engine may not be loaded (commands
            // that only write never load it).
            let updated = try transaction.existingRecordCount(among: items.map(\.uniqueIdentifier))
            batch.log = Self.indexLog(added: items.count - updated, updated: updated, source: source, items: items)
            if items.count >= Self.concurrentBuildMinimum, let engine = loadedEngine {
                // Moved out, so the build changes it in place (a copy would
                // copy every structure the change touches).
                loadedEngine = nil
                return WritePlan(batch: batch, build: EngineBuild(engine) { $0.index(items, source: source) })
            }
            // Made in place once written: a change prepared on a copy would
            // copy every structure it touches, for each batch.
            return WritePlan(batch: batch, change: { $0.index(items, source: source) })
        }
        // Only once written: a failed write leaves the quarantined rows as they were.
        release(quarantined: items.map(\.uniqueIdentifier))
    }

    private static func indexLog(added: Int, updated: Int, source: Source, items: [SearchableItem]) -> [(kind: String, detail: String)] {
        var log: [(kind: String, detail: String)] = []
        if added > 0 { log.append(("indexed", "\(added) \(source.rawValue)\(added == 1 ? "" : "s")\(sample(items.map(\.uniqueIdentifier)))")) }
        if updated > 0 { log.append(("updated", "\(updated) \(source.rawValue)\(updated == 1 ? "" : "s")")) }
        return log
    }

    /// Indexes crawled pages and drops the pages of the same domains that the
    /// crawl no longer found, in one transaction.
    public func replaceWebPages(_ items: [SearchableItem], inDomains domains: [String], at date: Date = Date()) throws {
        try write(at: date) { _ in
            let engine = self.engine
            let fresh = Set(items.map(\.uniqueIdentifier))
            let stale = engine.records.values
                .filter { $0.source == .web && domains.contains($0.item.domainIdentifier ?? "") && !fresh.contains($0.item.uniqueIdentifier) }
                .map(\.item.uniqueIdentifier).sorted()
            var next = engine
            next.deleteItems(identifiers: stale)
            next.index(items, source: .web)
            var batch = StoreBatch()
            batch.deletedRecordIDs = stale
            batch.deletedActivityIDs = engine.activities.keys.filter { next.activities[$0] == nil }.sorted()
            batch.upsertedRecords = items.map { IndexRecord(source: .web, item: $0) }
            batch.log.append(("indexed", "\(items.count) web pages from \(domains.count) domain\(domains.count == 1 ? "" : "s")"))
            if !stale.isEmpty { batch.log.append(("deleted", "\(stale.count) web pages no longer found")) }
            return WritePlan(batch: batch, next: next)
        }
    }

    /// Deletes by identifier; returns what was removed.
    @discardableResult
    public func deleteItems(identifiers: [String], at date: Date = Date()) throws -> [String] {
        // Only an identifier the engine lacks can be a quarantined row.
        let unknown = identifiers.filter { engine.records[$0] == nil }
        let quarantined = unknown.isEmpty ? [] : Set(try quarantinedRecords().filter { !$0.isActivity }.map(\.uniqueIdentifier))
        let unreadable = unknown.filter(quarantined.contains)
        return try delete(at: date, alsoStored: unreadable) { $0.deleteItems(identifiers: identifiers) }
    }

    /// Deletes by domain, hierarchically; returns what was removed.
    @discardableResult
    public func deleteItems(domainIdentifiers: [String], at date: Date = Date()) throws -> [String] {
        try delete(at: date, domains: domainIdentifiers) { $0.deleteItems(domainIdentifiers: domainIdentifiers) }
    }

    /// Deletes what `body` removes from the engine, plus `alsoStored`
    /// identifiers and `domains` among rows only the store holds.
    private func delete(
        at date: Date, alsoStored: [String] = [], domains: [String] = [], _ body: (inout SearchEngine) -> [String]
    ) throws -> [String] {
        var removed: [String] = []
        try write(at: date) { _ in
            let engine = self.engine
            var next = engine
            removed = body(&next) + alsoStored
            var batch = StoreBatch()
            batch.deletedDomains = domains
            batch.deletedRecordIDs = removed.filter { engine.records[$0] != nil } + alsoStored
            batch.deletedActivityIDs = engine.activities.keys.filter { next.activities[$0] == nil }.sorted()
            batch.deletedEngagementIDs = engine.engagements.keys.filter { next.engagements[$0] == nil }.sorted()
            if !removed.isEmpty { batch.log.append(("deleted", "\(removed.count) item\(removed.count == 1 ? "" : "s")\(Self.sample(removed))")) }
            return WritePlan(batch: batch, next: next)
        }
        // Only once written: a failed write leaves the quarantined rows as they were.
        release(quarantined: removed)
        if !domains.isEmpty { knownQuarantine = nil }
        return removed
    }

    /// Deletes everything, like `deleteAllSearchableItems`.
    public func deleteAll(at date: Date = Date()) throws {
        try write(at: date) { _ in
            var next = self.engine
            next.deleteAll()
            var batch = StoreBatch()
            batch.deleteEverything = true
            batch.log.append(("deleted", "everything"))
            return WritePlan(batch: batch, next: next)
        }
        knownQuarantine = []
    }

    /// Replaces the whole content with `items` in one transaction (reset).
    public func replaceAll(with items: [SearchableItem], reason: String, at date: Date = Date()) throws {
        try write(at: date, needsEngine: false) { _ in
            var batch = StoreBatch()
            batch.deleteEverything = true
            batch.upsertedRecords = items.map { IndexRecord(source: .item, item: $0) }
            batch.log.append(("reset", "\(items.count) items from \(reason)"))
            var next: SearchEngine?
            if loadedEngine != nil {
                next = SearchEngine(preference: preference)
                next?.index(items)
            }
            return WritePlan(batch: batch, next: next)
        }
        knownQuarantine = []
    }

    /// Records a view of `activity` and, if eligible, makes it searchable.
    @discardableResult
    public func becomeCurrent(_ activity: UserActivity, at date: Date) throws -> SearchEngine.ActivityOutcome {
        try recordView(activity, at: date, requiring: nil)!
    }

    /// Records a view of `activity` unless `item` is no longer indexed
    /// (after catching up: another process may have deleted it), as
    /// opening a result does; nil when nothing was recorded.
    @discardableResult
    public func becomeCurrent(_ activity: UserActivity, at date: Date, ifIndexed item: String) throws -> SearchEngine.ActivityOutcome? {
        try recordView(activity, at: date, requiring: item)
    }

    private func recordView(_ activity: UserActivity, at date: Date, requiring item: String?) throws -> SearchEngine.ActivityOutcome? {
        var outcome: SearchEngine.ActivityOutcome?
        try write(at: date) { _ in
            var next = self.engine
            var batch = StoreBatch()
            if let item, next.records[item] == nil {
                // Deleted meanwhile: no view of it is recorded.
                return WritePlan(batch: batch, skip: true)
            }
            let result = next.becomeCurrent(activity, at: date)
            outcome = result
            batch.engagements = [(activity.engagementIdentifier, date)]
            if result == .indexed { batch.upsertedActivities = [activity] }
            batch.replayableView = (activity, engineGeneration)
            batch.log.append(("activity", "\(activity.engagementIdentifier) became current (\(result.rawValue))"))
            return WritePlan(batch: batch, next: next)
        }
        return outcome
    }

    /// Sets the indexing preference; `disabled` deletes every activity entry.
    public func setPreference(_ preference: IndexingPreference, at date: Date = Date()) throws {
        try write(at: date) { _ in
            let engine = self.engine
            var next = engine
            next.setPreference(preference)
            var batch = StoreBatch()
            batch.preference = preference
            batch.deletedActivityIDs = engine.activities.keys.filter { next.activities[$0] == nil }.sorted()
            batch.log.append(("settings", "indexing \(preference.rawValue)"))
            return WritePlan(batch: batch, next: next)
        }
    }

    /// The log of index operations, oldest first.
    public func operationLog(limit: Int = 200) throws -> [OperationLogEntry] {
        try store.operationLog(limit: limit)
    }

    private static func sample(_ ids: [String]) -> String {
        guard !ids.isEmpty else { return "" }
        let shown = ids.prefix(3).joined(separator: ", ")
        return ": " + shown + (ids.count > 3 ? ", …" : "")
    }
}
