import Foundation
import SearchIndex
import SearchStore

/// Counts by domain and by source, sizes and the format version.
struct IndexStatistics {
    var results: Int
    var expired: Int
    var byDomain: [String: Int]
    var bySource: [String: Int]
    var engagements: Int
    var storeBytes: Int
    /// The engine's snapshot beside the store (see README, Speed).
    var snapshotBytes: Int
    var preference: IndexingPreference
    var lastClientState: String?
    var path: String
    /// Stored rows that cannot be read back, left out of search.
    var quarantined: [QuarantinedRecord]
    /// The process that wrote last: the CLI, the UI or a program through the library.
    var lastWriter: String?

    /// Whether the counts came from the snapshot's summary (no engine loaded).
    var fromSummary: Bool

    /// Counts from the summary `index` keeps beside the store when it is
    /// current; else from the engine, loaded for them.
    init(_ index: PersistentIndex, now: Date) throws {
        let saved = try index.currentSummary()
        let summary = try saved ?? IndexSummary(index.loadEngine())
        fromSummary = saved != nil
        results = summary.results
        expired = summary.expired(at: now)
        byDomain = summary.byDomain
        bySource = summary.bySource
        engagements = summary.engagements
        storeBytes = index.store.fileSize()
        snapshotBytes = index.snapshotFileSize()
        preference = index.preference
        lastClientState = index.lastClientState
        path = index.store.path ?? ":memory:"
        if saved != nil {
            // Every stored row was readable when the summary was made; a
            // count that differs now means some are not.
            let rows = try index.store.rowCounts()
            quarantined = rows == (summary.records, summary.activities) ? [] : try index.store.unreadableRecords()
        } else {
            quarantined = (try? index.quarantinedRecords()) ?? []
        }
        lastWriter = (try? index.store.lastWriter())?.map { "\($0.writer) at \(StoredDate.format($0.date))" }
    }

    var jsonObject: [String: Any] {
        [
            "results": results, "expired": expired, "byDomain": byDomain, "bySource": bySource,
            "engagements": engagements, "storeBytes": storeBytes, "snapshotBytes": snapshotBytes, "snapshotCurrent": fromSummary,
            "formatVersion": IndexStore.formatVersion,
            "indexingPreference": preference.rawValue, "lastClientState": lastClientState ?? NSNull(), "path": path,
            "quarantined": quarantined.map { ["uniqueIdentifier": $0.uniqueIdentifier, "problem": $0.problem] },
            "lastWriter": lastWriter ?? NSNull(),
        ]
    }

    var lines: [String] {
        let snapshot = "snapshot \(snapshotBytes) bytes\(fromSummary ? "" : snapshotBytes > 0 ? ", out of date" : "")"
        var out = ["index \(path) (format \(IndexStore.formatVersion), \(storeBytes) bytes, \(snapshot))",
                   "results \(results)\(expired > 0 ? " (\(expired) expired)" : "")",
                   "by source:"]
        for source in Source.allCases { out.append("  \(source.rawValue) \(bySource[source.rawValue] ?? 0)") }
        out.append("by domain:")
        for domain in byDomain.keys.sorted() { out.append("  \(Output.safe(domain)) \(byDomain[domain]!)") }
        out.append("engagements \(engagements)")
        out.append("indexing \(preference.rawValue)")
        if let lastClientState { out.append("last client state \(Output.safe(lastClientState))") }
        if let lastWriter { out.append("last written by \(Output.safe(lastWriter))") }
        if !quarantined.isEmpty {
            out.append("unreadable \(quarantined.count) (kept in the store, left out of search; 'index lint' lists them)")
        }
        return out
    }
}
