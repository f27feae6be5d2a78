/// A broad term's hit codes read straight from the field maps its code map
/// would be merged from (`TermCodeMap.merge`), a run of slots at a time.
///
/// The second term of "cozo l" is typed once: its code map, a byte a slot
/// written for that one keystroke and read back by the query's pass over
/// the slots, is a large share of such keystrokes. Read from the packed
/// maps (half a byte a slot) into a buffer
/// that stays in the first-level cache, the same codes cost one read of
/// half the bytes and no write:
///
/// ```
///   map "l" (base 4)   bytes  …│ 20 f1 3f … │…     low halves: slots 0–15 of the group
///   codes of the run          …  4 5 · 7 …  …     · miss (no token under "l")
/// ```
struct MappedTermCodes: Sendable {
    /// The term's maps, each with its base code (`TermProbe` coding: typos
    /// × 8, plus 4 for a prefix's subtree, 0 for a whole word's own
    /// postings); a slot's code is the least map's base plus its field.
    let maps: [(map: FieldMap, base: UInt8)]
    /// The codes of the few postings the maps do not hold (a whole word
    /// too rare for a map of its own, a subtree's residual: "m" is the
    /// subtree of "m…" and one document's word "m"), by slot, each slot
    /// once with its least code.
    let extras: [(slot: Int, code: UInt8)]

    /// `maps`, and `postings` (slot, code; any order, a slot more than
    /// once) beside them.
    init(maps: [(map: FieldMap, base: UInt8)], postings: [(slot: Int, code: UInt8)] = []) {
        self.maps = maps
        var extras: [(slot: Int, code: UInt8)] = []
        for posting in postings.sorted(by: { ($0.slot, $0.code) < ($1.slot, $1.code) }) where extras.last?.slot != posting.slot {
            extras.append(posting)
        }
        self.extras = extras
    }

    /// Writes the codes of `slots` into `codes` (at least as many: `codes[0]`
    /// is `slots.lowerBound`'s), what `TermCodeMap.merge` of the same maps
    /// writes there.
    func fill(_ slots: Range<Int>, into codes: UnsafeMutableBufferPointer<UInt8>) {
        precondition(codes.count >= slots.count, "room for every slot")
        guard let target = codes.baseAddress, !slots.isEmpty else { return }
        let start = slots.lowerBound
        for (index, (map, base)) in maps.enumerated() {
            let merging = index > 0
            map.bytes.withUnsafeBufferPointer { packed in
                // Slots past the map's end have no field.
                let covered = min(slots.upperBound, map.count)
                @inline(__always) func fillOne(_ slot: Int) {
                    let field = slot < covered ? FieldMap.half(of: slot, in: packed) : FieldMap.none
                    let code = field == FieldMap.none ? TermProbe.miss : base &+ field
                    let out = target + (slot &- start)
                    out.pointee = merging ? min(out.pointee, code) : code
                }
                var slot = start
                // Slot by slot up to the first whole group, then a group of
                // 32 at a time (`FieldMap`'s layout), then the rest.
                let groupsStart = min((start + 31) & ~31, slots.upperBound)
                while slot < groupsStart {
                    fillOne(slot)
                    slot &+= 1
                }
                let groupsEnd = max(slot, covered & ~31)
                // As `TermCodeMap.merge` makes them, sixteen slots at once.
                let none = SIMD16<UInt8>(repeating: FieldMap.none)
                let bases = SIMD16<UInt8>(repeating: base)
                let misses = SIMD16<UInt8>(repeating: TermProbe.miss)
                @inline(__always) func fillSixteen(_ fields: SIMD16<UInt8>, from slot: Int) {
                    let out = UnsafeMutableRawPointer(target + (slot &- start))
                    var code = (fields &+ bases).replacing(with: misses, where: fields .== none)
                    if merging { code = pointwiseMin(code, UnsafeRawPointer(out).loadUnaligned(as: SIMD16<UInt8>.self)) }
                    out.storeBytes(of: code, as: SIMD16<UInt8>.self)
                }
                while slot < groupsEnd {
                    let halves = UnsafeRawPointer(packed.baseAddress! + (slot >> 5) << 4).loadUnaligned(as: SIMD16<UInt8>.self)
                    fillSixteen(halves & SIMD16(repeating: 0x0F), from: slot)
                    fillSixteen(halves &>> 4, from: slot &+ 16)
                    slot &+= 32
                }
                while slot < slots.upperBound {
                    fillOne(slot)
                    slot &+= 1
                }
            }
        }
        var extra = extras.withUnsafeBufferPointer { Self.firstExtra(atLeast: start, in: $0) }
        while extra < extras.count, extras[extra].slot < slots.upperBound {
            let out = target + (extras[extra].slot &- start)
            out.pointee = min(out.pointee, extras[extra].code)
            extra += 1
        }
    }

