import Foundation

extension SearchEngine {
    /// The strategy every other passes to: enumerate the most selective
    /// term's postings and check the other terms per candidate. Slower on
    /// broad terms than the others, but it needs nothing but the trie and
    /// the token arena, and so is the reference the tests hold them to.
    func searchByEnumeration(terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery) -> SearchResponse {
        let driver = matches.indices.min {
            matches[$0].estimatedPostings(in: trie) < matches[$1].estimatedPostings(in: trie)
        }!
        var candidates: [UInt32: TermHit] = [:]
        func offer(_ doc: UInt32, _ hit: TermHit) {
            if let seen = candidates[doc], !(hit < seen) { return }
            candidates[doc] = hit
        }
        for (node, typos) in matches[driver].prefix {
            trie.forEachPosting(under: node) { offer($0.doc, TermHit(typos: UInt8(typos), whole: false, field: $0.field)) }
        }
        for (node, typos) in matches[driver].whole {
            for posting in trie[node].postingList {
                offer(posting.doc, TermHit(typos: UInt8(typos), whole: true, field: posting.field))
            }
        }

        var evaluators = matches.map { TermEvaluator(matches: $0) }
        var ranked: [RankedSlot] = []
        ranked.reserveCapacity(candidates.count)
        let expiry = expiryTest(at: query.now)
        candidateLoop: for (doc, driverHit) in candidates {
            guard let document = documents[Int(doc)], expiry.isUnexpired(doc) else { continue }
            if query.restricts, !query.admits(document) { continue }
            var typos = 0
            var whole = 0
            var fields = 0
            for index in terms.indices {
                let hit: TermHit
                if index == driver {
                    hit = driverHit
                } else {
                    guard let found = evaluators[index].bestHit(slot: doc, tokens: tokens, trie: trie) else { continue candidateLoop }
                    hit = found
                }
                typos += Int(hit.typos)
                whole += hit.whole ? 1 : 0
                fields += Int(hit.field)
            }
            // The slot's flag first: with a single view anywhere, hashing
            // every candidate's identifier would slow every keystroke.
            let engagement = engagedSlots[Int(doc)] ? engagementScore(of: document.uniqueIdentifier, at: query.now).score : 0
            ranked.append(RankedSlot(key: RankingKey(
                typos: typos, wholeWords: whole, fieldScore: fields, engagement: engagement,
                rankingHint: ranks[Int(doc)].rankingHint, sources: document.sourceCount, titleLength: document.titleLength,
                uniqueIdentifier: document.uniqueIdentifier), doc: doc))
        }
        let total = ranked.count
        let top = ranked.count > query.limit
            ? Array(ranked.partialSort(query.limit))
            : ranked.sorted { $0.key < $1.key }
        gather(top.map { $0.doc })
        let termsAreASCII = Self.areASCII(terms)
        let results = top.map {
            makeResult(
                doc: $0.doc, key: $0.key, terms: terms, termsAreASCII: termsAreASCII, evaluators: &evaluators,
                query: query)
        }
        return SearchResponse(query: query.text, total: total, results: results)
    }
}
