import Foundation

/// Queries whose terms are all broad, answered from per-slot maps instead of
/// probing each candidate's tokens.
///
/// "cozo r" over a million items: each term matches 40–90% of the
/// documents, so the scan would probe hundreds of thousands of token runs,
/// and gathering a broad prefix walks tens of thousands of trie nodes (a
/// cache miss or three each). Instead, the largest subtrees keep a *field
/// map*: for every document slot, the best field of its tokens under the
/// node, or `noField`:
///
/// ```
///   slot       0   1   2   3   4   5  …
///   "l"        0   ·   3   1   ·   2  …     0 title … 3 description, · none
///   "le"       ·   ·   3   1   ·   ·  …
/// ```
///
/// A term's *code map* holds its best hit code per slot (`TermProbe`'s
/// coding): its large prefix nodes' field maps merged in, its small ones
/// and its whole-word postings (each node's own list, contiguous) walked.
/// The query then makes plain passes over the slots, shared by the cores,
/// instead of a branch per document: add the terms' rule values per slot
/// (a vectorised loop), count them in a histogram (the total is the count
/// of slots no term missed; the least value that `limit` matches reach is
/// read off it), and rank only the slots at or below that value. Code maps
/// of the last few terms are kept (`TermMatchCache`), so "cozo" is mapped
/// once while "cozo r…" is typed; the scan reads a broad term's code per
/// candidate from its map when the driving term is narrow ("daio h").
/// Field maps are kept for nodes reaching at least one slot in sixteen,
/// built from their children's maps, cached beside the best lists and kept
/// up to date with them when a document under the node changes
/// (`SearchEngine+TopListUpkeep`).
extension SearchEngine {
    /// "No token in this subtree" in a field map.
    static let noField: UInt8 = 0xFF

    /// Subtrees with at least this many documents keep a field map.
    var fieldMapMinimum: Int { max(fieldMapMinimumDocuments, documents.count / 16) }

    /// The best field of each slot's tokens in `node`'s subtree, or `noField`
    /// (indexed by slot; slots past its end have none).
    func subtreeFieldMap(_ node: Int32) -> [UInt8] {
        if let cached = topLists.fieldMap(node) { return cached }
        let minimum = fieldMapMinimum
        var childMaps: [[UInt8]] = []
        var walkedChildren: [Int32] = []
        for child in trie[node].children {
            if trie[child.node].documentCount >= minimum {
                childMaps.append(subtreeFieldMap(child.node))
            } else {
                walkedChildren.append(child.node)
            }
        }
        var map = [UInt8](repeating: Self.noField, count: documents.count)
        map.withUnsafeMutableBufferPointer { map in
            func mark(_ postings: UnsafeBufferPointer<TokenTrie.Posting>) {
                for posting in postings where posting.field < map[Int(posting.doc)] {
                    map[Int(posting.doc)] = posting.field
                }
            }
            trie.withPostings(of: node, mark)
            for child in walkedChildren { trie.forEachPostingList(under: child, mark) }
            for childMap in childMaps {
                childMap.withUnsafeBufferPointer { childMap in
                    for slot in 0..<min(childMap.count, map.count) {
                        let a = map[slot], b = childMap[slot]
                        map[slot] = b < a ? b : a
                    }
                }
            }
        }
        topLists.store(fieldMap: map, for: node)
        return map
    }

    /// A term's part of a slot's rule value (see `searchByFieldMaps`).
    @inline(__always)
    static func rulesValue(of code: UInt8) -> UInt16 {
        UInt16(code >> 3) &* 225 &+ UInt16((code >> 2) & 1) &* 25 &+ UInt16(code & 3)
    }

