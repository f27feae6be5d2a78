import Foundation
import GRDB
import SearchIndex
import SearchSupport

/// The truth that survives restarts: items, activities, engagement events,
/// settings, batch client state and the operation log, in one SQLite file
/// (WAL mode) with a format version. Every `apply` is one transaction.
public final class IndexStore: Sendable {
    /// The format this build writes. A file with a higher one is refused; a
    /// lower one is migrated or, where no migration exists, rebuilt.
    public static let formatVersion = 2

    public let path: String?
    let queue: DatabaseQueue

    /// Where the index lives unless a path is given: `$SEARCHLIGHT_INDEX`,
    /// else `$XDG_DATA_HOME/searchlight/index.sqlite`, else
    /// `~/.local/share/searchlight/index.sqlite`. The CLI, the UI and the
    /// Core Spotlight library share it, so they share one index.
    public static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        if let path = env["SEARCHLIGHT_INDEX"], !path.isEmpty { return path }
        let base = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return (base as NSString).appendingPathComponent("searchlight/index.sqlite")
    }

    /// Whether this process may only read the store (its file or folder
    /// is not writable): every write fails with one clear error.
    public let isReadOnly: Bool

    /// Opens (creating if needed) the store at `path`, or an in-memory one;
    /// `readOnly` opens an existing file without ever writing to it.
    public init(path: String?, readOnly: Bool = false) throws {
        self.path = path
        self.isReadOnly = readOnly && path != nil
        let label = path ?? ":memory:"
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        do {
            if let path {
                if readOnly {
                    configuration.readonly = true
                    queue = try Self.openReadOnly(path, configuration)
                } else {
                    configuration.journalMode = .wal
                    queue = try DatabaseQueue(path: path, configuration: configuration)
                }
            } else {
                queue = try DatabaseQueue(configuration: configuration)
            }
            let version = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            if version > Self.formatVersion {
                throw StoreError(.newerFormat, path: label,
                                 message: "index format \(version) is newer than this build's \(Self.formatVersion)")
            }
            if !isReadOnly {
                try Self.migrator.migrate(queue)
                try Self.repairSchema(queue)
            }
            // A cheap probe of the tables; damage deeper in the file shows when
            // the records are read, and is reported the same way.
            _ = try queue.read { db in try Row.fetchAll(db, sql: "SELECT key FROM meta LIMIT 1; ") }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw Self.translate(error, path: label)
        }
    }

    /// A read-only connection. WAL mode wants a `-shm` file it may create;
    /// where it cannot, the file is opened as immutable (SQLite's URI
    /// parameter), which reads the database as it lies on disk.
    private static func openReadOnly(_ path: String, _ configuration: Configuration) throws -> DatabaseQueue {
        if let queue = try? DatabaseQueue(path: path, configuration: configuration),
           (try? queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }) != nil {
            return queue
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? absolute
        return try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
    }

    static func translate(_ error: DatabaseError, path: String) -> StoreError {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return StoreError(.corrupt, path: path, message: "the index file is damaged (\(error.message ?? "\(error.resultCode)"))")
        case .SQLITE_READONLY:
            return StoreError(.readOnly, path: path, message: "the index is read-only here (its file or folder is not writable): nothing was changed")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreError(.busy, path: path, message: "the index is busy: another searchlight is writing to it")
        default:
            return StoreError(.other, path: path, message: error.message ?? "\(error)")
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: Self.tables + "PRAGMA user_version = 1;")
        }
        // Every write draws a new generation; a snapshot of the engine is
        // valid only for the generation it was saved at (`SnapshotFile`).
        migrator.registerMigration("generation") { db in
            try db.execute(sql: "INSERT OR IGNORE INTO meta(key, value) VALUES ('generation', lower(hex(randomblob(16))))")
        }
        // Views recorded since the last batch of any other kind, each with
        // the generation it was made on: a snapshot of an older generation
        // plus these views is the current engine (`journal(from:to:)`).
        migrator.registerMigration("journal") { db in
            try db.execute(sql: Self.journalTable)
        }
        // What each write changed, for processes that follow the store
        // (`IndexStore+Changes.swift`), and who wrote each logged operation.
        migrator.registerMigration("changes") { db in
            try db.execute(sql: Self.changeTables)
            if try !db.columns(in: "operations").contains(where: { $0.name == "writer" }) {
                try db.execute(sql: "ALTER TABLE operations ADD COLUMN writer TEXT")
            }
        }
        // Bodies packed (`SearchableItem.storedBody`) instead of JSON: less
        // than half the bytes, and the run a snapshot reads its sets from
        // (`StoredRun`). Rows that cannot be read stay as they were.
        migrator.registerMigration("packed bodies") { db in
            try Self.packJSONBodies(db)
            try db.execute(sql: "PRAGMA user_version = 2")
        }
        return migrator
    }

    /// Every table of the current format. Each statement may run on a
    /// store that has some of them already: a table dropped by hand (or
    /// the migrations' own record) is made again, never fatal.
    static let tables = """
        CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS records(
            uniqueIdentifier TEXT PRIMARY KEY, source TEXT NOT NULL,
            domainIdentifier TEXT, body NOT NULL);
        CREATE INDEX IF NOT EXISTS records_domain ON records(domainIdentifier);
        CREATE TABLE IF NOT EXISTS activities(
            identifier TEXT PRIMARY KEY, relatedUniqueIdentifier TEXT, body TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS engagements(
            id INTEGER PRIMARY KEY, uniqueIdentifier TEXT NOT NULL, at REAL NOT NULL);
        CREATE INDEX IF NOT EXISTS engagements_item ON engagements(uniqueIdentifier);
        CREATE TABLE IF NOT EXISTS operations(
            id INTEGER PRIMARY KEY, at REAL NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL, writer TEXT);

        """

    static let journalTable = """
        CREATE TABLE IF NOT EXISTS journal(
            generation TEXT PRIMARY KEY, previous TEXT NOT NULL, activity TEXT NOT NULL, at REAL NOT NULL)
        """

    /// Makes again whatever table is missing, after the migrations ran.
    static func repairSchema(_ queue: DatabaseQueue) throws {
        let present = try queue.read { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        }
        let expected: Set<String> = ["meta", "records", "activities", "engagements", "operations", "journal", "generations", "changes"]
        guard !expected.isSubset(of: present) else { return }
        try queue.write { db in
            try db.execute(sql: tables + journalTable + ";" + changeTables)
            // A new generation: no snapshot of the damaged state is taken for this one.
            try db.execute(sql: """
                INSERT INTO meta(key, value) VALUES ('generation', lower(hex(randomblob(16))))
                ON CONFLICT(key) DO UPDATE SET value = excluded.value
                """)
        }
    }

    private func label() -> String { path ?? ":memory:" }

    func guarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DatabaseError {
            throw Self.translate(error, path: label())
        }
    }

    /// Reads everything back; `progress` hears the share of the records
    /// read so far, from 0 to 1.
    public func load(progress: ((Double) -> Void)? = nil) throws -> StoredState {
        try guarded { try queue.read { db in try Self.load(db, progress: progress) } }
    }

    /// Reads everything back within `db`'s transaction.
    static func load(_ db: Database, progress: ((Double) -> Void)? = nil) throws -> StoredState {
        var state = StoredState()
        // Read in storage order and sorted here (through the identifier's
        // index every row is a random page read), and decoded a chunk at a
        // time so that no chunk's JSON bodies outlive its decoding.
        var rows: [StoredRow] = []
        var records: [IndexRecord] = []
        let total = progress == nil ? 0 : try Int.fetchOne(db, sql: "SELECT count(*) FROM records") ?? 0
        try Self.readRecords(db, into: &records, rows: &rows, quarantining: &state.quarantined) { read in
            progress?(Double(read) / Double(max(total, 1)))
        }
        Self.arrange(&records, in: StoredRow.order(of: rows))
        state.records = consume records
        // Freed on another thread: the rows are many small allocations.
        releaseInBackground(consume rows)
        state.activities = try Self.readActivities(db, quarantining: &state.quarantined)
        for row in try Row.fetchAll(db, sql: "SELECT uniqueIdentifier, at FROM engagements ORDER BY id") {
            state.engagements[row["uniqueIdentifier"], default: []].append(Date(timeIntervalSince1970: row["at"]))
        }
        let meta = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, value FROM meta").map {
            (row: Row) -> (String, String) in (row["key"], row["value"])
        })
        state.preference = meta["indexingPreference"].flatMap(IndexingPreference.init(rawValue:)) ?? .viewedRecords
        state.clientState = meta["lastClientState"]
        state.generation = meta["generation"]
        return state
    }

    /// Records decoded between two releases of their bodies (`load`).
    static let decodeChunk = 65_536

    /// Reads every stored record a chunk at a time: the readable ones onto
    /// `records` with their rows, bodies let go, in `rows` (to order them
    /// by), unless `keeping` is false; the rest into `quarantined`.
    static func readRecords(
        _ db: Database, into records: inout [IndexRecord], rows: inout [StoredRow], keeping: Bool = true,
        quarantining quarantined: inout [QuarantinedRecord], progress: ((Int) -> Void)? = nil
    ) throws {
        var read = 0
        var chunk: [StoredRow] = []
        chunk.reserveCapacity(decodeChunk)
        func decodeChunkRead() throws {
            for (row, decoded) in zip(chunk, try decodeRecords(chunk)) {
                switch decoded {
                case .success(let record) where keeping:
                    records.append(record)
                    rows.append(row.withoutBody)
                case .success:
                    break
                case .failure(let problem):
                    quarantined.append(QuarantinedRecord(uniqueIdentifier: row.identifier, problem: problem.message))
                }
            }
            read += chunk.count
            progress?(read)
            chunk.removeAll(keepingCapacity: true)
        }
        let cursor = try Row.fetchCursor(db, sql: "SELECT uniqueIdentifier, source, body, domainIdentifier FROM records")
        while let row = try cursor.next() {
            chunk.append(StoredRow(row))
            if chunk.count == decodeChunk { try decodeChunkRead() }
        }
        try decodeChunkRead()
    }

    /// Every stored activity that can be read, in identifier order; the
    /// rest go to `quarantined`.
    static func readActivities(_ db: Database, quarantining quarantined: inout [QuarantinedRecord]) throws -> [UserActivity] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = StoredDate.decodingStrategy
        var activities: [UserActivity] = []
        for row in try Row.fetchAll(db, sql: "SELECT identifier, body FROM activities ORDER BY identifier") {
            let body: String = row["body"]
            do {
                activities.append(try decoder.decode(UserActivity.self, from: Data(body.utf8)))
            } catch {
                quarantined.append(QuarantinedRecord(uniqueIdentifier: row["identifier"], problem: describe(error), isActivity: true))
            }
        }
        return activities
    }

    /// Puts `records[order[k]]` at `k` for every `k`, by swaps along the
    /// permutation's cycles (a copy of each record in its new place
    /// retained and released every string and set it holds).
    static func arrange(_ records: inout [IndexRecord], in order: [Int]) {
        precondition(order.count == records.count)
        var placed = [Bool](repeating: false, count: records.count)
        for start in records.indices where !placed[start] {
            var position = start
            while order[position] != start {
                records.swapAt(position, order[position])
                placed[position] = true
                position = order[position]
            }
            placed[position] = true
        }
    }

    /// A record's body as stored: packed (`SearchableItem.storedBody`),
    /// or JSON as stores of the first format held them.
    enum StoredBody: Sendable {
        case packed(Data)
        case json(String)
    }

    /// A record as stored, its body not yet decoded.
    struct StoredRow: Sendable {
        var identifier: String
        var source: Source
        var body: StoredBody
        var domain: String?
        /// The identifier's first sixteen bytes, big-endian (zeros past its end).
        private var head: (UInt64, UInt64) = (0, 0)

        /// The row without its body (once decoded: see `IndexStore.load`).
        var withoutBody: StoredRow {
            var row = self
            row.body = .json("")
            row.domain = nil
            return row
        }

        /// A row selected as `uniqueIdentifier, source, body, domainIdentifier`.
        init(_ row: Row) {
            let body: DatabaseValue = row[2]
            let stored: StoredBody
            switch body.storage {
            case .blob(let data): stored = .packed(data)
            case .string(let text): stored = .json(text)
            default: stored = .json("")
            }
            self.init(identifier: row[0], source: Source(rawValue: row[1]) ?? .item, body: stored, domain: row[3])
        }

        init(identifier: String, source: Source, body: StoredBody, domain: String?) {
            self.identifier = identifier
            self.source = source
            self.body = body
            self.domain = domain
            for (offset, byte) in identifier.utf8.prefix(16).enumerated() {
                if offset < 8 { head.0 |= UInt64(byte) << (56 - 8 * offset) } else { head.1 |= UInt64(byte) << (120 - 8 * offset) }
            }
        }

        /// Positions of `rows` in their identifiers' byte order, as SQLite's
        /// `ORDER BY` gave them. Sorted as plain numbers, the heads and
        /// the position, most comparisons never reach a string (sorting
        /// the rows themselves retained and released each one's strings
        /// at every comparison: as long as reading them).
        static func order(of rows: [StoredRow]) -> [Int] {
            var keys = rows.indices.map { (head: rows[$0].head, position: $0) }
            keys.sort { a, b in
                if a.head != b.head { return a.head < b.head }
                return rows[a.position].identifier.utf8.lexicographicallyPrecedes(rows[b.position].identifier.utf8)
            }
            return keys.map(\.position)
        }
    }

    /// Why one stored record could not be read.
    struct UnreadableRecord: Error {
        var message: String
    }

    /// Decodes stored records on every core (JSON decoding is most of the
    /// time a store takes to read); a record that cannot be read is a
    /// failure of its own, never the whole load's.
    static func decodeRecords(_ rows: [StoredRow]) throws -> [Result<IndexRecord, UnreadableRecord>] {
        try ParallelWork.map(rows[...], minimum: 4_096) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = StoredDate.decodingStrategy
            var domains = StringInterner()
            return { row in
                do {
                    var item: SearchableItem
                    switch row.body {
                    case .packed(let data):
                        let decoded = data.withUnsafeBytes {
                            SearchableItem(storedBody: $0, uniqueIdentifier: row.identifier, domainIdentifier: row.domain)
                        }
                        guard let decoded else { return .failure(UnreadableRecord(message: "its packed body does not decode")) }
                        item = decoded
                    case .json(var body):
                        let plain = body.withUTF8(SearchableItem.init(plainJSON:))
                        item = try plain ?? decoder.decode(SearchableItem.self, from: Data(body.utf8))
                    }
                    guard item.uniqueIdentifier == row.identifier else {
                        return .failure(UnreadableRecord(message: "its body names another identifier"))
                    }
                    item.domainIdentifier = domains.intern(item.domainIdentifier)
                    return .success(IndexRecord(source: row.source, item: item))
                } catch {
                    return .failure(UnreadableRecord(message: Self.describe(error)))
                }
            }
        }
    }

    /// One line for a decoding failure: the field and what was wrong.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (field.isEmpty ? "" : field + ": ") + context.debugDescription
        case .keyNotFound(let key, let context):
            return (context.codingPath + [key]).map(\.stringValue).joined(separator: ".") + ": missing"
        @unknown default:
            return "\(error)"
        }
    }

    /// Each record's stored body (`SearchableItem.storedBody`), made on
    /// every core for a large batch.
    static func encodeRecords(_ records: ArraySlice<IndexRecord>) throws -> [Data] {
        try ParallelWork.map(records, minimum: 4_096) {
            { record in Data(record.item.storedBody) }
        }
    }

    /// The encoder of stored activities and journaled views (records are packed: `SearchableItem.storedBody`).
    static func recordEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = StoredDate.encodingStrategy
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The views to replay, oldest first, on an engine of generation
    /// `older` to make the engine of generation `current`: nil when the
    /// journal does not lead from one to the other (a batch of another
    /// kind came between) or holds more than `limit` views. Each view is
    /// read back as a rebuild reads the stored ones (the same JSON, its
    /// date from the same column type).
    public func journal(from older: String, to current: String, limit: Int) throws -> [(activity: UserActivity, date: Date)]? {
        guard older != current else { return [] }
        return try guarded {
            try queue.read { db in
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = StoredDate.decodingStrategy
                var views: [(activity: UserActivity, date: Date)] = []
                var generation = current
                while generation != older {
                    guard views.count < limit, let row = try Row.fetchOne(
                        db, sql: "SELECT previous, activity, at FROM journal WHERE generation = ?", arguments: [generation])
                    else { return nil }
                    let body: String = row["activity"]
                    guard let activity = try? decoder.decode(UserActivity.self, from: Data(body.utf8)) else { return nil }
                    views.append((activity, Date(timeIntervalSince1970: row["at"])))
                    generation = row["previous"]
                }
                return views.reversed()
            }
        }
    }

    /// The preference and client state, without reading any record.
    public func meta() throws -> (preference: IndexingPreference, clientState: String?) {
        try guarded { try queue.read { db in try Self.meta(in: db) } }
    }

    static func meta(in db: Database) throws -> (preference: IndexingPreference, clientState: String?) {
        let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM meta")
        var values: [String: String] = [:]
        for row in rows { values[row["key"]] = row["value"] }
        return (values["indexingPreference"].flatMap(IndexingPreference.init(rawValue:)) ?? .viewedRecords,
                values["lastClientState"])
    }

    /// The store's current generation: it changes with every write.
    public func generation() throws -> String? {
        try guarded { try queue.read { db in try Self.generation(in: db) } }
    }

    static func generation(in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'generation'")
    }

    /// Stored records, by source.
    public func recordCounts() throws -> [String: Int] {
        try guarded {
            try queue.read { db in
                var counts: [String: Int] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT source, COUNT(*) AS n FROM records GROUP BY source") {
                    counts[row["source"]] = row["n"]
                }
                return counts
            }
        }
    }

    /// SQLite's own check of the whole file: "ok" when it is sound.
    public func integrityCheck() throws -> String {
        try guarded { try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") } }
    }

    /// How many of `identifiers` are stored already.
    public func existingRecordCount(among identifiers: [String]) throws -> Int {
        try guarded { try queue.read { db in try Self.existingRecordCount(among: identifiers, in: db) } }
    }

    static func existingRecordCount(among identifiers: [String], in db: Database) throws -> Int {
        // An empty store (a first import) holds none: the batch is not written out for SQLite to join.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM records)") == true else { return 0 }
        // One statement for the whole batch: the identifiers go in as a
        // JSON array and SQLite joins them against the primary key.
        return try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM json_each(?) AS asked JOIN records ON records.uniqueIdentifier = asked.value
            """, arguments: [jsonList(identifiers)]) ?? 0
    }

    /// `values` as a JSON array, for `json_each(?)`. Written byte by byte:
    /// a coder would look up each value's type, for a batch of a million.
    static func jsonList(_ values: some Collection<String>) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONStringWriter.append(value, to: &bytes, escapingControls: true)
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Rows of the store that a load would leave out, found without
    /// building an engine (for `index stats` and `index lint` when the
    /// engine came from a snapshot).
    public func unreadableRecords() throws -> [QuarantinedRecord] {
        try guarded {
            try queue.read { db in
                var found: [QuarantinedRecord] = []
                var records: [IndexRecord] = [], rows: [StoredRow] = []
                try Self.readRecords(db, into: &records, rows: &rows, keeping: false, quarantining: &found)
                _ = try Self.readActivities(db, quarantining: &found)
                return found
            }
        }
    }

    /// How many records and activities are stored, whether readable or not.
    public func rowCounts() throws -> (records: Int, activities: Int) {
        try guarded {
            try queue.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM records") ?? 0,
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM activities") ?? 0)
            }
        }
    }

    /// Identifiers of the stored activities.
    public func activityIdentifiers() throws -> [String] {
        try guarded { try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM activities ORDER BY identifier") } }
    }

    /// Writes one batch in one transaction: all of it or none of it.
    /// Returns the generation the store had before and the one it has now.
    @discardableResult
    public func apply(_ batch: StoreBatch, at date: Date = Date()) throws -> (previous: String?, current: String) {
        try writing { transaction in try transaction.apply(batch, at: date) }
    }

    /// Writes `batch` within `db`'s transaction.
    static func apply(_ batch: StoreBatch, at date: Date, in db: Database) throws -> (previous: String?, current: String) {
        let encoder = Self.recordEncoder()
        let previous = try Self.generation(in: db)
        let current = UUID().uuidString.lowercased()
        try Self.setMeta(db, "generation", current)
        if batch.deleteEverything {
            try db.execute(sql: "DELETE FROM records; DELETE FROM activities; DELETE FROM engagements;")
        }
        for id in batch.deletedRecordIDs {
            try db.execute(sql: "DELETE FROM records WHERE uniqueIdentifier = ?", arguments: [id])
        }
        for domain in batch.deletedDomains {
            try db.execute(sql: """
                DELETE FROM records WHERE domainIdentifier = ?1
                    OR substr(domainIdentifier, 1, length(?1) + 1) = ?1 || '.'
                """, arguments: [domain])
        }
        for id in batch.deletedActivityIDs {
            try db.execute(sql: "DELETE FROM activities WHERE identifier = ?", arguments: [id])
        }
        for id in batch.deletedEngagementIDs {
            try db.execute(sql: "DELETE FROM engagements WHERE uniqueIdentifier = ?", arguments: [id])
        }
        let upsert = try db.makeStatement(sql: """
            INSERT INTO records(uniqueIdentifier, source, domainIdentifier, body) VALUES (?, ?, ?, ?)
            ON CONFLICT(uniqueIdentifier) DO UPDATE SET
                source = excluded.source, domainIdentifier = excluded.domainIdentifier, body = excluded.body
            """)
        // A chunk's bodies at a time: all of a large import's at once
        // would hold its whole JSON in memory.
        for start in stride(from: 0, to: batch.upsertedRecords.count, by: 16_384) {
            let chunk = batch.upsertedRecords[start..<min(start + 16_384, batch.upsertedRecords.count)]
            for (record, body) in zip(chunk, try Self.encodeRecords(chunk)) {
                try upsert.execute(arguments: [record.item.uniqueIdentifier, record.source.rawValue,
                                               record.item.domainIdentifier, body])
            }
        }
        for activity in batch.upsertedActivities {
            let body = String(decoding: try encoder.encode(activity), as: UTF8.self)
            try db.execute(sql: """
                INSERT INTO activities(identifier, relatedUniqueIdentifier, body) VALUES (?, ?, ?)
                ON CONFLICT(identifier) DO UPDATE SET
                    relatedUniqueIdentifier = excluded.relatedUniqueIdentifier, body = excluded.body
                """, arguments: [activity.identifier, activity.relatedUniqueIdentifier, body])
        }
        for (id, at) in batch.engagements {
            try db.execute(sql: "INSERT INTO engagements(uniqueIdentifier, at) VALUES (?, ?)",
                           arguments: [id, at.timeIntervalSince1970])
        }
        if let view = batch.replayableView, let previous, view.basedOn == previous {
            let body = String(decoding: try encoder.encode(view.activity), as: UTF8.self)
            try db.execute(sql: "INSERT INTO journal(generation, previous, activity, at) VALUES (?, ?, ?, ?)",
                           arguments: [current, previous, body, date.timeIntervalSince1970])
            // Kept bounded: a load replays fewer than this many views.
            try db.execute(sql: "DELETE FROM journal WHERE rowid <= (SELECT MAX(rowid) FROM journal) - 1024")
        } else {
            try db.execute(sql: "DELETE FROM journal")
        }
        if let preference = batch.preference {
            try Self.setMeta(db, "indexingPreference", preference.rawValue)
        }
        if let clientState = batch.clientState {
            try Self.setMeta(db, "lastClientState", clientState)
        }
        for (kind, detail) in batch.log {
            try db.execute(sql: "INSERT INTO operations(at, kind, detail, writer) VALUES (?, ?, ?, ?)",
                           arguments: [date.timeIntervalSince1970, kind, detail, Self.writerName])
        }
        // Keep the log bounded.
        try db.execute(sql: "DELETE FROM operations WHERE id <= (SELECT MAX(id) FROM operations) - 5000")
        try recordChanges(of: batch, from: previous, to: current, at: date, in: db)
        return (previous, current)
    }

    private static func setMeta(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       arguments: [key, value])
    }

    /// The newest operations, oldest first.
    public func operationLog(limit: Int = 200) throws -> [OperationLogEntry] {
        try guarded {
            try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT at, kind, detail, writer FROM operations ORDER BY id DESC LIMIT ?", arguments: [limit])
                    .map { OperationLogEntry(date: Date(timeIntervalSince1970: $0["at"]), kind: $0["kind"], detail: $0["detail"], writer: $0["writer"]) }
                    .reversed()
            }
        }
    }

    /// Size of the store on disk (database and WAL), in bytes.
    public func fileSize() -> Int {
        guard let path else { return 0 }
        return [path, path + "-wal"].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
        }
    }
}

extension IndexStore {
    /// Runs raw SQL; for tests that need to damage or age a store.
    package func executeForTesting(_ sql: String) throws {
        try queue.write { db in try db.execute(sql: sql) }
    }
}
