import Foundation

/// Ranked search by scanning flat per-document tokens.
///
/// Candidates come from a driving term, the one that makes the whole query
/// cheapest: its postings unless they outnumber the slots severalfold, with
/// that term's best hit read off them; otherwise every document slot (a
/// scan in memory order beats gathering most of the index). Each candidate
/// is then checked against the other terms with `TermProbe`s over its run
/// in the `TokenArena`, which reads a few dozen contiguous words and no
/// `Document`. Documents without views are kept in a bounded heap on a
/// packed key:
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
        // The driving term's hits are read off its postings; every other
        // term is probed on each candidate. Drive with the term that makes
        // that cheapest (often a term with typos: its probe costs most),
        // then probe the most selective terms first.
        let estimates = matches.map { $0.estimatedPostings(in: trie) }
        let slotCount = max(1, documents.count)
        func cost(drivenBy driver: Int) -> Double {
            let candidates = Double(min(estimates[driver], slotCount))
            let probing = probes.indices.filter { $0 != driver }.reduce(0.0) { $0 + probes[$1].relativeCost }
            return Double(estimates[driver]) + candidates * probing
        }
        let driverIndex = probes.indices.min { cost(drivenBy: $0) < cost(drivenBy: $1) }!
        let order = [driverIndex] + probes.indices.filter { $0 != driverIndex }.sorted { estimates[$0] < estimates[$1] }
        let termOrderProbes = probes
        probes = order.map { probes[$0] }
        let driver = matches[driverIndex]

        let now = query.now.timeIntervalSinceReferenceDate
        let limit = max(0, query.limit)
        var total = 0
        var heap: [PackedCandidate] = []  // max-heap: the worst kept candidate on top
        heap.reserveCapacity(limit + 1)
        /// Documents with views: their packed key lacks engagement, added at the end.
        var engaged: [PackedCandidate] = []

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
        // Unsafe views: reading a probe or a token through them copies and
        // retains nothing, which matters a million times over.
        probes.withUnsafeBufferPointer { probes in
            tokens.heads.withUnsafeBufferPointer { heads in
                tokens.nodes.withUnsafeBufferPointer { nodes in
                    tokens.fields.withUnsafeBufferPointer { fields in
                        /// `driverCode`, when known, stands for the first probe.
                        func consider(_ slot: UInt32, driverCode: UInt8?) {
                            let span = tokens.span(of: slot)
                            guard !span.isEmpty, expirations[Int(slot)] > now else { return }
                            var typos: UInt64 = 0, prefixOnly: UInt64 = 0, fieldSum: UInt64 = 0
                            for term in probes.indices {
                                let code = term == 0 && driverCode != nil
                                    ? driverCode!
                                    : probes[term].bestCode(in: span, heads: heads, nodes: nodes, fields: fields, trie: trie)
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
                            guard limit > 0 else { return }
                            let rank = ranks[Int(slot)]
                            let candidate = PackedCandidate(
                                key: typos << 56 | prefixOnly << 48 | fieldSum << 40
                                    | UInt64(255 - rank.sources) << 32 | UInt64(rank.titleLength),
                                doc: slot)
                            if engagedSlots[Int(slot)] {
                                engaged.append(candidate)
                            } else if heap.count < limit {
                                heap.append(candidate)
                                siftUp(heap.count - 1)
                            } else if packedPrecedes(candidate, heap[0]) {
                                heap[0] = candidate
                                siftDown(0)
                            }
                        }
                        switch candidates {
                        case .everySlot:
                            for slot in 0..<UInt32(documents.count) { consider(slot, driverCode: nil) }
                        case .coded(let slots, let codes):
                            for (slot, code) in zip(slots, codes) { consider(slot, driverCode: code) }
                        }
                    }
                }
            }
        }

        func rankingKey(_ candidate: PackedCandidate, engagement: Double) -> (key: RankingKey, doc: UInt32) {
            let document = documents[Int(candidate.doc)]!
            let key = candidate.key
            return (RankingKey(
                typos: Int(key >> 56), wholeWords: terms.count - Int((key >> 48) & 0xff),
                fieldScore: Int((key >> 40) & 0xff), engagement: engagement,
                sources: document.sources.count, titleLength: document.titleLength,
                uniqueIdentifier: document.uniqueIdentifier), candidate.doc)
        }
        var ranked = heap.map { rankingKey($0, engagement: 0) }
        for candidate in engaged {
            let identifier = documents[Int(candidate.doc)]!.uniqueIdentifier
            ranked.append(rankingKey(candidate, engagement: engagementScore(of: identifier, at: query.now).score))
        }
        ranked.sort { $0.key < $1.key }
        var evaluators = matches.map { TermEvaluator(matches: $0) }
        let results = ranked.prefix(limit).map {
            makeResult(doc: $0.doc, key: $0.key, terms: terms, probes: termOrderProbes, evaluators: &evaluators, now: query.now)
        }
        return SearchResponse(query: query.text, total: total, results: results)
    }

    /// Where the scan looks.
    enum ScanCandidates {
        case everySlot
        /// Distinct slots, ascending, each with the driving term's best hit
        /// code there (known from the postings, so it is not probed again).
        case coded(slots: [UInt32], codes: [UInt8])
    }

    /// The slots holding a token the driving term reaches, with the term's
    /// best hit in each, or every slot when that is most of the index anyway.
    func scanCandidates(driver: TokenTrie.TermMatches, estimate: Int) -> ScanCandidates {
        let slotCount = documents.count
        // Gathering costs a random write per posting; scanning, a probe of
        // every token of every slot (a few dozen each, more for a term with
        // typos): gather unless the postings outnumber the slots severalfold.
        if estimate >= 8 * slotCount { return .everySlot }
        /// Calls `body` with every posting the term reaches and its hit code.
        func forEachHit(_ body: (UInt32, UInt8) -> Void) {
            for (root, typos) in driver.prefix {
                let base = UInt8(typos) * 8 + 4
                trie.forEachPosting(under: root) { body($0.doc, base + $0.field) }
            }
            for (node, typos) in driver.whole {
                let base = UInt8(typos) * 8
                for posting in trie[node].postings { body(posting.doc, base + posting.field) }
            }
        }
        var slots: [UInt32] = []
        var codes: [UInt8] = []
        if estimate <= sortedGatherLimit {
            // Few: sort (slot, code) pairs; the first of each slot is its best.
            var pairs: [UInt64] = []
            pairs.reserveCapacity(estimate)
            forEachHit { pairs.append(UInt64($0) << 8 | UInt64($1)) }
            pairs.sort()
            for pair in pairs where slots.last != UInt32(pair >> 8) {
                slots.append(UInt32(pair >> 8))
                codes.append(UInt8(pair & 0xff))
            }
            return .coded(slots: slots, codes: codes)
        }
        // Many: keep the best code per slot in a byte map, then read it in order.
        var best = [UInt8](repeating: TermProbe.miss, count: slotCount)
        forEachHit { slot, code in
            if code < best[Int(slot)] { best[Int(slot)] = code }
        }
        slots.reserveCapacity(min(estimate, slotCount))
        codes.reserveCapacity(min(estimate, slotCount))
        for (slot, code) in best.enumerated() where code != TermProbe.miss {
            slots.append(UInt32(slot))
            codes.append(code)
        }
        return .coded(slots: slots, codes: codes)
    }
}
