import Foundation
import SearchSupport

/// Ranked search by scanning flat per-document tokens.
///
/// Candidates come from a driving term, the one that makes the whole query
/// cheapest: its postings unless they outnumber the slots severalfold, with
/// that term's best hit read off them; otherwise every document slot (a
/// scan in memory order beats gathering most of the index). Each candidate
/// is then checked against the other terms with `TermProbe`s over its run
/// in the `TokenArena`, which reads a few dozen contiguous words and no
/// `Document`. What matches goes to the `ResultCollector`; once its heap
/// is full, a document whose key cannot beat the worst kept is only
/// counted. Many candidates are split between the cores, each part with a
/// collector of its own, merged after.
extension SearchEngine {
    /// Answers the query by scanning, or nil when a term is too fuzzy for
    /// probes; the caller has planned it (`QueryPlan.Strategy.scan`).
    func searchByScan(terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery) -> SearchResponse? {
        guard tuning.scanEnabled, terms.count <= Self.scanTermLimit,
            let order = scanOrder(terms: terms, matches: matches)
        else { return nil }
        let candidates = scanCandidates(order, terms: terms, matches: matches)
        let kept = withScanPass(order, candidates, query: query) { pass in
            pass.run(workers: pass.candidateCount >= tuning.parallelCandidateMinimum ? Self.workerCount : 1)
        }
        return response(from: kept, terms: terms, matches: matches, probes: order.termOrderProbes, query: query)
    }

    /// The order a scan reads a query's terms in, and how it reads each.
    struct ScanOrder {
        /// Term indexes in probing order: the driver first, then the most selective.
        var order: [Int]
        /// Each term's estimated postings, in term order.
        var estimates: [Int]
        /// The probes in probing order, and in term order.
        var probes: [TermProbe]
        var termOrderProbes: [TermProbe]
        /// In probing order: the codes a term is read from per candidate
        /// (its code map, or the field maps it would be merged from), or
        /// nil when it is probed; these hold the lookups' bytes alive.
        var codes: [TermCodeMap?]
        var lookups: [SlotCodeLookup?]

        var driverIndex: Int { order[0] }
    }

    /// Chooses the driving term, the one whose postings make the whole
    /// query cheapest (often a term with typos: its probe costs most), and
    /// probes the most selective terms first. A broad term ("h" in "daio
    /// h"), or one whose code map a recent keystroke built ("leyfa" while
    /// "leyfa v" became "leyfa vet"), is looked up per candidate in its
    /// code map, or in the field maps it would be merged from, not probed
    /// (a probe reads the candidate's token run, a cache miss or two away).
    /// A map is built only once the term is known not to drive, and only
    /// when its field maps do not cover it. Nil when a term cannot be probed.
    func scanOrder(terms: [String], matches: [TokenTrie.TermMatches]) -> ScanOrder? {
        var probes: [TermProbe] = []
        for match in matches {
            guard let probe = TermProbe(matches: match, trie: trie) else { return nil }
            probes.append(probe)
        }
        let estimates = matches.map { $0.estimatedPostings(in: trie) }
        let slotCount = max(1, documents.count)
        let knownMaps = terms.map { termMatches.knownCodeMap(for: $0) }
        let mapped = terms.indices.map { knownMaps[$0] != nil || isBroad(matches[$0]) }
        func cost(drivenBy driver: Int) -> Double {
            let candidates = Double(min(estimates[driver], slotCount))
            let probing = probes.indices.filter { $0 != driver }.reduce(0.0) {
                $0 + (mapped[$1] ? 0.1 : probes[$1].relativeCost)
            }
            return Double(estimates[driver]) + candidates * probing
        }
        let driverIndex = probes.indices.min { cost(drivenBy: $0) < cost(drivenBy: $1) }!
        let order = [driverIndex] + probes.indices.filter { $0 != driverIndex }.sorted { estimates[$0] < estimates[$1] }
        let codes = order.map { index -> TermCodeMap? in
            guard index != driverIndex, mapped[index] else { return knownMaps[index] }
            return termCodes(of: terms[index], matches: matches[index])
        }
        let lookups = codes.map { $0.map(SlotCodeLookup.init(map:)) }
        return ScanOrder(
            order: order, estimates: estimates, probes: order.map { probes[$0] }, termOrderProbes: probes,
            codes: codes, lookups: lookups)
    }

    /// A scan's candidates: every slot, or the driver's documents with its code for each.
    struct ScanCandidateList {
        var isEverySlot: Bool
        var slots: [UInt32] = []
        var codes: [UInt8] = []
    }

