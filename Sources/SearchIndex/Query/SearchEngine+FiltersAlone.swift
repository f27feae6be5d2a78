import Foundation

extension SearchEngine {
    /// A query of filters and no words (`kind:photo`), as Spotlight lists
    /// every photo: each unexpired document the filters admit, ranked by
    /// the rules that do not need a match (engagement, ranking hint,
    /// sources, shorter title, identifier). It visits every document once.
    func searchByFiltersAlone(_ query: SearchQuery) -> SearchResponse {
        let expiry = expiryTest(at: query.now)
        var kept = ResultCollector(limit: max(0, query.limit))
        ranks.withUnsafeBufferPointer { ranks in
            let precedes = Self.packedOrder(ranks: ranks, documents: documents)
            for (index, document) in documents.enumerated() {
                guard let document, expiry.isUnexpired(UInt32(index)), query.admits(document) else { continue }
                let candidate = PackedCandidate(key: ranks[index].keyBits, doc: UInt32(index))
                kept.collect(candidate, engaged: engagedSlots[index], precedes: precedes)
            }
        }
        return response(from: kept, terms: [], matches: [], probes: nil, query: query)
    }
}