    /// The term's best hit code in each slot (`TermProbe` coding), or
    /// `TermProbe.miss`.
    func termCodeMap(_ matches: TokenTrie.TermMatches) -> [UInt8] {
        let minimum = fieldMapMinimum
        var mapped: [(map: [UInt8], base: UInt8)] = []
        var walked: [(node: Int32, base: UInt8)] = []
        for (node, typos) in matches.prefix {
            let base = UInt8(typos) * 8 + 4
            if trie[node].documentCount >= minimum {
                mapped.append((subtreeFieldMap(node), base))
            } else {
                walked.append((node, base))
            }
        }
        var codes = [UInt8](repeating: TermProbe.miss, count: documents.count)
        codes.withUnsafeMutableBufferPointer { codes in
            for (map, base) in mapped {
                map.withUnsafeBufferPointer { map in
                    for slot in 0..<min(map.count, codes.count) {
                        let field = map[slot]
                        let code = field == Self.noField ? TermProbe.miss : base &+ field
                        let seen = codes[slot]
                        codes[slot] = code < seen ? code : seen
                    }
                }
            }
            func mark(_ postings: UnsafeBufferPointer<TokenTrie.Posting>, base: UInt8) {
                for posting in postings {
                    let code = base + posting.field
                    if code < codes[Int(posting.doc)] { codes[Int(posting.doc)] = code }
                }
            }
            for (node, base) in walked {
                trie.forEachPostingList(under: node) { mark($0, base: base) }
            }
            for (node, typos) in matches.whole {
                trie.withPostings(of: node) { mark($0, base: UInt8(typos) * 8) }
            }
        }
        return codes
    }

    /// Whether a term reaches one slot in sixteen (roughly: nested typo
    /// nodes count twice) in an index large enough for code maps: probing
    /// its token runs would cost more than reading its code map.
    func isBroad(_ matches: TokenTrie.TermMatches) -> Bool {
        guard documents.count >= fieldMapQueryMinimumSlots,
            matches.prefix.values.allSatisfy({ $0 <= 3 }), matches.whole.values.allSatisfy({ $0 <= 3 })
        else { return false }
        let reach = matches.prefix.keys.reduce(0) { $0 + trie[$1].documentCount }
            + matches.whole.keys.reduce(0) { $0 + trie[$1].postingList.count }
        return reach * 16 >= documents.count
    }