    /// The driver's candidates (remembered: while the next word is typed,
    /// the same term drives), less those a probed term with few postings
    /// beside many candidates ("hamf" in "daio hamf") strikes out first,
    /// by a bit per slot marked from its postings: a mark is a read in a
    /// list, a probe a cache miss or two into the candidate's token run.
    /// Those struck out would have missed that term's probe: nothing else
    /// changes.
    func scanCandidates(_ order: ScanOrder, terms: [String], matches: [TokenTrie.TermMatches]) -> ScanCandidateList {
        let driver = order.driverIndex
        let found = termMatches.scanCandidates(for: terms[driver]) {
            scanCandidates(driver: matches[driver], estimate: order.estimates[driver])
        }
        guard case .coded(var slots, var codes) = found else { return ScanCandidateList(isEverySlot: true) }
        for term in 1..<order.order.count where order.codes[term] == nil
            && order.estimates[order.order[term]] <= EngineTuning.prefilterRatio * slots.count
        {
            let probed = matches[order.order[term]]
            let bits = documentBits(of: probed, roots: trie.topmost(of: probed.prefix)).bits
            var kept = 0
            for position in slots.indices {
                let slot = Int(slots[position])
                guard bits[slot >> 6] & (1 << UInt64(slot & 63)) != 0 else { continue }
                slots[kept] = slots[position]
                codes[kept] = codes[position]
                kept += 1
            }
            slots.removeLast(slots.count - kept)
            codes.removeLast(codes.count - kept)
        }
        return ScanCandidateList(isEverySlot: false, slots: slots, codes: codes)
    }

    /// Binds every buffer a scan reads, once, for `body`.
    func withScanPass<R>(
        _ order: ScanOrder, _ candidates: ScanCandidateList, query: SearchQuery, _ body: (ScanPass) -> R
    ) -> R {
        let now = query.now.timeIntervalSinceReferenceDate
        return withExtendedLifetime(order.codes) {
        order.lookups.withUnsafeBufferPointer { lookups in
        order.probes.withUnsafeBufferPointer { probes in
        tokens.words.withUnsafeBufferPointer { words in
        tokens.starts.withUnsafeBufferPointer { starts in
        tokens.counts.withUnsafeBufferPointer { counts in
        expirations.withUnsafeBufferPointer { expirations in
        ranks.withUnsafeBufferPointer { ranks in
        rankTiers.withUnsafeBufferPointer { tiers in
        engagedSlots.withUnsafeBufferPointer { engagedSlots in
        candidates.slots.withUnsafeBufferPointer { candidateSlots in
        candidates.codes.withUnsafeBufferPointer { candidateCodes in
            body(ScanPass(
                lookups: lookups, probes: probes, words: words, starts: starts, counts: counts,
                expirations: expirations, ranks: ranks, tiers: tiers, engagedSlots: engagedSlots,
                candidateSlots: candidateSlots, candidateCodes: candidateCodes, coded: !candidates.isEverySlot,
                candidateCount: candidates.isEverySlot ? documents.count : candidates.slots.count,
                trie: trie, documents: documents, query: query, now: now, checkExpiry: !nothingHasExpired(at: now),
                limit: max(0, query.limit), precedes: Self.packedOrder(ranks: ranks, documents: documents)))
        }}}}}}}}}}}}
    }

    /// Runs `body` on `workers` contiguous parts of `0..<count` at once (on
    /// the calling thread alone for one), returning each part's result in
    /// order. Every part but the last starts and ends at a multiple of
    /// `alignment`.
    static func inParts<R>(of count: Int, workers: Int, alignedTo alignment: Int = 1, _ body: (Range<Int>) -> R) -> [R] {
        func edge(_ part: Int) -> Int { part == workers ? count : count * part / workers / alignment * alignment }
        let parts = (0..<workers).map { edge($0)..<edge($0 + 1) }
        guard workers > 1 else { return [body(parts[0])] }
        var results = [R?](repeating: nil, count: workers)
        results.withUnsafeMutableBufferPointer { results in
            nonisolated(unsafe) let out = results
            nonisolated(unsafe) let run = body
            if workers == 2 {
                ParallelWork.both({ out[0] = run(parts[0]) }, { out[1] = run(parts[1]) })
            } else {
                DispatchQueue.concurrentPerform(iterations: workers) { out[$0] = run(parts[$0]) }
            }
        }
        return results.map { $0! }
    }

