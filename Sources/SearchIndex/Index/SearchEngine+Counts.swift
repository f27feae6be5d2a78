extension SearchEngine {
    /// What the index holds, counted by domain and by source, for stats
    /// and the inspector. Activities count under the `activity` source.
    public struct Counts: Sendable, Hashable {
        /// Records by domain identifier (`(none)` for records without one).
        public var byDomain: [String: Int]
        /// Every source, zero included.
        public var bySource: [String: Int]
    }

    public var counts: Counts {
        var domains: [String: Int] = [:]
        var sources = Dictionary(uniqueKeysWithValues: Source.allCases.map { ($0.rawValue, 0) })
        for record in allRecords {
            domains[record.item.domainIdentifier ?? "(none)", default: 0] += 1
            sources[record.source.rawValue, default: 0] += 1
        }
        sources[Source.activity.rawValue] = activities.count
        return Counts(byDomain: domains, bySource: sources)
    }
}
