/// A term's best hit code in every document slot (`TermProbe` coding, or
/// `TermProbe.miss`): made, a byte a slot, or read from the field maps it
/// would be made from.
///
/// Made by `SearchEngine.termCodeMap(_:)`: the field maps of the term's
/// large prefix nodes are merged a pass each (the first writes every slot,
/// so the map is not filled with misses first; the last counts the hits),
/// then its small nodes' postings are marked, each counted as it turns a
/// miss into a hit. The count is the total of a one-term query, known
/// without a pass of its own.
///
/// Mapped (`SearchEngine.mappedTermCodes(_:)`) when the term's field maps
/// hold nearly every hit it has: the second term of "cozo l" is typed
/// once, and a made map, a byte a slot written for that one keystroke and
/// read back by the query's pass, would be a large share of it. Read
/// from the packed maps (half a byte a slot) into a buffer that stays in
/// the first-level cache, the same codes cost one read of half the bytes
/// and no write (`fill`, `SlotCodeLookup`):
///
/// ```
///   map "l" (base 4)   bytes  …│ 20 f1 3f … │…     low halves: slots 0–15 of the group
///   codes of the run          …  4 5 · 7 …  …     · miss (no token under "l")
/// ```
enum TermCodeMap: Sendable {
    /// A byte a slot, and how many slots hold a code.
    case made(codes: [UInt8], hits: Int)
    /// The term's maps, each with its base code (typos × 8, plus 4 for a
    /// prefix's subtree, 0 for a whole word's own postings; a slot's code
    /// is the least map's base plus its field), and the codes of the few
    /// postings the maps do not hold (a whole word too rare for a map of
    /// its own, a subtree's residual), by slot, each slot once with its
    /// least code.
    case mapped(maps: [(map: FieldMap, base: UInt8)], extras: [(slot: Int, code: UInt8)])

    /// A mapped term of `maps`, and `postings` (slot, code; any order, a
    /// slot more than once) beside them.
    static func mapped(maps: [(map: FieldMap, base: UInt8)], postings: [(slot: Int, code: UInt8)]) -> TermCodeMap {
        var extras: [(slot: Int, code: UInt8)] = []
        for posting in postings.sorted(by: { ($0.slot, $0.code) < ($1.slot, $1.code) }) where extras.last?.slot != posting.slot {
            extras.append(posting)
        }
        return .mapped(maps: maps, extras: extras)
    }

    /// Writes into `codes` (uninitialised) the least code of `fieldMaps`
    /// in each slot, a map's code being its `base` plus the field it
    /// holds (none: no code; slots past a map's end have none); returns
    /// how many slots hold a code.
    static func merge(
        _ fieldMaps: [(map: FieldMap, base: UInt8)], into codes: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        merge(fieldMaps, into: codes, slots: 0..<codes.count)
    }

    /// The same for the slots of `part` only (its start a multiple of
    /// 32, a group of a field map's packed bytes), which it writes
    /// whatever they held; returns how many of them hold a code. Two
    /// cores merge a map's two halves at once (`SearchEngine.termCodeMap`).
    static func merge(
        _ fieldMaps: [(map: FieldMap, base: UInt8)], into codes: UnsafeMutableBufferPointer<UInt8>, slots part: Range<Int>
    ) -> Int {
        precondition(part.lowerBound % 32 == 0 && part.upperBound <= codes.count)
        guard let first = fieldMaps.first else {
            UnsafeMutableBufferPointer(rebasing: codes[part]).initialize(repeating: TermProbe.miss)
            return 0
        }
        /// The end of the slots of `part` that `map` covers.
        func sharedEnd(_ map: FieldMap) -> Int { max(part.lowerBound, min(map.count, part.upperBound)) }
        let shared = sharedEnd(first.map)
        UnsafeMutableBufferPointer(rebasing: codes[shared..<part.upperBound]).initialize(repeating: TermProbe.miss)
        var hits = pass(map: first.map, slots: part.lowerBound..<shared, base: first.base, codes: codes, merging: false)
        for (map, base) in fieldMaps.dropFirst() {
            let shared = sharedEnd(map)
            // Slots past this map keep their codes: counted apart.
            hits = pass(map: map, slots: part.lowerBound..<shared, base: base, codes: codes, merging: true)
                + hitCount(of: UnsafeBufferPointer(rebasing: codes[shared..<part.upperBound]))
        }
        return hits
    }

