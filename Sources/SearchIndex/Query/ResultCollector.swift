import Foundation

/// The collector every ranking strategy but best lists fills (scan, field
/// maps, enumeration, filters alone): the total, the top of the page on a
/// packed key, and the documents with views, merged by their full key at
/// the end (`response(from:)`). Best lists read their page off sorted lists
/// and need no heap. The packed key:
///
/// ```
///  bits 63…56   55…48      47…40    39…32   31…0
///       typos   non-whole  fields   0       the static rank (`StaticRank.keyBits`: hint, sources, title length)
/// ```
///
/// orders as `RankingKey` does when engagement is zero (ties go to the
/// identifier: `packedOrder`).
extension SearchEngine {
    /// A candidate in the heap: its packed key and slot.
    struct PackedCandidate {
        var key: UInt64
        var doc: UInt32
    }

    /// What a strategy keeps of the documents it matches: the best without
    /// views in a bounded max-heap (the worst kept on top), every one with
    /// views (ranked with their engagement at the end), and the count.
    struct ResultCollector {
        let limit: Int
        var heap: [PackedCandidate] = []
        var engaged: [PackedCandidate] = []
        var total = 0

        init(limit: Int) {
            self.limit = limit
            heap.reserveCapacity(limit + 1)
        }

        var isFull: Bool { heap.count == limit }

        /// Counts a matching document and keeps it if it may be on the page.
        mutating func collect(_ candidate: PackedCandidate, engaged: Bool, precedes: (PackedCandidate, PackedCandidate) -> Bool) {
            total += 1
            guard limit > 0 else { return }
            if engaged { self.engaged.append(candidate) } else { offer(candidate, precedes: precedes) }
        }

        /// Takes in what another part of the same pass kept: the order is
        /// total, so the merge keeps exactly what one pass would.
        mutating func absorb(_ part: ResultCollector, precedes: (PackedCandidate, PackedCandidate) -> Bool) {
            total += part.total
            engaged += part.engaged
            for candidate in part.heap { offer(candidate, precedes: precedes) }
        }

        /// Keeps `candidate` if it ranks among the best `limit`.
        mutating func offer(_ candidate: PackedCandidate, precedes: (PackedCandidate, PackedCandidate) -> Bool) {
            if heap.count < limit {
                heap.append(candidate)
                var i = heap.count - 1
                while i > 0 {
                    let parent = (i - 1) / 2
                    guard precedes(heap[parent], heap[i]) else { return }
                    heap.swapAt(parent, i)
                    i = parent
                }
            } else if precedes(candidate, heap[0]) {
                heap[0] = candidate
                var i = 0
                while true {
                    let left = 2 * i + 1, right = left + 1
                    var worst = i
                    if left < heap.count, precedes(heap[worst], heap[left]) { worst = left }
                    if right < heap.count, precedes(heap[worst], heap[right]) { worst = right }
                    if worst == i { return }
                    heap.swapAt(i, worst)
                    i = worst
                }
            }
        }
    }

    /// The packed key's bits above the static rank, from the summed rule
    /// values (typos, terms matched only as a prefix, fields), each below 256.
    @inline(__always)
    static func ruleBits(typos: UInt64, prefixOnly: UInt64, fields: UInt64) -> UInt64 {
        typos << 56 | prefixOnly << 48 | fields << 40
    }

    /// The same for one hit code (`TermProbe`'s coding).
    @inline(__always)
    static func ruleBits(ofCode code: UInt8) -> UInt64 {
        ruleBits(typos: UInt64(code >> 3), prefixOnly: UInt64((code >> 2) & 1), fields: UInt64(code & 3))
    }

    /// `ruleBits(ofCode:)` of every code, looked up where codes are summed.
    static let packedCodeKeys: [UInt64] = (0...255).map { ruleBits(ofCode: UInt8($0)) }

