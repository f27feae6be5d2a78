import Foundation

/// Ranked search by scanning flat per-document tokens.
///
/// Candidates come from the most selective term: its postings when they are
/// few, every document slot when they are not (a scan in memory order beats
/// gathering and sorting most of the index). Each candidate is then checked
/// against every term with `TermProbe`s over its run in the `TokenArena`,
/// which reads a few dozen contiguous words and no `Document`. Documents
/// without views are kept in a bounded heap on a packed key:
///
/// ```
///  bits 63…56   55…48      47…40    39…32          31…0
///       typos   non-whole  fields   255 − sources  title length
/// ```
///
/// which orders as `RankingKey` does when engagement is zero (ties go to
/// the identifier). Documents with views are ranked with their full key and
/// merged in at the end; there are few of them.
extension SearchEngine {
    /// A candidate in the heap: its packed key and slot.
    struct PackedCandidate {
        var key: UInt64
        var doc: UInt32
    }

    /// Whether `a` ranks before `b` (both without engagement).
    @inline(__always)
    func packedPrecedes(_ a: PackedCandidate, _ b: PackedCandidate) -> Bool {
        if a.key != b.key { return a.key < b.key }
        let prefixA = ranks[Int(a.doc)].identifierPrefix, prefixB = ranks[Int(b.doc)].identifierPrefix
        if prefixA != prefixB { return prefixA < prefixB }
        return RankingKey.identifierPrecedes(documents[Int(a.doc)]!.uniqueIdentifier, documents[Int(b.doc)]!.uniqueIdentifier)
    }

    /// Answers the query by scanning, or nil when a term is too fuzzy for
    /// probes (the caller then enumerates with node caches).
    func searchByScan(terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery) -> SearchResponse? {
        guard scanEnabled, terms.count <= 32 else { return nil }
        var probes: [TermProbe] = []
        for match in matches {
            guard let probe = TermProbe(matches: match, trie: trie) else { return nil }
            probes.append(probe)
        }
        // Most selective term first: it rejects most candidates on its own.
        let estimates = matches.map { $0.estimatedPostings(in: trie) }
        let order = probes.indices.sorted { estimates[$0] < estimates[$1] }
        let termOrderProbes = probes
        probes = order.map { probes[$0] }
        let driver = matches[order[0]]

        let now = query.now.timeIntervalSinceReferenceDate
        let limit = max(0, query.limit)
        var total = 0
        var heap: [PackedCandidate] = []  // max-heap: the worst kept candidate on top
        heap.reserveCapacity(limit + 1)
        var engaged: [UInt32] = []

        func siftDown(_ start: Int) {
            var i = start
            while true {
                let left = 2 * i + 1, right = left + 1
                var worst = i
                if left < heap.count, packedPrecedes(heap[worst], heap[left]) { worst = left }
                if right < heap.count, packedPrecedes(heap[worst], heap[right]) { worst = right }
                if worst == i { return }
                heap.swapAt(i, worst)
                i = worst
            }
        }
        func siftUp(_ start: Int) {
            var i = start
            while i > 0 {
                let parent = (i - 1) / 2
                guard packedPrecedes(heap[parent], heap[i]) else { return }
                heap.swapAt(parent, i)
                i = parent
            }
        }

        let candidates = scanCandidates(driver: driver, estimate: estimates[order[0]])
        tokens.heads.withUnsafeBufferPointer { heads in
            tokens.nodes.withUnsafeBufferPointer { nodes in
                tokens.fields.withUnsafeBufferPointer { fields in
                    func consider(_ slot: UInt32) {
                        let span = tokens.span(of: slot)
                        guard !span.isEmpty, expirations[Int(slot)] > now else { return }
                        var typos: UInt64 = 0, prefixOnly: UInt64 = 0, fieldSum: UInt64 = 0
                        for probe in probes {
                            let code = probe.bestCode(in: span, heads: heads, nodes: nodes, fields: fields, trie: trie)
                            if code == TermProbe.miss { return }
                            typos += UInt64(code >> 3)
                            prefixOnly += UInt64((code >> 2) & 1)
                            fieldSum += UInt64(code & 3)
                        }
                        if !query.domains.isEmpty {
                            guard let domain = documents[Int(slot)]?.domainIdentifier,
                                query.domains.contains(where: { SearchableItem.domain(domain, isWithin: $0) })
                            else { return }
                        }
                        total += 1
                        if engagedSlots[Int(slot)] {
                            engaged.append(slot)
                            return
                        }
                        guard limit > 0 else { return }
                        let rank = ranks[Int(slot)]
                        let candidate = PackedCandidate(
                            key: typos << 56 | prefixOnly << 48 | fieldSum << 40
                                | UInt64(255 - rank.sources) << 32 | UInt64(rank.titleLength),
                            doc: slot)
                        if heap.count < limit {
                            heap.append(candidate)
                            siftUp(heap.count - 1)
                        } else if packedPrecedes(candidate, heap[0]) {
                            heap[0] = candidate
                            siftDown(0)
                        }
                    }
                    switch candidates {
                    case .everySlot:
                        for slot in 0..<UInt32(documents.count) { consider(slot) }
                    case .slots(let slots):
                        for slot in slots { consider(slot) }
                    }
                }
            }
        }

        var ranked: [(key: RankingKey, doc: UInt32)] = heap.map { candidate in
            let document = documents[Int(candidate.doc)]!
            let key = candidate.key
            return (RankingKey(
                typos: Int(key >> 56), wholeWords: terms.count - Int((key >> 48) & 0xff),
                fieldScore: Int((key >> 40) & 0xff), engagement: 0,
                sources: document.sources.count, titleLength: document.titleLength,
                uniqueIdentifier: document.uniqueIdentifier), candidate.doc)
        }
        var evaluators = matches.map { TermEvaluator(matches: $0) }
        for doc in engaged {
            let document = documents[Int(doc)]!
            var typos = 0, whole = 0, fieldScore = 0
            for index in terms.indices {
                guard let hit = evaluators[index].bestHit(slot: doc, tokens: tokens, trie: trie) else { continue }
                typos += Int(hit.typos)
                whole += hit.whole ? 1 : 0
                fieldScore += Int(hit.field)
            }
            ranked.append((RankingKey(
                typos: typos, wholeWords: whole, fieldScore: fieldScore,
                engagement: engagementScore(of: document.uniqueIdentifier, at: query.now).score,
                sources: document.sources.count, titleLength: document.titleLength,
                uniqueIdentifier: document.uniqueIdentifier), doc))
        }
        ranked.sort { $0.key < $1.key }
        let results = ranked.prefix(limit).map {
            makeResult(doc: $0.doc, key: $0.key, terms: terms, probes: termOrderProbes, evaluators: &evaluators, now: query.now)
        }
        return SearchResponse(query: query.text, total: total, results: results)
    }

