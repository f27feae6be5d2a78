import Foundation

extension SearchEngine {
    /// What the index holds, counted by domain and by source, for stats
    /// and the inspector. Activities count under the `activity` source.
    public struct Counts: Sendable, Hashable {
        /// Records by domain identifier (`(none)` for records without one).
        public var byDomain: [String: Int]
        /// Every source, zero included.
        public var bySource: [String: Int]
        /// When each record and activity that expires does, unsorted.
        public var expirations: [Date]
    }

    public var counts: Counts {
        var domains: [String: Int] = [:]
        var sources = Dictionary(uniqueKeysWithValues: Source.allCases.map { ($0.rawValue, 0) })
        var expirations: [Date] = []
        for record in allRecords {
            domains[record.item.domainIdentifier ?? "(none)", default: 0] += 1
            sources[record.source.rawValue, default: 0] += 1
            if let date = record.item.expirationDate { expirations.append(date) }
        }
        sources[Source.activity.rawValue] = activities.count
        expirations += activities.values.compactMap(\.expirationDate)
        return Counts(byDomain: domains, bySource: sources, expirations: expirations)
    }
}

extension SearchEngine {
    /// Results the user viewed, the most recent view first, as an empty
    /// query's starting point (Spotlight's recents): only those still
    /// visible at `now`.
    public func recentlyViewed(limit: Int, at now: Date) -> [SearchResult] {
        let latest = engagements.compactMap { id, dates in dates.filter { $0 <= now }.max().map { (id, $0) } }
        var results: [SearchResult] = []
        for (id, _) in latest.sorted(by: { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }) where results.count < limit {
            if isVisible(id, at: now), let result = result(for: id) { results.append(result) }
        }
        return results
    }
}

extension SearchResult {
    /// A row that stands for something other than an indexed item (a
    /// domain on an empty query's starting point): shown like a result.
    public init(listing identifier: String, title: String, contentType: String, description: String? = nil) {
        var attributes = AttributeSet(title: title)
        attributes.contentType = contentType
        attributes.contentDescription = description
        self.init(
            uniqueIdentifier: identifier, domainIdentifier: nil, contentType: contentType, sources: [],
            attributes: attributes, visibility: .public, highlighting: .made(HighlightList()),
            explanation: Explanation(
                key: RankingKey(typos: 0, wholeWords: 0, fieldScore: 0, engagement: 0, sources: 0,
                                titleLength: title.count, uniqueIdentifier: identifier),
                views: 0, matches: []))
    }
}