    /// The response for what a strategy kept: the kept documents ranked with
    /// their full keys (engagement for those with views), as results.
    /// `probes`, in term order, answer the per-token questions when every
    /// term has one.
    func response(
        from kept: ResultCollector, terms: [String], matches: [TokenTrie.TermMatches], probes: [TermProbe]?,
        query: SearchQuery
    ) -> SearchResponse {
        // Documents are read in place: a copy retains every string it holds.
        func rankingKey(_ candidate: PackedCandidate, engagement: Double) -> RankedSlot {
            documents.withUnsafeBufferPointer { documents in
                let key = candidate.key
                return documents.withDocument(at: Int(candidate.doc)) { document in
                    RankedSlot(key: RankingKey(
                        typos: Int(key >> 56), wholeWords: terms.count - Int((key >> 48) & 0xff),
                        fieldScore: Int((key >> 40) & 0xff), engagement: engagement,
                        rankingHint: ranks[Int(candidate.doc)].rankingHint, sources: document.sourceCount, titleLength: document.titleLength,
                        uniqueIdentifier: document.uniqueIdentifier), doc: candidate.doc)
                }.unsafelyUnwrapped
            }
        }
        // Every kept document's slot is read below: all at once first.
        gather(kept.heap.map { $0.doc } + kept.engaged.map { $0.doc })
        // The heap put in its own order first (integers, the identifiers
        // only on a tie): it is the ranking's order for documents without
        // views, so the sort by full keys below meets one sorted run (and
        // the few engaged documents) instead of sorting by full keys from
        // any order.
        var heap = kept.heap
        ranks.withUnsafeBufferPointer { ranks in heap.sort(by: Self.packedOrder(ranks: ranks, documents: documents)) }
        var ranked = heap.map { rankingKey($0, engagement: 0) }
        for candidate in kept.engaged {
            let identifier = documents[Int(candidate.doc)]!.uniqueIdentifier
            ranked.append(rankingKey(candidate, engagement: engagementScore(of: identifier, at: query.now).score))
        }
        ranked.sort { $0.key < $1.key }
        let page = results(ranked.prefix(max(0, query.limit)), terms: terms, matches: matches, probes: probes, query: query)
        return SearchResponse(query: query.text, total: kept.total, results: page)
    }

    /// A ranked page as results, each one's highlights made when read.
    /// `probes`, in term order, answer the per-token questions when every
    /// term has one; otherwise the terms' evaluators do.
    func results(
        _ page: ArraySlice<RankedSlot>, terms: [String], matches: [TokenTrie.TermMatches], probes: [TermProbe]?,
        query: SearchQuery
    ) -> [SearchResult] {
        var evaluators = matches.map { TermEvaluator(matches: $0) }
        let termsAreASCII = Self.areASCII(terms)
        let deferred = DeferredHighlights(terms: terms, termsAreASCII: termsAreASCII, probes: probes)
        return page.map {
            makeResult(
                doc: $0.doc, key: $0.key, terms: terms, termsAreASCII: termsAreASCII, probes: probes,
                deferred: deferred, evaluators: &evaluators, query: query)
        }
    }

    /// The order of packed candidates without views: by key, ties to the
    /// identifier, most decided by its first bytes. Read through unsafe
    /// views: a closure over `self` would copy the engine on every call.
    static func packedOrder(
        ranks: UnsafeBufferPointer<StaticRank>, documents: [Document?]
    ) -> (PackedCandidate, PackedCandidate) -> Bool {
        { a, b in
            if a.key != b.key { return a.key < b.key }
            let prefixA = ranks[Int(a.doc)].identifierPrefix, prefixB = ranks[Int(b.doc)].identifierPrefix
            if prefixA != prefixB { return prefixA < prefixB }
            return RankingKey.identifierPrecedes(documents[Int(a.doc)]!.uniqueIdentifier, documents[Int(b.doc)]!.uniqueIdentifier)
        }
    }
}
