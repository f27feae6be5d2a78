import Foundation
import GRDB
import SearchIndex

/// The change log: what each write touched, keyed by its generation, so a
/// process holding an engine in memory catches up with other writers by
/// re-reading only the rows they touched.
///
///     generations                         changes
///     seq │ generation │ writer │ wide    seq │ kind     │ key
///     ────┼────────────┼────────┼─────    ────┼──────────┼─────────────
///      41 │ 9f0c…      │ ui     │ 0        42 │ record   │ show/6
///      42 │ 1b7e…      │ cli    │ 0        42 │ domain   │ com.example.tv
///      43 │ c2d4…      │ cli    │ 1        42 │ engagement│ show/6
///
/// A follower at generation 41 reads the changes of every later `seq`
/// and the current rows of the keys they name. Invariants: a generation
/// is listed only with all of its changes, or as `wide` (too many keys to
/// list) with none; pruning removes whole generations from the oldest; a
/// follower whose generation is not listed, or that would cross a wide
/// one, rebuilds its engine instead.
extension IndexStore {
    /// This process as the store's log names it: set once at start by
    /// the executable (`searchlight index import · pid 42`).
    nonisolated(unsafe) public static var writerName = "\(ProcessInfo.processInfo.processName) · pid \(getpid())"

    /// Keys one write lists at most; a larger write is marked wide.
    public static let changeListLimit = 20_000
    /// Change rows kept; older generations are forgotten whole.
    static let changeRowsKept = 100_000
    /// Generations kept, however small.
    static let generationsKept = 2_000

    static let changeTables = """
        CREATE TABLE IF NOT EXISTS generations(
            seq INTEGER PRIMARY KEY AUTOINCREMENT, generation TEXT NOT NULL UNIQUE,
            writer TEXT NOT NULL, at REAL NOT NULL, wide INTEGER NOT NULL, total INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS changes(seq INTEGER NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS changes_seq ON changes(seq);
        """

    /// What kind of row a change key names.
    enum ChangeKind: String {
        case record, domain, everything, activity, engagement, preference
    }

    /// Lists what `batch` touched under generation `current`, and prunes.
    static func recordChanges(of batch: StoreBatch, from previous: String?, to current: String, at date: Date, in db: Database) throws {
        // Counted before listed: a large import is marked wide without a
        // list of its keys ever being made.
        let count = batch.deletedRecordIDs.count + batch.upsertedRecords.count + batch.deletedDomains.count
            + batch.deletedActivityIDs.count + batch.upsertedActivities.count + batch.engagements.count
            + batch.deletedEngagementIDs.count + (batch.preference == nil ? 0 : 1) + (batch.deleteEverything ? 1 : 0)
        var keys: [(ChangeKind, String)] = []
        if count <= changeListLimit { keys = changeKeys(of: batch) }
        let wide = count > changeListLimit
        let lastTotal = try Int.fetchOne(db, sql: "SELECT total FROM generations ORDER BY seq DESC LIMIT 1") ?? 0
        if let previous, try Int.fetchOne(db, sql: "SELECT 1 FROM generations WHERE generation = ?", arguments: [previous]) == nil {
            // The first write since the log began (or was pruned empty):
            // the generation before it becomes a known starting point.
            try db.execute(sql: "INSERT INTO generations(generation, writer, at, wide, total) VALUES (?, '', 0, 0, ?)",
                           arguments: [previous, lastTotal])
        }
        let total = lastTotal + (wide ? 0 : keys.count)
        try db.execute(sql: "INSERT INTO generations(generation, writer, at, wide, total) VALUES (?, ?, ?, ?, ?)",
                       arguments: [current, writerName, date.timeIntervalSince1970, wide ? 1 : 0, total])
        let seq = db.lastInsertedRowID
        if !wide {
            let insert = try db.makeStatement(sql: "INSERT INTO changes(seq, kind, key) VALUES (?, ?, ?)")
            for (kind, key) in keys { try insert.execute(arguments: [seq, kind.rawValue, key]) }
        }
        try db.execute(sql: """
            DELETE FROM generations WHERE seq <= ?1 - ?2 OR total < ?3 - ?4;
            DELETE FROM changes WHERE seq < (SELECT MIN(seq) FROM generations);
            """, arguments: [seq, generationsKept, total, changeRowsKept])
    }