    /// One field map's codes into `codes[slots]` (which start at a
    /// multiple of 32), written (`merging` false) or kept where lower;
    /// returns how many of those slots then hold a code. A group of the
    /// map's sixteen bytes is its 32 slots' fields: the low halves the
    /// first sixteen, the high halves the rest, each turned into codes in
    /// vector lanes.
    @inline(__always)
    private static func pass(
        map: FieldMap, slots part: Range<Int>, base: UInt8, codes: UnsafeMutableBufferPointer<UInt8>, merging: Bool
    ) -> Int {
        map.bytes.withUnsafeBufferPointer { packed in
            guard let source = packed.baseAddress, let target = codes.baseAddress else { return 0 }
            let none = SIMD16<UInt8>(repeating: FieldMap.none)
            let bases = SIMD16<UInt8>(repeating: base)
            let misses = SIMD16<UInt8>(repeating: TermProbe.miss)
            @inline(__always) func write(_ fields: SIMD16<UInt8>, to slot: Int) -> SIMD16<UInt8> {
                let out = UnsafeMutableRawPointer(target + slot)
                var code = (fields &+ bases).replacing(with: misses, where: fields .== none)
                if merging { code = pointwiseMin(code, UnsafeRawPointer(out).loadUnaligned(as: SIMD16<UInt8>.self)) }
                out.storeBytes(of: code, as: SIMD16<UInt8>.self)
                return SIMD16<UInt8>(repeating: 0).replacing(with: 1, where: code .!= misses)
            }
            let groups = part.upperBound / 32
            var hits = 0
            var group = part.lowerBound / 32
            while group < groups {
                // Lane counts of at most 2 × 64 hits each fit a byte.
                let blockEnd = min(groups, group + 64)
                var lanes = SIMD16<UInt8>(repeating: 0)
                while group < blockEnd {
                    let halves = UnsafeRawPointer(source + group &* 16).loadUnaligned(as: SIMD16<UInt8>.self)
                    lanes &+= write(halves & SIMD16(repeating: 0x0F), to: group &* 32)
                    lanes &+= write(halves &>> 4, to: group &* 32 &+ 16)
                    group &+= 1
                }
                hits &+= Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
            }
            for slot in max(part.lowerBound, groups * 32)..<part.upperBound {
                let field = map[slot]
                var code = field == SearchEngine.noField ? TermProbe.miss : base &+ field
                if merging { code = min(code, target[slot]) }
                target[slot] = code
                hits &+= code != TermProbe.miss ? 1 : 0
            }
            return hits
        }
    }

    /// Keeps in each slot of `codes` the lesser of its code and `other`'s
    /// (another code map of as many slots) and puts `miss` back in
    /// `other`'s, over `slots`; returns how many of those slots then hold a
    /// code. `other` is a borrowed map (`SlotScratch`), to be handed back
    /// clean: putting its bytes back as they are read costs a store to a
    /// line already in the first cache, where clearing it after was a
    /// pass of its own.
    static func takeLeast(
        from other: UnsafeMutableBufferPointer<UInt8>, into codes: UnsafeMutableBufferPointer<UInt8>, slots: Range<Int>
    ) -> Int {
        precondition(other.count == codes.count && slots.upperBound <= codes.count)
        guard let source = other.baseAddress, let target = codes.baseAddress else { return 0 }
        let miss = TermProbe.miss
        // Blocks of a fixed count, each counted in a byte: the form the
        // compiler turns into vector code (a count over a ranged loop
        // stayed a branch a slot).
        let blockSize = 128
        let blocksEnd = slots.lowerBound + slots.count / blockSize * blockSize
        var hits = 0
        var start = slots.lowerBound
        while start < blocksEnd {
            var blockHits: UInt8 = 0
            var offset = 0
            while offset < blockSize {
                let least = min(source[start &+ offset], target[start &+ offset])
                target[start &+ offset] = least
                source[start &+ offset] = miss
                blockHits &+= least != miss ? 1 : 0
                offset &+= 1
            }
            hits &+= Int(blockHits)
            start &+= blockSize
        }
        for slot in blocksEnd..<slots.upperBound {
            let least = min(source[slot], target[slot])
            target[slot] = least
            source[slot] = miss
            hits &+= least != miss ? 1 : 0
        }
        return hits
    }

    /// How many slots of a code map hold a hit (not `TermProbe.miss`),
    /// read eight at a time: a byte-by-byte loop compiles to a branch per
    /// slot, mispredicted at random.
    static func hitCount(of codes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = codes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var hits = 0
        let words = codes.count / 8
        for index in 0..<words {
            hits &+= hitBits(raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)).nonzeroBitCount
        }
        for index in (words * 8)..<codes.count where codes[index] != TermProbe.miss { hits += 1 }
        return hits
    }

    /// The high bit of each byte of `word` (eight slots) that holds a code,
    /// every other bit clear: a miss (0xFF) is inverted to zero, and a byte
    /// has its high bit set after the add exactly when it is not zero (no
    /// carry crosses a byte).
    @inline(__always)
    static func hitBits(_ word: UInt64) -> UInt64 {
        let inverted = ~word
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ((inverted & low) &+ low | inverted) & ~low
    }
}
