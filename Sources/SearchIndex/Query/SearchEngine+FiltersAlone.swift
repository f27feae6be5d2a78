import Foundation

extension SearchEngine {
    /// A query of filters and no words (`kind:photo`), as Spotlight lists
    /// every photo: each unexpired document the filters admit, ranked by
    /// the rules that do not need a match (engagement, ranking hint,
    /// sources, shorter title, identifier). It visits every document once.
    func searchByFiltersAlone(_ query: SearchQuery) -> SearchResponse {
        let expiry = expiryTest(at: query.now)
        var ranked: [RankedSlot] = []
        for (index, document) in documents.enumerated() {
            guard let document, expiry.isUnexpired(UInt32(index)), query.admits(document) else { continue }
            let engagement = engagedSlots[index] ? engagementScore(of: document.uniqueIdentifier, at: query.now).score : 0
            ranked.append(RankedSlot(key: RankingKey(
                typos: 0, wholeWords: 0, fieldScore: 0, engagement: engagement,
                rankingHint: ranks[index].rankingHint, sources: document.sourceCount, titleLength: document.titleLength,
                uniqueIdentifier: document.uniqueIdentifier), doc: UInt32(index)))
        }
        let top = ranked.count > query.limit ? Array(ranked.partialSort(query.limit)) : ranked.sorted { $0.key < $1.key }
        var evaluators: [TermEvaluator] = []
        let results = top.map {
            makeResult(doc: $0.doc, key: $0.key, terms: [], termsAreASCII: true, evaluators: &evaluators, query: query)
        }
        return SearchResponse(query: query.text, total: ranked.count, results: results)
    }
}