    /// Answers a query of several broad terms from code maps, or nil when a
    /// term is narrow enough for the scan to be cheaper (it then probes only
    /// that term's documents).
    func searchByFieldMaps(terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery) -> SearchResponse? {
        let slotCount = documents.count
        guard scanEnabled, terms.count >= 2, terms.count <= 8, query.domains.isEmpty,
            slotCount > 0, slotCount >= fieldMapQueryMinimumSlots
        else { return nil }
        guard matches.allSatisfy({ isBroad($0) }) else { return nil }

        let codeMaps = terms.indices.map { index in
            termMatches.codeMap(for: terms[index]) { termCodeMap(matches[index]) }
        }
        let now = query.now.timeIntervalSinceReferenceDate
        let limit = max(0, query.limit)
        // Each slot's rule values as one number that orders as they do:
        // typos × 225 + non-whole terms × 25 + field sum (at most 8 terms of
        // at most 3 typos stay below `missed`; one miss reaches it).
        var rules = [UInt16](repeating: 0, count: slotCount)
        let missed = Self.rulesValue(of: TermProbe.miss)
        let workers = slotCount >= parallelScanMinimum ? Self.workerCount : 1
        /// Runs `body` on every part of the slots, in parallel, each with its own result.
        func eachPart<R>(_ body: (Range<Int>) -> R) -> [R] { Self.inParts(of: slotCount, workers: workers, body) }
        let documentsView = documents
        var kept = KeptCandidates(limit: limit)
        rules.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let rules = buffer
            // Term by term, each a plain loop over bytes (vectorised); then,
            // on each part, the total and a histogram of the values below
            // `histogramCap` (four interleaved, so that runs of equal values
            // do not wait on each other's increments), with the least value
            // at or above it.
            let histogramCap = 1_024
            let lanes = 4
            let firsts = codeMaps.withUnsafeBufferPointer { codeMaps in
                eachPart { part -> (total: Int, histogram: [Int32], leastAbove: UInt16) in
                    for map in codeMaps {
                        map.withUnsafeBufferPointer { map in
                            for slot in part { rules[slot] &+= Self.rulesValue(of: map[slot]) }
                        }
                    }
                    var total = 0
                    var leastAbove = UInt16.max
                    var histogram = [Int32](repeating: 0, count: lanes * (histogramCap + 1))
                    histogram.withUnsafeMutableBufferPointer { histogram in
                        for slot in part {
                            let value = rules[slot]
                            total += value < missed ? 1 : 0
                            let bucket = value < histogramCap ? Int(value) : histogramCap
                            histogram[(slot & (lanes - 1)) * (histogramCap + 1) + bucket] += 1
                            let above = value >= histogramCap ? value : .max
                            leastAbove = above < leastAbove ? above : leastAbove
                        }
                    }
                    return (total, histogram, leastAbove)
                }
            }
            kept.total = firsts.reduce(0) { $0 + $1.total }
            var counts = [Int](repeating: 0, count: histogramCap)
            for first in firsts {
                for lane in 0..<lanes {
                    for value in 0..<histogramCap { counts[value] += Int(first.histogram[lane * (histogramCap + 1) + value]) }
                }
            }
            for slot in expiringDocuments where expirations[Int(slot)] <= now {
                let value = rules[Int(slot)]
                if value < missed { kept.total -= 1 }
                if value < histogramCap { counts[Int(value)] -= 1 }
                rules[Int(slot)] = .max
            }
            guard limit > 0 else { return }
            // The least value `bound` that at least `limit` matches reach:
            // nothing above it can be among the results. Read off the
            // histogram when it lies below the cap; past it, found a value at
            // a time (a pass each), which only a query whose matches nearly
            // all carry typos or poor fields needs.
            var bound: UInt16 = 0
            var reached = 0
            for value in 0..<histogramCap where counts[value] > 0 && reached < limit {
                bound = UInt16(value)
                reached += counts[value]
            }
            var next = firsts.map(\.leastAbove).min() ?? .max
            while next < missed, reached < limit {
                bound = next
                let counts = eachPart { [bound] part -> (reached: Int, next: UInt16) in
                    var reached = 0
                    var next = UInt16.max
                    for slot in part {
                        let value = rules[slot]
                        reached &+= value <= bound ? 1 : 0
                        let above = value > bound ? value : .max
                        next = above < next ? above : next
                    }
                    return (reached, next)
                }
                reached = counts.reduce(0) { $0 + $1.reached }
                next = counts.map(\.next).min() ?? .max
            }
            guard reached > 0 else { return }
            ranks.withUnsafeBufferPointer { ranks in
            rankTiers.withUnsafeBufferPointer { tiers in
            engagedSlots.withUnsafeBufferPointer { engagedSlots in
                let precedes = Self.packedOrder(ranks: ranks, documents: documentsView)
                let collected = eachPart { [bound] part -> KeptCandidates in
                    var kept = KeptCandidates(limit: limit)
                    for slot in part where rules[slot] <= bound {
                        let value = UInt64(rules[slot])
                        let ruleBits = (value / 225) << 56 | (value % 225 / 25) << 48 | (value % 25) << 40
                        if engagedSlots[slot] {
                            let rank = ranks[slot]
                            kept.engaged.append(PackedCandidate(
                                key: ruleBits | UInt64(255 - rank.sources) << 32 | UInt64(rank.titleLength), doc: UInt32(slot)))
                            continue
                        }
                        // A broad query has hundreds of thousands of matches at
                        // its bound ("cozo l"): most are turned away by their
                        // tier, without their rank (whose loads were two
                        // thirds of this pass).
                        if kept.isFull,
                            Self.isBeaten(ruleBits: ruleBits, slot: slot, worst: kept.heap[0], tiers: tiers, ranks: ranks)
                        {
                            continue
                        }
                        let rank = ranks[slot]
                        kept.offer(PackedCandidate(
                            key: ruleBits | UInt64(255 - rank.sources) << 32 | UInt64(rank.titleLength), doc: UInt32(slot)),
                            precedes: precedes)
                    }
                    return kept
                }
                // Parts kept no totals (counted above): only their best are merged.
                for part in collected { kept.absorb(part, precedes: precedes) }
            }}}
        }
        let probes = matches.compactMap { TermProbe(matches: $0, trie: trie) }
        return response(
            from: kept, terms: terms, matches: matches, probes: probes.count == terms.count ? probes : nil, query: query)
    }
}
