import Foundation

/// SPEC 2's exact rule: a document whose title or display name is exactly
/// the query's words ranks above every other match of as few typos and as
/// many whole words.
///
/// An exact document has no typos and every term whole, the best values of
/// the two rules before, so it ranks above every match that is not exact.
/// The other strategies order by the rules without this one; `search`
/// finds the documents filed under the query's words (`ExactNames`, one
/// probe), puts those that are exact first and fills the rest of the page
/// from the strategy's answer (which only counts when they fill it).
///
/// A common name can file hundreds of documents, so they are checked in
/// rank order, only until the page is full. Among exact documents the rules
/// left are engagement and then the static rank: the few with views are
/// all checked and ranked by their keys, the rest taken in static order
/// (`StaticRank`), which reads no document.
extension SearchEngine {
    /// The documents filed under the query's words: those with views, and
    /// the rest in static order but for the identifiers (`ExactCandidates`).
    /// Each may not be exact (`exactResults` tells).
    func exactCandidates(terms: [String], query: SearchQuery) -> ExactCandidates {
        guard exactNames.count > 0, let signature = ExactNames.signature(ofTerms: terms) else { return ExactCandidates() }
        var slots = exactNames.slots(named: signature)
        guard !slots.isEmpty else { return ExactCandidates() }
        // A document's two names can both come up (their tags agree): once each.
        slots.sort()
        let expiry = expiryTest(at: query.now)
        var candidates = ExactCandidates()
        // Each rank read once, in one pass (the reads overlap), then sorted.
        ranks.withUnsafeBufferPointer { ranks in
            for (index, slot) in slots.enumerated()
            where (index == 0 || slots[index - 1] != slot) && Int(slot) < ranks.count && expiry.isUnexpired(slot) {
                if engagedSlots[Int(slot)] {
                    candidates.engaged.append(slot)
                } else {
                    candidates.rest.append((StaticKey(field: 0, rank: ranks[Int(slot)]).words, slot))
                }
            }
        }
        candidates.rest.sort { $0.key < $1.key }
        return candidates
    }

    /// The exact ones of `candidates` as results, best first, at most as
    /// many as the query asks.
    func exactResults(
        _ candidates: ExactCandidates, terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery
    ) -> [SearchResult] {
        // Each term's own node (its word, no typo): an exact document has
        // every one among its title-field tokens.
        let wordNodes = matches.compactMap { $0.whole.first { $0.value == 0 }?.key }
        guard wordNodes.count == matches.count, let signature = ExactNames.fullSignature(ofTerms: terms) else { return [] }
        // Most of those read below, read together first.
        gather(candidates.engaged + candidates.rest.prefix(max(0, query.limit)).map(\.slot))
        func key(_ slot: UInt32) -> RankedSlot? {
            guard let document = documents[Int(slot)], isExactMatch(slot, document, signature: signature, wordNodes: wordNodes),
                !query.restricts || query.admits(document)
            else { return nil }
            let engagement = engagedSlots[Int(slot)] ? engagementScore(of: document.uniqueIdentifier, at: query.now).score : 0
            return RankedSlot(key: RankingKey(
                typos: 0, wholeWords: terms.count, exact: true, fieldScore: 0, engagement: engagement,
                rankingHint: ranks[Int(slot)].rankingHint, sources: document.sourceCount,
                titleLength: document.titleLength, uniqueIdentifier: document.uniqueIdentifier), doc: slot)
        }
        // Views dated after the clock count nothing: such a document may
        // rank among the rest, so as many of the rest are taken as the page holds.
        var ranked = candidates.engaged.compactMap(key)
        var taken = 0
        var start = 0
        while start < candidates.rest.count, taken < query.limit {
            // A run of equal static keys, put in the order of its identifiers.
            var end = start + 1
            while end < candidates.rest.count, candidates.rest[end].key == candidates.rest[start].key { end += 1 }
            var run = candidates.rest[start..<end].map(\.slot)
            if run.count > 1 {
                run.sort {
                    RankingKey.identifierPrecedes(
                        documents[Int($0)]?.uniqueIdentifier ?? "", documents[Int($1)]?.uniqueIdentifier ?? "")
                }
            }
            for slot in run where taken < query.limit {
                guard let exact = key(slot) else { continue }
                ranked.append(exact)
                taken += 1
            }
            start = end
        }
        guard !ranked.isEmpty else { return [] }
        ranked.sort { $0.key < $1.key }
        // Probes answer the per-token questions, as for the strategies' own results.
        let built = matches.compactMap { TermProbe(matches: $0, trie: trie, testsNodes: query.explainsMatches) }
        let probes = built.count == matches.count ? built : nil
        return results(ranked.prefix(max(0, query.limit)), terms: terms, matches: matches, probes: probes, query: query)
    }

    /// Whether a candidate is exact: its name's words are the query's (the
    /// table's 32-bit signatures, and the few bits of a bucket's tag, can
    /// agree for other words; 64 bits are taken to tell), and each term
    /// matches its word itself (`wordNodes`: no typo, not a prefix) in the
    /// title field.
    private func isExactMatch(_ slot: UInt32, _ document: Document, signature: UInt64, wordNodes: [Int32]) -> Bool {
        guard ExactNames.isNamed(shownAttributes(of: document), signature: signature) else { return false }
        let span = tokens.span(of: slot)
        return wordNodes.allSatisfy { node in
            span.contains {
                let word = tokens.words[$0]
                return TokenArena.node(of: word) == node && TokenArena.field(of: word) == Field.title.rawValue
            }
        }
    }

    /// The query answered with its exact documents first: when they fill
    /// the page the strategy only counts; otherwise its page, less the
    /// exact documents on it, fills what they leave (it holds at most as
    /// many exact documents as there are).
    func searchExactFirst(
        _ candidates: ExactCandidates, plan: QueryPlan, terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery
    ) -> SearchResponse {
        let first = exactResults(candidates, terms: terms, matches: matches, query: query)
        var counting = query
        if first.count >= query.limit { counting.limit = 0 }
        var response = run(plan, terms: terms, matches: matches, query: counting)
        let named = Set(first.map(\.uniqueIdentifier))
        let rest = response.results.lazy.filter { !named.contains($0.uniqueIdentifier) }
        response.results = first + rest.prefix(max(0, query.limit - first.count))
        // Candidates filed under the words that all turn out not exact (a tag that agreed by chance).
        response.plan.exactFirst = !first.isEmpty
        return response
    }
}

extension SearchEngine {
    /// The signatures of the names the document in `slot` shows (none for an empty slot).
    func nameSignatures(ofSlot slot: UInt32) -> ExactNames.Signatures {
        documents[Int(slot)].map { ExactNames.signatures(of: shownAttributes(of: $0)) } ?? ExactNames.Signatures()
    }

    /// Changes the exact-name table, which reads the documents' names as
    /// they stand when it moves buckets (taken out of the engine meanwhile,
    /// so that reading the engine does not overlap changing it).
    mutating func changeExactNames(_ change: (inout ExactNames, ExactNames.NamesOf) -> Void) {
        var names = exactNames
        exactNames = ExactNames()
        change(&names) { self.nameSignatures(ofSlot: $0) }
        exactNames = names
    }
}

/// The documents a query's words may name exactly, before each is checked.
struct ExactCandidates {
    /// Those with views: each is ranked by its whole key.
    var engaged: [UInt32] = []
    /// The rest, by their static keys (`StaticKey.words`); equal keys
    /// still to be put in the order of their identifiers.
    var rest: [(key: StaticKey.Words, slot: UInt32)] = []

    var isEmpty: Bool { engaged.isEmpty && rest.isEmpty }
}

