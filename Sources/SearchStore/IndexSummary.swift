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
        // One pass over the records (each read makes its record).
        var domains: [String: Int] = [:]
        var sources = Dictionary(uniqueKeysWithValues: Source.allCases.map { ($0.rawValue, 0) })
        var dates: [Double] = []
        for record in engine.records.values {
            domains[record.item.domainIdentifier ?? "(none)", default: 0] += 1
            sources[record.source.rawValue, default: 0] += 1
            if let date = record.item.expirationDate { dates.append(date.timeIntervalSince1970) }
        }
        sources[Source.activity.rawValue] = engine.activities.count
        if !engine.activities.isEmpty { domains["(activities)"] = engine.activities.count }
        dates += engine.activities.values.compactMap { $0.expirationDate?.timeIntervalSince1970 }
        (byDomain, bySource, expirations) = (domains, sources, dates.sorted())
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
