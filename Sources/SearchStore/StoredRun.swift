import Foundation
import GRDB
import GRDBSQLite
import SearchIndex
import SearchSnapshot

/// The run of sets a snapshot reads its records' attribute sets from: the
/// store's packed bodies, each from its record word on, end to end in
/// row order. The records are on disk once, in the store; the snapshot
/// keeps only where each set lies in this run (`SearchEngine.SetPlace`).
///
/// ```
///  rows (rowid order)   [hdr│word│set₁] [hdr│word│set₂] [JSON] [hdr│word│set₃] …
///  run                       [word│set₁][word│set₂]             [word│set₃] …
/// ```
///
/// Only rows whose body is a blob of more than a header take part, the
/// same rule for the writer of a snapshot and its reader, so a store
/// unchanged since (the snapshot's generation is its current one) lays
/// out the same run. Its length and checksum, kept in the snapshot's
/// header, make sure of it.
struct StoredRun {
    var places: [String: SearchEngine.SetPlace] = [:]
    var length = 0
    var checksum: UInt64 = 0

    /// The rows of the run, in its order.
    static let rows = "SELECT uniqueIdentifier, body FROM records WHERE typeof(body) = 'blob' AND length(body) > ? ORDER BY rowid"
    static let entryOffset = SearchableItem.storedBodyHeaderSize

    /// Where each record's set lies in the store's run, for a snapshot
    /// about to be written; `expecting` about as many records (room made
    /// once, not grown and rehashed step by step).
    static func layout(of store: IndexStore, expecting count: Int = 0) throws -> StoredRun {
        var run = StoredRun()
        run.places.reserveCapacity(count)
        var sum = SnapshotChecksum()
        _ = try forEachEntry(in: store) { identifier, entry in
            sum.update(entry)
            run.places[identifier()] = SearchEngine.SetPlace(start: run.length, count: entry.count - SearchableItem.storedBodyWordSize)
            run.length += entry.count
            return true
        }
        run.checksum = sum.value
        return run
    }

    /// The store's run, read into memory, when it is `length` bytes long
    /// and sums to `checksum`; nil when the store's rows lay out another.
    static func read(from store: IndexStore, length: Int, checksum: UInt64) throws -> RunBuffer? {
        let buffer = RunBuffer(count: length)
        var filled = 0
        var sum = SnapshotChecksum()
        let fits = try forEachEntry(in: store) { _, entry in
            guard entry.count <= length - filled else { return false }
            UnsafeMutableRawBufferPointer(rebasing: buffer.bytes[filled...]).copyMemory(from: entry)
            sum.update(entry)
            filled += entry.count
            return true
        }
        guard fits, filled == length, sum.value == checksum else { return nil }
        return buffer
    }

    /// Calls `body` with each row's identifier (made only if asked) and its
    /// run entry, in run order, through SQLite's C API: a row object and a
    /// `Data` for each of a million rows were most of the read. Returns
    /// false as soon as `body` does.
    private static func forEachEntry(
        in store: IndexStore, _ body: (_ identifier: () -> String, _ entry: UnsafeRawBufferPointer) -> Bool
    ) throws -> Bool {
        try store.guarded {
            try store.queue.read { db in
                let statement = try db.makeStatement(sql: rows)
                try statement.setArguments([entryOffset + SearchableItem.storedBodyWordSize])
                let handle = statement.sqliteStatement
                while true {
                    let code = sqlite3_step(handle)
                    if code == SQLITE_DONE { return true }
                    guard code == SQLITE_ROW else {
                        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                    }
                    // The pointer first, then its length (SQLite's order).
                    guard let start = sqlite3_column_blob(handle, 1) else { continue }
                    let count = Int(sqlite3_column_bytes(handle, 1))
                    guard count > entryOffset else { continue }
                    let entry = UnsafeRawBufferPointer(start: start + entryOffset, count: count - entryOffset)
                    let identifier = {
                        guard let text = sqlite3_column_text(handle, 0) else { return "" }
                        let length = Int(sqlite3_column_bytes(handle, 0))
                        return String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
                    }
                    if !body(identifier, entry) { return false }
                }
            }
        }
    }
}

/// Memory that holds a store's run of sets while an engine reads its sets
/// from it (each window over it keeps it).
final class RunBuffer: @unchecked Sendable {
    // Written only while the run is read in, before any engine sees it.
    let bytes: UnsafeMutableRawBufferPointer

    init(count: Int) {
        bytes = .allocate(byteCount: max(count, 1), alignment: 16)
    }

    deinit { bytes.deallocate() }
}
