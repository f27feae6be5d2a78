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
        var kept = ResultCollector(limit: max(0, query.limit))
        let expiry = expiryTest(at: query.now)
        ranks.withUnsafeBufferPointer { ranks in
            let precedes = Self.packedOrder(ranks: ranks, documents: documents)
            candidateLoop: for (doc, driverHit) in candidates {
                guard let document = documents[Int(doc)], expiry.isUnexpired(doc) else { continue }
                if query.restricts, !query.admits(document) { continue }
                var typos: UInt64 = 0, prefixOnly: UInt64 = 0, fields: UInt64 = 0
                for index in terms.indices {
                    let hit: TermHit
                    if index == driver {
                        hit = driverHit
                    } else {
                        guard let found = evaluators[index].bestHit(slot: doc, tokens: tokens, trie: trie) else { continue candidateLoop }
                        hit = found
                    }
                    typos += UInt64(hit.typos)
                    prefixOnly += hit.whole ? 0 : 1
                    fields += UInt64(hit.field)
                }
                let key = Self.ruleBits(typos: typos, prefixOnly: prefixOnly, fields: fields) | ranks[Int(doc)].keyBits
                kept.collect(PackedCandidate(key: key, doc: doc), engaged: engagedSlots[Int(doc)], precedes: precedes)
            }
        }
        return response(from: kept, terms: terms, matches: matches, probes: nil, query: query)
    }
}