    /// Where the scan looks.
    enum ScanCandidates {
        case everySlot
        /// Distinct slots, ascending.
        case slots([UInt32])
    }

    /// The slots holding a token the driving term reaches, or every slot
    /// when that is most of the index anyway.
    func scanCandidates(driver: TokenTrie.TermMatches, estimate: Int) -> ScanCandidates {
        let slotCount = documents.count
        // Gathering costs a random write per posting, scanning a few reads
        // per slot: scan once the postings outnumber the slots.
        if estimate >= slotCount { return .everySlot }
        if estimate <= 16_384 {
            var slots: [UInt32] = []
            slots.reserveCapacity(estimate)
            for root in driver.prefix.keys { trie.forEachPosting(under: root) { slots.append($0.doc) } }
            for node in driver.whole.keys { for posting in trie[node].postings { slots.append(posting.doc) } }
            slots.sort()
            var unique: [UInt32] = []
            unique.reserveCapacity(slots.count)
            for slot in slots where unique.last != slot { unique.append(slot) }
            return .slots(unique)
        }
        // Many postings: mark them in a bitset, then read it in order.
        var words = [UInt64](repeating: 0, count: (slotCount + 63) / 64)
        for root in driver.prefix.keys {
            trie.forEachPosting(under: root) { words[Int($0.doc) >> 6] |= 1 << UInt64($0.doc & 63) }
        }
        for node in driver.whole.keys {
            for posting in trie[node].postings { words[Int(posting.doc) >> 6] |= 1 << UInt64(posting.doc & 63) }
        }
        var slots: [UInt32] = []
        slots.reserveCapacity(estimate)
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                slots.append(UInt32(index * 64 + bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        return .slots(slots)
    }
}