    /// Every key `batch` touches (a view's identifier once).
    private static func changeKeys(of batch: StoreBatch) -> [(ChangeKind, String)] {
        var keys: [(ChangeKind, String)] = []
        if batch.deleteEverything { keys.append((.everything, "")) }
        keys += batch.deletedRecordIDs.map { (.record, $0) }
        keys += batch.upsertedRecords.map { (.record, $0.item.uniqueIdentifier) }
        keys += batch.deletedDomains.map { (.domain, $0) }
        keys += batch.deletedActivityIDs.map { (.activity, $0) }
        keys += batch.upsertedActivities.map { (.activity, $0.identifier) }
        keys += Set(batch.engagements.map(\.identifier) + batch.deletedEngagementIDs).map { (.engagement, $0) }
        if let preference = batch.preference { keys.append((.preference, preference.rawValue)) }
        return keys
    }

    /// Who wrote last (`writerName`: `searchlight index import · pid 42`, a
    /// program through the library by its executable's name), and when;
    /// nil before any write was logged.
    public func lastWriter() throws -> (writer: String, date: Date)? {
        try guarded {
            try queue.read { db in
                try Row.fetchOne(db, sql: "SELECT writer, at FROM generations WHERE writer != '' ORDER BY seq DESC LIMIT 1")
                    .map { ($0["writer"], Date(timeIntervalSince1970: $0["at"])) }
            }
        }
    }

    /// Runs `body` in one write transaction, begun at once (`IMMEDIATE`),
    /// so what it reads is the latest state and no other writer comes
    /// between its reads and its write.
    public func writing<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try guarded {
            try queue.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(StoreTransaction(db: db))
                    return .commit
                }
                return result!
            }
        }
    }

    /// What changed since `generation`, read in one transaction.
    public func changes(since generation: String) throws -> ChangeFeed {
        try guarded { try queue.read { db in try Self.changes(since: generation, in: db) } }
    }

    static func changes(since generation: String, in db: Database) throws -> ChangeFeed {
        guard let current = try Self.generation(in: db) else { return .tooFar }
        guard current != generation else { return .current }
        guard let start = try Int64.fetchOne(db, sql: "SELECT seq FROM generations WHERE generation = ?", arguments: [generation])
        else { return .tooFar }
        let later = try Row.fetchAll(db, sql: "SELECT writer, wide FROM generations WHERE seq > ? ORDER BY seq", arguments: [start])
        guard !later.isEmpty, !later.contains(where: { ($0["wide"] as Int) != 0 }) else { return .tooFar }
        var changes = StoreChanges(generation: current)
        changes.writers = later.map { $0["writer"] as String }
        var records = Set<String>(), activities = Set<String>(), engagements = Set<String>()
        for row in try Row.fetchAll(db, sql: "SELECT kind, key FROM changes WHERE seq > ?", arguments: [start]) {
            let key: String = row["key"]
            switch ChangeKind(rawValue: row["kind"]) {
            case .record?: records.insert(key)
            case .domain?: changes.deletedDomains.append(key)
            case .activity?: activities.insert(key)
            case .engagement?: engagements.insert(key)
            case .preference?: break
            case .everything?, nil: return .tooFar
            }
        }
        try readCurrentRows(records: records, activities: activities, engagements: engagements, into: &changes, db)
        (changes.preference, changes.clientState) = try meta(in: db)
        return .changes(changes)
    }

    /// The rows the changes name, as the store holds them now.
    private static func readCurrentRows(
        records: Set<String>, activities: Set<String>, engagements: Set<String>, into changes: inout StoreChanges, _ db: Database
    ) throws {
        var rows: [StoredRow] = []
        for row in try Row.fetchAll(db, sql: """
            SELECT uniqueIdentifier, source, body, domainIdentifier FROM records WHERE uniqueIdentifier IN (SELECT value FROM json_each(?))
            """, arguments: [jsonList(records)]) {
            rows.append(StoredRow(row))
        }
        changes.records = Dictionary(uniqueKeysWithValues: records.map { ($0, nil) })
        for (row, decoded) in zip(rows, try decodeRecords(rows)) {
            switch decoded {
            case .success(let record): changes.records[row.identifier] = record
            case .failure: changes.unreadable += 1
            }
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = StoredDate.decodingStrategy
        changes.activities = Dictionary(uniqueKeysWithValues: activities.map { ($0, nil) })
        for row in try Row.fetchAll(db, sql: """
            SELECT identifier, body FROM activities WHERE identifier IN (SELECT value FROM json_each(?))
            """, arguments: [jsonList(activities)]) {
            let body: String = row["body"]
            if let activity = try? decoder.decode(UserActivity.self, from: Data(body.utf8)) {
                changes.activities[row["identifier"]] = activity
            } else {
                changes.unreadable += 1
            }
        }
        changes.engagements = Dictionary(uniqueKeysWithValues: engagements.map { ($0, []) })
        for row in try Row.fetchAll(db, sql: """
            SELECT uniqueIdentifier, at FROM engagements WHERE uniqueIdentifier IN (SELECT value FROM json_each(?)) ORDER BY id
            """, arguments: [jsonList(engagements)]) {
            changes.engagements[row["uniqueIdentifier"], default: []].append(Date(timeIntervalSince1970: row["at"]))
        }
    }
}