    /// The index of the first of `extras` (in slot order) at `slot` or after it.
    @inline(__always)
    static func firstExtra(atLeast slot: Int, in extras: UnsafeBufferPointer<(slot: Int, code: UInt8)>) -> Int {
        var low = 0, high = extras.count
        while low < high {
            let middle = (low + high) / 2
            if extras[middle].slot < slot { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A term's code in any one slot, as the scan looks it up for each
/// candidate: from the term's code map, or from its field maps
/// (`MappedTermCodes`), whose bytes a code map would have taken a pass
/// over every slot to write. It holds the bytes' addresses: its maker
/// keeps the arrays alive while it is used.
struct SlotCodeLookup {
    /// One packed field map and its base code; no bytes for none.
    private struct PackedMap {
        var bytes: UnsafePointer<UInt8>?
        var count = 0
        var base: UInt8 = 0

        @inline(__always) func code(_ slot: Int) -> UInt8 {
            guard slot < count, let bytes else { return TermProbe.miss }
            let (byte, shift) = FieldMap.place(of: slot)
            let field = bytes[byte] >> shift & 0xF
            return field == FieldMap.none ? TermProbe.miss : base &+ field
        }
    }

    private var codes: UnsafePointer<UInt8>?
    private var first = PackedMap()
    private var second = PackedMap()
    /// `MappedTermCodes.extras`, and a bit for each (its slot's low bits)
    /// in a filter small enough to stay in the first cache: most slots
    /// are told they have none by one bit.
    private var extras: UnsafeBufferPointer<(slot: Int, code: UInt8)>?
    private var extraFilter: [UInt64] = []
    private static let filterMask = 4_095

    /// Codes read from a code map's bytes.
    init(codes: UnsafePointer<UInt8>) {
        self.codes = codes
    }

    /// Codes read from `mapped`'s maps (at most two: `EngineTuning.mappedTermMapLimit`).
    init(mapped: MappedTermCodes) {
        precondition(mapped.maps.count <= 2, "at most two maps")
        func packed(_ index: Int) -> PackedMap {
            guard index < mapped.maps.count else { return PackedMap() }
            let (map, base) = mapped.maps[index]
            // Held by `mapped`'s maps, which the maker keeps.
            return PackedMap(bytes: map.bytes.withUnsafeBufferPointer { $0.baseAddress }, count: map.count, base: base)
        }
        first = packed(0)
        second = packed(1)
        guard !mapped.extras.isEmpty else { return }
        // Held by `mapped`, as its maps are.
        extras = mapped.extras.withUnsafeBufferPointer { $0 }
        extraFilter = [UInt64](repeating: 0, count: (Self.filterMask + 1) / 64)
        for (slot, _) in mapped.extras {
            extraFilter[(slot & Self.filterMask) >> 6] |= 1 << UInt64(slot & 63)
        }
    }

    /// The term's code in `slot` (`TermProbe.miss` for none).
    @inline(__always) subscript(slot: Int) -> UInt8 {
        if let codes { return codes[slot] }
        let mapped = min(first.code(slot), second.code(slot))
        guard let extras, extraFilter[(slot & Self.filterMask) >> 6] & (1 << UInt64(slot & 63)) != 0 else { return mapped }
        let low = MappedTermCodes.firstExtra(atLeast: slot, in: extras)
        return low < extras.count && extras[low].slot == slot ? min(mapped, extras[low].code) : mapped
    }
}
