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
///  bits 63…56   55…48      47…40    39…32   31…0
///       typos   non-whole  fields   0       the static rank (`StaticRank.keyBits`: hint, sources, title length)
/// ```
///
/// which orders as `RankingKey` does when engagement is zero (ties go to
/// the identifier). Documents with views are ranked with their full key and
/// merged in at the end; there are few of them. Once the heap is full, a
/// document whose key cannot beat its worst is only counted. Many
/// candidates are split between the cores, each part with its own heap and
/// count, merged after.
extension SearchEngine {
    /// A candidate in the heap: its packed key and slot.
    struct PackedCandidate {
        var key: UInt64
        var doc: UInt32
    }

    /// Answers the query by scanning, or nil when a term is too fuzzy for
    /// probes (the caller then enumerates with node caches).
    func searchByScan(terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery) -> SearchResponse? {
        guard tuning.scanEnabled, terms.count <= Self.scanTermLimit else { return nil }
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
        // A broad term ("h" in "daio h"), or one whose code map a recent
        // keystroke built ("leyfa" while "leyfa v" became "leyfa vet"), is
        // looked up per candidate in its code map, or in the field maps it
        // would be merged from, not probed: a probe reads the candidate's
        // token run, a cache miss or two away at a million items, and then
        // every token of it.
        // A map is built only once the term is known not to drive, and
        // only when its field maps do not cover it (`mappedTermCodes`).
        let knownMaps = terms.map { termMatches.knownCodeMap(for: $0)?.codes }
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
        let termOrderProbes = probes
        probes = order.map { probes[$0] }
        // The terms read per candidate: from a code map, or from the field
        // maps a code map would be merged from (`MappedTermCodes`).
        let orderedCodes = order.map { index -> TermCodes? in
            guard index != driverIndex, mapped[index] else { return knownMaps[index].map { .map($0) } }
            return termCodes(of: terms[index], matches: matches[index])
        }
        let driver = matches[driverIndex]
        // Held alive by `orderedCodes` until the scan is done.
        let termLookups = orderedCodes.map { codes -> SlotCodeLookup? in
            switch codes {
            case .map(let map)?: map.withUnsafeBufferPointer { $0.baseAddress }.map(SlotCodeLookup.init(codes:))
            case .mapped(let mapped)?: SlotCodeLookup(mapped: mapped)
            case nil: nil
            }
        }

        let now = query.now.timeIntervalSinceReferenceDate
        let checkExpiry = !nothingHasExpired(at: now)
        let limit = max(0, query.limit)
        var kept = KeptCandidates(limit: limit)
        // Remembered: while the next word is typed, the same term drives.
        let candidates = termMatches.scanCandidates(for: terms[driverIndex]) {
            scanCandidates(driver: driver, estimate: estimates[driverIndex])
        }
        var (candidateSlots, candidateCodes): ([UInt32], [UInt8]) = switch candidates {
        case .everySlot: ([], [])
        case .coded(let slots, let codes): (slots, codes)
        }
        // A probed term with few postings beside many candidates ("hamf" in
        // "daio hamf": 22k postings, 15k candidates, 343 matches) first
        // strikes out the candidates it cannot match, by a bit per slot
        // marked from its postings: a mark is a read in a list, a probe a
        // cache miss or two into the candidate's token run. Those struck
        // out would have missed that term's probe: nothing else changes.
        if !candidates.isEverySlot {
            for term in 1..<order.count where orderedCodes[term] == nil
                && estimates[order[term]] <= EngineTuning.prefilterRatio * candidateSlots.count
            {
                let bits = documentBits(of: matches[order[term]], roots: trie.topmost(of: matches[order[term]].prefix)).bits
                var kept = 0
                for position in candidateSlots.indices {
                    let slot = Int(candidateSlots[position])
                    guard bits[slot >> 6] & (1 << UInt64(slot & 63)) != 0 else { continue }
                    candidateSlots[kept] = candidateSlots[position]
                    candidateCodes[kept] = candidateCodes[position]
                    kept += 1
                }
                candidateSlots.removeLast(candidateSlots.count - kept)
                candidateCodes.removeLast(candidateCodes.count - kept)
            }
        }
        let candidateCount = candidates.isEverySlot ? documents.count : candidateSlots.count
        let filters = query.restricts
        let trieView = self.trie
        let documentsView = documents
        // One loop over unsafe views bound once: reading an array through
        // `self` in the loop retains it, and a nested function capturing a
        // variable pays a dynamic exclusivity check on every access, which
        // matters a million times over.
        withExtendedLifetime(orderedCodes) {
        termLookups.withUnsafeBufferPointer { lookups in
        probes.withUnsafeBufferPointer { probes in
        tokens.words.withUnsafeBufferPointer { words in
        tokens.starts.withUnsafeBufferPointer { starts in
        tokens.counts.withUnsafeBufferPointer { counts in
        expirations.withUnsafeBufferPointer { expirations in
        ranks.withUnsafeBufferPointer { ranks in
        rankTiers.withUnsafeBufferPointer { tiers in
        engagedSlots.withUnsafeBufferPointer { engagedSlots in
        candidateSlots.withUnsafeBufferPointer { candidateSlots in
        candidateCodes.withUnsafeBufferPointer { candidateCodes in
            let coded = !candidates.isEverySlot
            let precedes = Self.packedOrder(ranks: ranks, documents: documentsView)
            /// Scans the candidates at `positions` into `kept`: gathered
            /// candidates a run of `touchRunLength` at a time, each run's
            /// reads made first (`touchRuns`).
            func scan(_ positions: Range<Int>, into kept: inout KeptCandidates) {
                guard coded else { return scanRun(positions, into: &kept) }
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.touchRunLength) { touchedStarts in
                    var sink: UInt32 = 0
                    var runStart = positions.lowerBound
                    while runStart < positions.upperBound {
                        let run = runStart..<min(positions.upperBound, runStart + Self.touchRunLength)
                        sink &+= touchRuns(run, starts: touchedStarts)
                        scanRun(run, into: &kept)
                        runStart = run.upperBound
                    }
                    keepValue(sink)
                }
            }
            /// Reads, for the gathered candidates at `positions`, their
            /// token runs' starts and counts, their rank tiers (which
            /// `isBeaten` reads), and the first word of each run, in two
            /// tight passes (a pass for each step of the chain, as
            /// `gather`): the candidates lie far apart, and met one at a
            /// time in `scanRun` each was two or three cache misses after
            /// another. Returns a sum of what it read, for `keepValue`.
            func touchRuns(_ positions: Range<Int>, starts touched: UnsafeMutableBufferPointer<UInt32>) -> UInt32 {
                var sink: UInt32 = 0
                for position in positions {
                    let slot = Int(candidateSlots[position])
                    // Past the columns: no run, and a start no word has.
                    guard slot < counts.count else { touched[position - positions.lowerBound] = .max; continue }
                    touched[position - positions.lowerBound] = starts[slot]
                    sink &+= counts[slot] &+ UInt32(slot < tiers.count ? tiers[slot] : 0)
                }
                for start in touched[..<positions.count] where Int(start) < words.count { sink &+= words[Int(start)] }
                return sink
            }
            /// Scans the candidates at `positions` into `kept`, one by one.
            func scanRun(_ positions: Range<Int>, into kept: inout KeptCandidates) {
            candidateLoop: for position in positions {
                // `driverCode`, when known, stands for the first probe.
                let slot = coded ? candidateSlots[position] : UInt32(position)
                let driverCode: UInt8? = coded ? candidateCodes[position] : nil
                let slotIndex = Int(slot)
                guard slotIndex < counts.count, counts[slotIndex] > 0,
                    !checkExpiry || slotIndex >= expirations.count || expirations[slotIndex] > now
                else { continue }
                let start = Int(starts[slotIndex])
                let span = start..<(start + Int(counts[slotIndex]))
                let engagedSlot = engagedSlots[slotIndex]
                // Once the heap is full, a document whose key cannot beat its
                // worst even if every other term hit a whole title word is
                // only counted: its probes stop at the first matching token.
                // Its rank's tier tells without the rank itself most of the
                // time (`isBeaten`).
                if kept.isFull, !engagedSlot, !filters {
                    let driverKey = driverCode.map {
                        UInt64($0 >> 3) << 56 | UInt64(($0 >> 2) & 1) << 48 | UInt64($0 & 3) << 40
                    } ?? 0
                    if limit == 0 || Self.isBeaten(
                        ruleBits: driverKey, slot: slotIndex, worst: kept.heap[0], tiers: tiers, ranks: ranks)
                    {
                        for term in probes.indices where !(term == 0 && driverCode != nil) {
                            if let lookup = lookups[term] {
                                if lookup[slotIndex] == TermProbe.miss { continue candidateLoop }
                            } else if !probes[term].matchesAny(in: span, words: words, trie: trieView) {
                                continue candidateLoop
                            }
                        }
                        kept.total += 1
                        continue
                    }
                }
                var typos: UInt64 = 0, prefixOnly: UInt64 = 0, fieldSum: UInt64 = 0
                for term in probes.indices {
                    let code = term == 0 && driverCode != nil
                        ? driverCode!
                        : lookups[term].map { $0[slotIndex] }
                            ?? probes[term].bestCode(in: span, words: words, trie: trieView)
                    if code == TermProbe.miss { continue candidateLoop }
                    typos += UInt64(code >> 3)
                    prefixOnly += UInt64((code >> 2) & 1)
                    fieldSum += UInt64(code & 3)
                }
                if filters {
                    guard let document = documents[slotIndex], query.admits(document) else { continue }
                }
                kept.total += 1
                guard limit > 0 else { continue }
                let candidate = PackedCandidate(
                    key: typos << 56 | prefixOnly << 48 | fieldSum << 40 | ranks[slotIndex].keyBits, doc: slot)
                if engagedSlot {
                    kept.engaged.append(candidate)
                } else {
                    kept.offer(candidate, precedes: precedes)
                }
            }
            }
            /// The same when every term after the driver is read from its
            /// code map: a candidate costs a byte per term, and its static
            /// rank (a cache miss at a million items) only when its rule
            /// values could enter the heap; its token run is never read.
            let packedCodes = Self.packedCodeKeys
            func lookUp(_ positions: Range<Int>, into kept: inout KeptCandidates) {
            candidateLoop: for position in positions {
                let slotIndex = Int(candidateSlots[position])
                var codeKey = packedCodes[Int(candidateCodes[position])]
                for term in 1..<lookups.count {
                    let code = lookups[term]![slotIndex]
                    if code == TermProbe.miss { continue candidateLoop }
                    codeKey &+= packedCodes[Int(code)]
                }
                if checkExpiry, expirations[slotIndex] <= now { continue }
                kept.total += 1
                guard limit > 0 else { continue }
                let engagedSlot = engagedSlots[slotIndex]
                if !engagedSlot, kept.isFull,
                    Self.isBeaten(ruleBits: codeKey, slot: slotIndex, worst: kept.heap[0], tiers: tiers, ranks: ranks)
                {
                    continue
                }
                let rank = ranks[slotIndex]
                let candidate = PackedCandidate(
                    key: codeKey | rank.keyBits, doc: UInt32(slotIndex))
                if engagedSlot {
                    kept.engaged.append(candidate)
                } else {
                    kept.offer(candidate, precedes: precedes)
                }
            }
            }
            let lookingUp = coded && !filters && lookups.dropFirst().allSatisfy { $0 != nil }
            let run = lookingUp ? lookUp : scan
            // A broad query is split between the cores; each part keeps its
            // own best and count, merged after.
            let workers = candidateCount >= tuning.parallelCandidateMinimum ? Self.workerCount : 1
            let parts = Self.inParts(of: candidateCount, workers: workers) { range -> KeptCandidates in
                var part = KeptCandidates(limit: limit)
                run(range, &part)
                return part
            }
            for part in parts { kept.absorb(part, precedes: precedes) }
        }}}}}}}}}}}}
        return response(from: kept, terms: terms, matches: matches, probes: termOrderProbes, query: query)
    }

    /// The response for what a scan kept: the kept documents ranked with
    /// their full keys (engagement for those with views), as results.
    /// `probes`, in term order, answer the per-token questions when every
    /// term has one.
    func response(
        from kept: KeptCandidates, terms: [String], matches: [TokenTrie.TermMatches], probes: [TermProbe]?,
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
        var evaluators = matches.map { TermEvaluator(matches: $0) }
        let termsAreASCII = Self.areASCII(terms)
        let deferred = DeferredHighlights(terms: terms, termsAreASCII: termsAreASCII, probes: probes)
        let results = ranked.prefix(max(0, query.limit)).map {
            makeResult(
                doc: $0.doc, key: $0.key, terms: terms, termsAreASCII: termsAreASCII, probes: probes,
                deferred: deferred, evaluators: &evaluators, query: query)
        }
        return SearchResponse(query: query.text, total: kept.total, results: results)
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

    /// The key bits each hit code adds (typos, non-whole and field, each in
    /// its byte of the packed key), by code.
    static let packedCodeKeys: [UInt64] = (0...255).map { (code: Int) -> UInt64 in
        let typos = UInt64(code >> 3) << 56
        let prefixOnly = UInt64((code >> 2) & 1) << 48
        return typos | prefixOnly | UInt64(code & 3) << 40
    }

    /// What the scan keeps: the best documents without views in a bounded
    /// max-heap (the worst kept on top), every matching document with views
    /// (ranked with their engagement at the end), and the count of matches.
    struct KeptCandidates {
        let limit: Int
        var heap: [PackedCandidate] = []
        var engaged: [PackedCandidate] = []
        var total = 0

        init(limit: Int) {
            self.limit = limit
            heap.reserveCapacity(limit + 1)
        }

        var isFull: Bool { heap.count == limit }

        /// Takes in what another part of the same scan kept: the order is
        /// total, so the merge keeps exactly what one pass would.
        mutating func absorb(_ part: KeptCandidates, precedes: (PackedCandidate, PackedCandidate) -> Bool) {
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

    /// Whether a candidate whose rule values give `ruleBits` (the key's
    /// bits above the static rank) ranks after `worst`, the worst kept:
    /// told by the rules, else by the rank tiers, and only when those are
    /// equal by `slot`'s rank (a 16-byte load that was most of a broad
    /// query's last pass). Equal keys are not beaten: the identifiers decide.
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
    /// (`touchRuns`), so their cache misses overlap (runs of 16 to 64 do
    /// about as well).
    static let touchRunLength = 32

    /// A bit per document slot, set where the term matches: a token under
    /// one of `roots` (its topmost prefix nodes, `TokenTrie.topmost(of:)`:
    /// a nested node's postings are already under its ancestor's), or at
    /// one of its whole-word nodes; and how many slots are set.
    ///
    /// Slots are counted as they are marked (a bit newly set adds one, with
    /// no branch): a popcount of every word after would be a second pass
    /// over a bit a slot, however few the term's postings (a
    /// one-term keystroke with typos that the best lists answer counts
    /// its matches this way).
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