/// What other writers did since a generation, as far as the change log
/// reaches back.
public enum ChangeFeed: Sendable {
    /// Nothing was written since.
    case current
    /// The rows touched since, as they are now.
    case changes(StoreChanges)
    /// The log does not reach back, or a write was too large to list:
    /// only reading everything again catches up.
    case tooFar
}

/// Every row other writers touched since a generation, in its current
/// state: applying them to an engine of that generation gives the engine
/// of `generation`.
public struct StoreChanges: Sendable {
    /// The store's generation these changes lead to.
    public var generation: String
    /// Touched records: the current one, or nil when it is gone (or unreadable).
    public var records: [String: IndexRecord?] = [:]
    /// Domains deleted, hierarchically, among the changes.
    public var deletedDomains: [String] = []
    /// Touched activities: the current one, or nil when it is gone.
    public var activities: [String: UserActivity?] = [:]
    /// Every view now stored for each touched engagement identifier.
    public var engagements: [String: [Date]] = [:]
    public var preference: IndexingPreference = .viewedRecords
    public var clientState: String?
    /// Who wrote each generation since, oldest first (`IndexStore.writerName`).
    public var writers: [String] = []
    /// Touched rows that could not be read back (left out, as a load would).
    public var unreadable = 0

    public init(generation: String) {
        self.generation = generation
    }
}

/// One write transaction (`IndexStore.writing`): its reads see the latest
/// state, and its write is applied on top of it.
public struct StoreTransaction {
    let db: Database

    /// The store's generation, inside this transaction.
    public func generation() throws -> String? {
        try IndexStore.generation(in: db)
    }

    /// What changed since `generation`, inside this transaction.
    public func changes(since generation: String) throws -> ChangeFeed {
        try IndexStore.changes(since: generation, in: db)
    }

    /// Everything the store holds, inside this transaction.
    public func load() throws -> StoredState {
        try IndexStore.load(db)
    }

    /// How many of `identifiers` are stored already.
    public func existingRecordCount(among identifiers: [String]) throws -> Int {
        try IndexStore.existingRecordCount(among: identifiers, in: db)
    }

    /// Writes `batch`; returns the generation before and the one after.
    @discardableResult
    public func apply(_ batch: StoreBatch, at date: Date) throws -> (previous: String?, current: String) {
        try IndexStore.apply(batch, at: date, in: db)
    }
}

extension StoreTransaction {
    /// Identifiers of the stored activities.
    public func activityIdentifiers() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT identifier FROM activities ORDER BY identifier")
    }

    /// The preference and client state, inside this transaction.
    public func meta() throws -> (preference: IndexingPreference, clientState: String?) {
        try IndexStore.meta(in: db)
    }
}
