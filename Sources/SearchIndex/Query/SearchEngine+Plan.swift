/// The one place that decides which strategy answers a query (`QueryPlan`).
extension SearchEngine {
    /// The strategies that rank a query's words, cheapest first for the
    /// queries each can take; enumeration takes every query.
    static let rankingStrategies: [QueryPlan.Strategy] = [.bestLists, .fieldMaps, .scan, .enumeration]

    /// The most words the scan takes: its packed keys sum typos, prefixes
    /// and fields in a byte each (`SearchEngine+Scan`).
    static let scanTermLimit = 32

    /// The first strategy in `rankingStrategies` that can answer the query
    /// (the first after `tried`, when one was tried and could not), with
    /// the reason it can.
    func plan(
        terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery, exactFirst: Bool,
        after tried: QueryPlan.Strategy? = nil
    ) -> QueryPlan {
        var candidates = Self.rankingStrategies
        if let tried, let index = candidates.firstIndex(of: tried) { candidates.removeFirst(index + 1) }
        for strategy in candidates {
            if let why = reason(strategy, canAnswer: terms, matches: matches, query: query) {
                return QueryPlan(strategy, exactFirst: exactFirst, why: why)
            }
        }
        return QueryPlan(.enumeration, exactFirst: exactFirst, why: .tooFuzzyToProbe)
    }

    /// Why `strategy` can answer the query, or nil when it cannot.
    private func reason(
        _ strategy: QueryPlan.Strategy, canAnswer terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery
    ) -> QueryPlan.Reason? {
        switch strategy {
        case .bestLists:
            guard terms.count == 1, let reach = topListReach(matches[0], query: query) else { return nil }
            return .broadWord(reach: reach, minimum: topListAnswerMinimum)
        case .fieldMaps:
            guard fieldMapsMayAnswer(terms: terms, matches: matches, query: query) else { return nil }
            return .broadWords(count: terms.count, share: EngineTuning.fieldMapQueryShare, slots: documents.count)
        case .scan:
            guard tuning.scanEnabled, terms.count <= Self.scanTermLimit, matches.allSatisfy(TermProbe.canProbe) else { return nil }
            return .probeable(words: terms.count)
        case .enumeration:
            if !tuning.scanEnabled { return .scanTurnedOff }
            if terms.count > Self.scanTermLimit { return .tooManyWordsToProbe(limit: Self.scanTermLimit) }
            return .tooFuzzyToProbe
        case .nothing, .filtersAlone:
            return nil
        }
    }

    /// Runs `plan`'s strategy; when it finds it cannot answer after all,
    /// the next strategy that can does, and the response says so.
    func run(_ plan: QueryPlan, terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery) -> SearchResponse {
        let answer: SearchResponse?
        switch plan.strategy {
        case .bestLists: answer = searchFromTopLists(term: terms[0], matches: matches[0], query: query)
        case .fieldMaps: answer = searchByFieldMaps(terms: terms, matches: matches, query: query)
        case .scan: answer = searchByScan(terms: terms, matches: matches, query: query)
        case .enumeration: answer = searchByEnumeration(terms: terms, matches: matches, query: query)
        case .nothing, .filtersAlone: answer = nil
        }
        guard var answer else {
            var next = self.plan(terms: terms, matches: matches, query: query, exactFirst: plan.exactFirst, after: plan.strategy)
            next.fellBackFrom = plan.fellBackFrom ?? plan.strategy
            return run(next, terms: terms, matches: matches, query: query)
        }
        answer.plan = plan
        return answer
    }
}