    /// Whether a candidate whose rule values give `ruleBits` (the key's
    /// bits above the static rank) ranks after `worst`, the worst kept:
    /// told by the rules, else by the rank tiers, and only when those are
    /// equal by `slot`'s 16-byte rank. Equal keys are not beaten: the
    /// identifiers decide.
    @inline(__always)
    static func isBeaten(
        ruleBits: UInt64, slot: Int, worst: PackedCandidate,
        tiers: UnsafeBufferPointer<UInt8>, ranks: UnsafeBufferPointer<StaticRank>
    ) -> Bool {
        let worstRules = worst.key & ~0xff_ffff_ffff
        if ruleBits != worstRules { return ruleBits > worstRules }
        let tier = tiers[slot], worstTier = tiers[Int(worst.doc)]
        if tier != worstTier { return tier > worstTier }
        let rank = ranks[slot]
        return ruleBits | rank.keyBits > worst.key
    }

    /// Gathered candidates whose token runs are read ahead together
    /// (`touchRuns`), so their cache misses overlap.
    static let touchRunLength = 32

    /// A bit per document slot, set where the term matches: a token under
    /// one of `roots` (its topmost prefix nodes, `TokenTrie.topmost(of:)`:
    /// a nested node's postings are already under its ancestor's), or at
    /// one of its whole-word nodes; and how many slots are set.
    ///
    /// Slots are counted as they are marked (a bit newly set adds one, with
    /// no branch), not by a second pass over every word, however few the
    /// term's postings.
    ///
    /// With `outside`, a subtree among `roots` read as a map and a residual
    /// (`subtreeCover`), slots holding a token of that subtree are left
    /// unset and uncounted, and its postings in the map unread (see
    /// `matchCount`): the other matches' slots are set where the map holds
    /// none, then the residual's slots cleared.
    func documentBits(
        of matches: TokenTrie.TermMatches, roots: [Int32], outside base: (node: Int32, cover: SubtreeCover)? = nil
    ) -> (bits: [UInt64], count: Int) {
        var bits = [UInt64](repeating: 0, count: (documents.count + 63) / 64)
        var count = 0
        bits.withUnsafeMutableBufferPointer { bits in
            guard let base else {
                func mark(_ postings: UnsafeBufferPointer<TokenTrie.Posting>) { Self.setBits(of: postings, in: bits, count: &count) }
                for root in roots { trie.forEachPostingList(under: root, mark) }
                for node in matches.whole.keys { trie.withPostings(of: node, mark) }
                return
            }
            base.cover.map.bytes.withUnsafeBufferPointer { map in
                let covered = base.cover.map.count
                func markOutside(_ postings: UnsafeBufferPointer<TokenTrie.Posting>) {
                    Self.setBits(of: postings, outside: map, covering: covered, in: bits, count: &count)
                }
                for root in roots where root != base.node { trie.forEachPostingList(under: root, markOutside) }
                for node in matches.whole.keys where !trie.isAncestor(base.node, of: node) {
                    trie.withPostings(of: node, markOutside)
                }
            }
            base.cover.residual.withUnsafeBufferPointer { Self.clearBits(of: $0, in: bits, count: &count) }
        }
        return (bits, count)
    }

    /// Sets the bit of each posting's slot, counting those that were
    /// clear (no branch).
    @inline(__always)
    static func setBits(of postings: UnsafeBufferPointer<TokenTrie.Posting>, in bits: UnsafeMutableBufferPointer<UInt64>, count: inout Int) {
        for posting in postings { setBit(Int(posting.doc), in: bits, count: &count) }
    }

    /// Sets `slot`'s bit, counting it when it was clear (no branch).
    @inline(__always)
    private static func setBit(_ slot: Int, in bits: UnsafeMutableBufferPointer<UInt64>, count: inout Int) {
        let word = slot >> 6, shift = UInt64(slot & 63)
        let old = bits[word]
        count &+= Int(truncatingIfNeeded: ~old >> shift & 1)
        bits[word] = old | 1 << shift
    }

    /// The same, each slot below `covered` that `map` gives a field left out.
    @inline(__always)
    static func setBits(
        of postings: UnsafeBufferPointer<TokenTrie.Posting>, outside map: UnsafeBufferPointer<UInt8>, covering covered: Int,
        in bits: UnsafeMutableBufferPointer<UInt64>, count: inout Int
    ) {
        for posting in postings {
            let slot = Int(posting.doc)
            if slot < covered, FieldMap.half(of: slot, in: map) != FieldMap.none { continue }
            setBit(slot, in: bits, count: &count)
        }
    }

