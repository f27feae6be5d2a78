import Foundation
import SearchSupport

/// One scan's reads, bound once for the whole pass (`SearchEngine.withScanPass`):
/// reading an array through the engine in the loop retains it, and a
/// nested function capturing a variable pays a dynamic exclusivity check
/// on every access, which matters a million times over.
///
/// Every view lives only as long as the closure that binds it; a pass is
/// never stored.
struct ScanPass {
    /// Per term in probing order (the driver first): its code lookup when
    /// it is read from a code map or field maps, else nil (probed).
    let lookups: UnsafeBufferPointer<SlotCodeLookup?>
    /// Per term in probing order.
    let probes: UnsafeBufferPointer<TermProbe>
    let words: UnsafeBufferPointer<UInt32>
    let starts: UnsafeBufferPointer<UInt32>
    let counts: UnsafeBufferPointer<UInt32>
    let expirations: UnsafeBufferPointer<Double>
    let ranks: UnsafeBufferPointer<StaticRank>
    let tiers: UnsafeBufferPointer<UInt8>
    let engagedSlots: UnsafeBufferPointer<Bool>
    /// The gathered candidates and the driver's code for each; empty when
    /// every slot is a candidate (`coded` false).
    let candidateSlots: UnsafeBufferPointer<UInt32>
    let candidateCodes: UnsafeBufferPointer<UInt8>
    let coded: Bool
    let candidateCount: Int
    let trie: TokenTrie
    let documents: [Document?]
    let query: SearchQuery
    let now: Double
    /// Whether any document may have expired by `now` (else no expiration is read).
    let checkExpiry: Bool
    let limit: Int
    let precedes: (SearchEngine.PackedCandidate, SearchEngine.PackedCandidate) -> Bool

    /// Every candidate kept or counted, split between `workers` cores,
    /// each part with its own best and count, merged after.
    func run(workers: Int) -> SearchEngine.ResultCollector {
        let lookingUp = coded && !query.restricts && lookups.dropFirst().allSatisfy { $0 != nil }
        let parts = SearchEngine.inParts(of: candidateCount, workers: workers) { range -> SearchEngine.ResultCollector in
            var part = SearchEngine.ResultCollector(limit: limit)
            if lookingUp { lookUp(range, into: &part) } else { scan(range, into: &part) }
            return part
        }
        var kept = SearchEngine.ResultCollector(limit: limit)
        for part in parts { kept.absorb(part, precedes: precedes) }
        return kept
    }

    /// Scans the candidates at `positions` into `kept`: gathered
    /// candidates a run of `touchRunLength` at a time, each run's reads
    /// made first (`touchRuns`).
    private func scan(_ positions: Range<Int>, into kept: inout SearchEngine.ResultCollector) {
        guard coded else { return scanRun(positions, into: &kept) }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: SearchEngine.touchRunLength) { touchedStarts in
            var sink: UInt32 = 0
            var runStart = positions.lowerBound
            while runStart < positions.upperBound {
                let run = runStart..<min(positions.upperBound, runStart + SearchEngine.touchRunLength)
                sink &+= touchRuns(run, starts: touchedStarts)
                scanRun(run, into: &kept)
                runStart = run.upperBound
            }
            keepValue(sink)
        }
    }

    /// Reads, for the gathered candidates at `positions`, their token runs'
    /// starts and counts, their rank tiers (which `isBeaten` reads), and
    /// the first word of each run, in two tight passes (a pass for each
    /// step of the chain, as `gather`): the candidates lie far apart, and
    /// met one at a time in `scanRun` each was two or three cache misses
    /// after another. Returns a sum of what it read, for `keepValue`.
    private func touchRuns(_ positions: Range<Int>, starts touched: UnsafeMutableBufferPointer<UInt32>) -> UInt32 {
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
    private func scanRun(_ positions: Range<Int>, into kept: inout SearchEngine.ResultCollector) {
        let filters = query.restricts
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
            if kept.isFull, !engagedSlot, !filters,
                limit == 0 || isOnlyCounted(slotIndex, driverCode: driverCode, worst: kept.heap[0])
            {
                if matchesEveryTerm(slotIndex, span: span, driverCode: driverCode) { kept.total += 1 }
                continue
            }
            var typos: UInt64 = 0, prefixOnly: UInt64 = 0, fieldSum: UInt64 = 0
            for term in probes.indices {
                let code = term == 0 && driverCode != nil
                    ? driverCode!
                    : lookups[term].map { $0[slotIndex] } ?? probes[term].bestCode(in: span, words: words, trie: trie)
                if code == TermProbe.miss { continue candidateLoop }
                typos += UInt64(code >> 3)
                prefixOnly += UInt64((code >> 2) & 1)
                fieldSum += UInt64(code & 3)
            }
            if filters {
                guard let document = documents[slotIndex], query.admits(document) else { continue }
            }
            let candidate = SearchEngine.PackedCandidate(
                key: SearchEngine.ruleBits(typos: typos, prefixOnly: prefixOnly, fields: fieldSum) | ranks[slotIndex].keyBits, doc: slot)
            kept.collect(candidate, engaged: engagedSlot, precedes: precedes)
        }
    }

    /// Whether, the heap being full, a document's key cannot beat its worst
    /// even if every other term hit a whole title word: it is then only
    /// counted, and its probes stop at the first matching token. Its rank's
    /// tier tells without the rank itself most of the time (`isBeaten`).
    /// The caller reads `worst` only from a heap that holds something.
    @inline(__always)
    private func isOnlyCounted(_ slot: Int, driverCode: UInt8?, worst: SearchEngine.PackedCandidate) -> Bool {
        let driverKey = driverCode.map { SearchEngine.ruleBits(ofCode: $0) } ?? 0
        return SearchEngine.isBeaten(ruleBits: driverKey, slot: slot, worst: worst, tiers: tiers, ranks: ranks)
    }

    /// Whether every term but a known driver matches some token of `span`.
    @inline(__always)
    private func matchesEveryTerm(_ slot: Int, span: Range<Int>, driverCode: UInt8?) -> Bool {
        for term in probes.indices where !(term == 0 && driverCode != nil) {
            if let lookup = lookups[term] {
                if lookup[slot] == TermProbe.miss { return false }
            } else if !probes[term].matchesAny(in: span, words: words, trie: trie) {
                return false
            }
        }
        return true
    }

    /// The same when every term after the driver is read from its code
    /// map: a candidate costs a byte per term, and its static rank (a cache
    /// miss at a million items) only when its rule values could enter the
    /// heap; its token run is never read.
    private func lookUp(_ positions: Range<Int>, into kept: inout SearchEngine.ResultCollector) {
        let packedCodes = SearchEngine.packedCodeKeys
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
                SearchEngine.isBeaten(ruleBits: codeKey, slot: slotIndex, worst: kept.heap[0], tiers: tiers, ranks: ranks)
            {
                continue
            }
            let candidate = SearchEngine.PackedCandidate(key: codeKey | ranks[slotIndex].keyBits, doc: UInt32(slotIndex))
            if engagedSlot {
                kept.engaged.append(candidate)
            } else {
                kept.offer(candidate, precedes: precedes)
            }
        }
    }
}
