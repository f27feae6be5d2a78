import Foundation
import GRDB
import SearchIndex

/// The second format's migration: records' bodies packed
/// (`SearchableItem.storedBody`) where the first format kept JSON.
extension IndexStore {
    /// Rewrites every readable JSON body of the first format as a packed
    /// one, a chunk at a time.
    static func packJSONBodies(_ db: Database) throws {
        let update = try db.makeStatement(sql: "UPDATE records SET body = ? WHERE uniqueIdentifier = ?")
        var lastIdentifier = ""
        while true {
            let rows = try Row.fetchAll(db, sql: """
                SELECT uniqueIdentifier, source, body, domainIdentifier FROM records
                WHERE typeof(body) = 'text' AND uniqueIdentifier > ? ORDER BY uniqueIdentifier LIMIT ?
                """, arguments: [lastIdentifier, decodeChunk]).map(StoredRow.init)
            guard let last = rows.last else { return }
            lastIdentifier = last.identifier
            for case .success(let record) in try decodeRecords(rows) {
                try update.execute(arguments: [Data(record.item.storedBody), record.item.uniqueIdentifier])
            }
        }
    }
}
