/// Reading a mapped term's codes (`TermCodeMap.mapped`): a run of slots
/// at a time for a pass over every slot, one slot at a time for the scan.
extension TermCodeMap {
    /// Writes the codes of `slots` into `codes` (at least as many: `codes[0]`
    /// is `slots.lowerBound`'s): a made map's, or what `merge` of a mapped
    /// term's maps writes there.
    func fill(_ slots: Range<Int>, into codes: UnsafeMutableBufferPointer<UInt8>) {
        precondition(codes.count >= slots.count, "room for every slot")
        guard let target = codes.baseAddress, !slots.isEmpty else { return }
        let (maps, extras): ([(map: FieldMap, base: UInt8)], [(slot: Int, code: UInt8)])
        switch self {
        case .made(let made, _):
            made.withUnsafeBufferPointer { target.update(from: $0.baseAddress! + slots.lowerBound, count: slots.count) }
            return
        case .mapped(let termMaps, let termExtras):
            (maps, extras) = (termMaps, termExtras)
        }
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
/// (`TermCodeMap.mapped`), whose bytes a code map would have taken a pass
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
    /// A mapped term's extras, and a bit for each (its slot's low bits)
    /// in a filter small enough to stay in the first cache: most slots
    /// are told they have none by one bit.
    private var extras: UnsafeBufferPointer<(slot: Int, code: UInt8)>?
    private var extraFilter: [UInt64] = []
    private static let filterMask = 4_095

    /// Codes read from `map`: a made map's bytes, or a mapped term's maps
    /// (at most two: `EngineTuning.mappedTermMapLimit`).
    init(map: TermCodeMap) {
        switch map {
        case .made(let codes, _):
            // Held by `map`, which the maker keeps.
            self.init(codes: codes.withUnsafeBufferPointer { $0.baseAddress })
        case .mapped(let maps, let extras):
            self.init(maps: maps, extras: extras)
        }
    }

    private init(codes: UnsafePointer<UInt8>?) {
        self.codes = codes
    }

    private init(maps: [(map: FieldMap, base: UInt8)], extras: [(slot: Int, code: UInt8)]) {
        precondition(maps.count <= 2, "at most two maps")
        func packed(_ index: Int) -> PackedMap {
            guard index < maps.count else { return PackedMap() }
            let (map, base) = maps[index]
            // Held by the term's map, which the maker keeps.
            return PackedMap(bytes: map.bytes.withUnsafeBufferPointer { $0.baseAddress }, count: map.count, base: base)
        }
        first = packed(0)
        second = packed(1)
        guard !extras.isEmpty else { return }
        self.extras = extras.withUnsafeBufferPointer { $0 }
        extraFilter = [UInt64](repeating: 0, count: (Self.filterMask + 1) / 64)
        for (slot, _) in extras {
            extraFilter[(slot & Self.filterMask) >> 6] |= 1 << UInt64(slot & 63)
        }
    }

    /// The term's code in `slot` (`TermProbe.miss` for none).
    @inline(__always) subscript(slot: Int) -> UInt8 {
        if let codes { return codes[slot] }
        let mapped = min(first.code(slot), second.code(slot))
        guard let extras, extraFilter[(slot & Self.filterMask) >> 6] & (1 << UInt64(slot & 63)) != 0 else { return mapped }
        let low = TermCodeMap.firstExtra(atLeast: slot, in: extras)
        return low < extras.count && extras[low].slot == slot ? min(mapped, extras[low].code) : mapped
    }
}