    /// Clears the bit of each posting's slot, counting down those that were set.
    static func clearBits(of postings: UnsafeBufferPointer<TokenTrie.Posting>, in bits: UnsafeMutableBufferPointer<UInt64>, count: inout Int) {
        for posting in postings {
            let slot = Int(posting.doc)
            let word = slot >> 6, bit: UInt64 = 1 << UInt64(slot & 63)
            let old = bits[word]
            count &-= old & bit == 0 ? 0 : 1
            bits[word] = old & ~bit
        }
    }

    /// The runs a shared marking of `matches` takes (`SharedMarking`), as
    /// `documentBits` marks them: the ordered ranges of the roots but
    /// `base`, and the whole nodes outside it. Nil when the trie is not
    /// ordered (a node made since the last reorder).
    func sharedMarking(of matches: TokenTrie.TermMatches, roots: [Int32], outside base: Int32?) -> SharedMarking? {
        guard trie.allNodesOrdered else { return nil }
        var ranges: [Range<Int>] = []
        for root in roots where root != base {
            let range = trie.orderedRange(of: root)
            ranges.append(Int(range.low)..<Int(range.high))
        }
        for node in matches.whole.keys where base.map({ !trie.isAncestor($0, of: node) }) ?? true {
            ranges.append(Int(node)..<(Int(node) + 1))
        }
        return SharedMarking(runs: SharedMarking.runs(of: ranges), slots: documents.count)
    }

    /// Marks the runs this thread (`thread`, 0 or 1) takes from `marking`,
    /// a bit a slot, each slot `base`'s map covers left out.
    func mark(_ marking: SharedMarking, thread: Int, outside base: SubtreeCover?) {
        guard let first = marking.takeRun() else { return }
        var bits = [UInt64](repeating: 0, count: marking.words)
        var count = 0
        bits.withUnsafeMutableBufferPointer { bits in
            guard let base else {
                var run: Range<Int>? = first
                while let nodes = run {
                    trie.forEachPostingList(inNodes: nodes) { Self.setBits(of: $0, in: bits, count: &count) }
                    run = marking.takeRun()
                }
                return
            }
            base.map.bytes.withUnsafeBufferPointer { map in
                let covered = base.map.count
                var run: Range<Int>? = first
                while let nodes = run {
                    trie.forEachPostingList(inNodes: nodes) {
                        Self.setBits(of: $0, outside: map, covering: covered, in: bits, count: &count)
                    }
                    run = marking.takeRun()
                }
            }
        }
        marking.finish(thread: thread, bits: bits, count: count)
    }

    /// The sets of a shared marking merged, as `documentBits` returns its
    /// own: with `base`'s residual (postings its map does not hold) cleared.
    func mergedBits(_ marking: SharedMarking, outside base: SubtreeCover?) -> (bits: [UInt64], count: Int) {
        var (bits, count, other, otherCount) = marking.takeBits()
        if bits.isEmpty { (bits, count, other, otherCount) = (other, otherCount, [], 0) }
        if bits.isEmpty { bits = [UInt64](repeating: 0, count: marking.words) }
        bits.withUnsafeMutableBufferPointer { bits in
            // Both threads marked: the union counted whole (a marked slot
            // may be in both sets).
            if !other.isEmpty {
                count = 0
                other.withUnsafeBufferPointer { other in
                    for index in other.indices {
                        bits[index] |= other[index]
                        count &+= bits[index].nonzeroBitCount
                    }
                }
            }
            base?.residual.withUnsafeBufferPointer { Self.clearBits(of: $0, in: bits, count: &count) }
        }
        return (bits, count)
    }

    /// Where the scan looks.
    enum ScanCandidates: Sendable {
        case everySlot
        /// Distinct slots, ascending, each with the driving term's best hit
        /// code there (known from the postings, so it is not probed again).
        case coded(slots: [UInt32], codes: [UInt8])

        var isEverySlot: Bool {
            if case .everySlot = self { return true }
            return false
        }
    }

