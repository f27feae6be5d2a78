import Foundation
import GRDB

/// Carries what SQLite can still read of a damaged store into a new one,
/// table by table, so a damaged page costs the rows on it and not the index.
enum StoreSalvage {
    /// Rows read per statement: a damaged page fails only its own chunk.
    static let chunk = 512

    /// Copies every readable row of `path`'s tables into `store`, in one
    /// transaction; returns how many records came over (0 when the file
    /// cannot be opened at all).
    static func copy(from path: String, into store: IndexStore) -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        guard let broken = try? DatabaseQueue(path: path, configuration: configuration) else { return 0 }
        let tables: [(name: String, columns: String)] = [
            ("records", "uniqueIdentifier, source, domainIdentifier, body"),
            ("activities", "identifier, relatedUniqueIdentifier, body"),
            ("engagements", "uniqueIdentifier, at"),
            ("operations", "at, kind, detail"),
        ]
        var copied: [String: [[DatabaseValue]]] = [:]
        for table in tables { copied[table.name] = readable(table.name, columns: table.columns, in: broken) }
        let meta = readable("meta", columns: "key, value", in: broken)
        let records = copied["records"]?.count ?? 0
        guard records > 0 else { return 0 }
        do {
            try store.queue.write { db in
                for table in tables {
                    let marks = table.columns.split(separator: ",").map { _ in "?" }.joined(separator: ", ")
                    let insert = try db.makeStatement(sql: "INSERT OR REPLACE INTO \(table.name)(\(table.columns)) VALUES (\(marks))")
                    for values in copied[table.name] ?? [] { try insert.execute(arguments: StatementArguments(values)) }
                }
                for values in meta where values.count == 2 && String.fromDatabaseValue(values[0]) != "generation" {
                    try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", arguments: StatementArguments(values))
                }
                try db.execute(sql: "INSERT INTO operations(at, kind, detail) VALUES (?, 'salvaged', ?)",
                               arguments: [Date().timeIntervalSince1970, "\(records) records from \(path)"])
            }
        } catch {
            return 0
        }
        return records
    }

    /// The rows of `table` that can be read, in rowid order, skipping
    /// chunks that fail; empty when the table cannot be read at all.
    private static func readable(_ table: String, columns: String, in queue: DatabaseQueue) -> [[DatabaseValue]] {
        var rows: [[DatabaseValue]] = []
        var after: Int64 = .min
        var failures = 0
        while failures < 64 {
            let read = try? queue.read { db in
                try Row.fetchAll(db, sql: "SELECT rowid, \(columns) FROM \(table) WHERE rowid > ? ORDER BY rowid LIMIT \(chunk)",
                                 arguments: [after])
            }
            guard let read else {
                // A damaged page: step past the chunk it may hold.
                failures += 1
                guard after != .min else { return rows }
                after += Int64(chunk)
                continue
            }
            guard let last = read.last else { return rows }
            failures = 0
            after = last[0]
            rows += read.map { Array($0.databaseValues.dropFirst()) }
        }
        return rows
    }
}
