import Foundation
import SearchIndex

/// What `index stats` reports, counted once when the snapshot is saved
/// and kept in its header, so that stats of a million items need not load
/// the engine to count them again.
public struct IndexSummary: Codable, Sendable, Equatable {
    /// Documents the index can return (before expiration).
    public var results: Int
    public var byDomain: [String: Int]
    public var bySource: [String: Int]
    public var engagements: Int
    /// Readable rows of each table, to tell whether any stored row is unreadable.
    public var records: Int
    public var activities: Int
    /// When each record and activity that expires does, in seconds since
    /// 1970, sorted: how many have expired depends on the moment asked.
    public var expirations: [Double]

    public init(_ engine: SearchEngine) {
        results = engine.documentCount
        let counts = engine.counts
        var domains = counts.byDomain
        if !engine.activities.isEmpty { domains["(activities)"] = engine.activities.count }
        (byDomain, bySource) = (domains, counts.bySource)
        expirations = counts.expirations.map(\.timeIntervalSince1970).sorted()
        engagements = engine.engagements.values.reduce(0) { $0 + $1.count }
        records = engine.records.count
        activities = engine.activities.count
    }

    /// How many records and activities have expired at `now`.
    public func expired(at now: Date) -> Int {
        // Expired once `now` has reached the date (`SearchableItem.isExpired`).
        let moment = now.timeIntervalSince1970
        var low = 0, high = expirations.count
        while low < high {
            let middle = (low + high) / 2
            if expirations[middle] <= moment { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