    /// Puts `pairs` (a slot above a code byte, the slot below
    /// `1 << slotBits`) in slot order, the codes of one slot in any
    /// order: a least-significant-digit radix sort of the slots, in passes
    /// of at most eleven bits (the counts to clear at each pass stay a
    /// few kilobytes), cheaper than a comparison sort of a few thousand pairs.
    static func sortBySlot(_ pairs: inout [UInt64], slotBits: Int) {
        let count = pairs.count
        guard count > 1 else { return }
        let passes = (max(1, slotBits) + 10) / 11
        let digitBits = (max(1, slotBits) + passes - 1) / passes, digits = 1 << digitBits
        var other = [UInt64](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: digits) { starts in
            var shift = 8
            while shift < 8 + slotBits {
                pairs.withUnsafeMutableBufferPointer { source in
                    other.withUnsafeMutableBufferPointer { target in
                        starts.initialize(repeating: 0)
                        let mask = UInt64(digits - 1)
                        for pair in source { starts[Int(pair >> UInt64(shift) & mask)] &+= 1 }
                        var sum = 0
                        for digit in 0..<digits {
                            let digitCount = starts[digit]
                            starts[digit] = sum
                            sum &+= digitCount
                        }
                        for pair in source {
                            let digit = Int(pair >> UInt64(shift) & mask)
                            target[starts[digit]] = pair
                            starts[digit] &+= 1
                        }
                    }
                }
                swap(&pairs, &other)
                shift += digitBits
            }
        }
    }

    /// The slots holding a token the driving term reaches, with the term's
    /// best hit in each, or every slot when that is most of the index anyway.
    func scanCandidates(driver: TokenTrie.TermMatches, estimate: Int) -> ScanCandidates {
        let slotCount = documents.count
        // Gathering costs a random write per posting; scanning, a probe of
        // every token of every slot (a few dozen each, more for a term with
        // typos): gather unless the postings outnumber the slots severalfold.
        if estimate >= 8 * slotCount { return .everySlot }
        /// Calls `body` with every posting list the term reaches and the hit
        /// code of a posting there before its field is added.
        func forEachList(_ body: (UnsafeBufferPointer<TokenTrie.Posting>, UInt8) -> Void) {
            for (root, typos) in driver.prefix {
                let base = UInt8(typos) * 8 + 4
                trie.forEachPostingList(under: root) { body($0, base) }
            }
            for (node, typos) in driver.whole {
                let base = UInt8(typos) * 8
                trie.withPostings(of: node) { body($0, base) }
            }
        }
        var slots: [UInt32] = []
        var codes: [UInt8] = []
        if estimate <= tuning.sortedGatherLimit {
            // Few: (slot, code) pairs put in slot order, the least code
            // of each slot kept.
            var pairs: [UInt64] = []
            pairs.reserveCapacity(estimate)
            forEachList { postings, base in
                for posting in postings { pairs.append(UInt64(posting.doc) << 8 | UInt64(base + posting.field)) }
            }
            Self.sortBySlot(&pairs, slotBits: Int.bitWidth - max(1, slotCount - 1).leadingZeroBitCount)
            slots.reserveCapacity(pairs.count)
            codes.reserveCapacity(pairs.count)
            for pair in pairs {
                let slot = UInt32(pair >> 8), code = UInt8(truncatingIfNeeded: pair)
                if slots.last == slot {
                    codes[codes.count - 1] = min(codes[codes.count - 1], code)
                } else {
                    slots.append(slot)
                    codes.append(code)
                }
            }
            return .coded(slots: slots, codes: codes)
        }
        // Many: the best code per slot in a borrowed byte map, and a bit
        // per slot met (`SlotScratch`); then the bits read in order, each
        // slot's code taken and its byte put back. (A byte map made for
        // the query would be a byte a slot cleared and read whole, for the
        // few percent of it the postings touch.)
        slots.reserveCapacity(min(estimate, slotCount))
        codes.reserveCapacity(min(estimate, slotCount))
        Self.slotScratch.withMaps(slots: slotCount) { best, met in
            forEachList { postings, base in
                for posting in postings {
                    let slot = Int(posting.doc)
                    let code = base &+ posting.field
                    let seen = best[slot]
                    best[slot] = code < seen ? code : seen
                    met[slot >> 6] |= 1 << UInt64(slot & 63)
                }
            }
            for index in 0..<((slotCount + 63) / 64) {
                var word = met[index]
                guard word != 0 else { continue }
                met[index] = 0
                repeat {
                    let slot = index << 6 | word.trailingZeroBitCount
                    word &= word &- 1
                    slots.append(UInt32(slot))
                    codes.append(best[slot])
                    best[slot] = TermProbe.miss
                } while word != 0
            }
        }
        return .coded(slots: slots, codes: codes)
    }
}
