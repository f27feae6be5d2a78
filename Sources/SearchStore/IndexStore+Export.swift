import Foundation
import GRDB
import SearchIndex

/// Reading what is stored a chunk at a time, for `index export`: the
/// store is the truth, and a million records pass through without the
/// engine being built or the whole store held in memory.
extension IndexStore {
    /// Calls `body` with every readable record, in identifier byte order,
    /// decoded a chunk at a time on every core; unreadable rows are left
    /// out, as a load quarantines them.
    public func forEachRecord(_ body: (IndexRecord) throws -> Void) throws {
        try forEachChunkOfRecords { records in
            for record in records { try body(record) }
        }
    }

    /// Calls `body` with the readable records a chunk at a time, in
    /// identifier byte order, so that a caller can share each chunk's
    /// work among the cores too (`index export` writes it).
    public func forEachChunkOfRecords(_ body: ([IndexRecord]) throws -> Void) throws {
        try guarded {
            try queue.read { db in
                var chunk: [StoredRow] = []
                chunk.reserveCapacity(Self.decodeChunk)
                func pass() throws {
                    var records: [IndexRecord] = []
                    records.reserveCapacity(chunk.count)
                    for case .success(let record) in try Self.decodeRecords(chunk) { records.append(record) }
                    chunk.removeAll(keepingCapacity: true)
                    if !records.isEmpty { try body(records) }
                }
                let cursor = try Row.fetchCursor(
                    db, sql: "SELECT uniqueIdentifier, source, body, domainIdentifier FROM records ORDER BY uniqueIdentifier")
                while let row = try cursor.next() {
                    chunk.append(StoredRow(row))
                    if chunk.count == Self.decodeChunk { try pass() }
                }
                try pass()
            }
        }
    }

    /// Every readable activity, in identifier order.
    public func readableActivities() throws -> [UserActivity] {
        var ignored: [QuarantinedRecord] = []
        return try guarded { try queue.read { db in try Self.readActivities(db, quarantining: &ignored) } }
    }
}
