/// The trie's edge labels, every node's a range of one pool of units of
/// one byte while the labels allow, of two bytes once they do not.
///
/// One byte: a scalar below U+0080 is its own unit; any other is a unit
/// from 0x80 naming it in a table of at most 128 values (the few accented
/// letters and ideographs of a mostly ASCII index). The 129th distinct
/// such scalar widens the pool, once, to two bytes: a scalar below
/// U+10000 is its own unit; any other value (an emoji, a rare ideograph)
/// is a unit of the surrogate range, which no scalar takes, naming it in
/// a table.
///
/// ```
///  narrow    61 6E 80 65 81 80 …                      a n (table 0) e (table 1) (table 0)
///  narrowValues  [E9, 4E2D, …]                        up to 128 entries
///
///  units     0061 006E 4E2D D800 0065 D801 D800 …    a n 中 (table 0) e (table 1) (table 0)
///  wide      [1F600, 20000, …]                        one entry per distinct value, up to 2,047
///  overflow  [position: value]                        past those, by the unit's position (DFFF)
/// ```
///
/// Labels are read a scalar at a time from the start of an edge (a walk
/// down the trie, a typo walk, a token spelled out), so each position
/// stays one scalar.
///
/// Why: most labels are the rest of unique tokens such as e-mail
/// addresses, held in their leaves; nearly every scalar fits in 16 bits,
/// and in an index of mostly Latin text nearly every one in 8, a half or
/// a quarter of a pool of 32-bit scalars.
package struct LabelPool: Sendable {
    /// One-byte units, while the pool is narrow (see above).
    private var narrow: [UInt8] = []
    /// The values of the narrow units from 0x80, by `unit - 0x80`.
    private var narrowValues: [UInt32] = []
    private var narrowIndex: [UInt32: UInt8] = [:]
    /// Whether the units are two bytes wide (`units`; `narrow` is then empty).
    private(set) var isWide = false
    private var units: [UInt16] = []
    /// Values that do not fit in a unit, by the unit `wideBase + index`.
    private var wide: [UInt32] = []
    private var wideIndex: [UInt32: UInt16] = [:]
    /// Values past the table's room, by position (`overflowUnit`).
    private var overflow: [Int: UInt32] = [:]

    static let narrowBase: UInt8 = 0x80
    static let narrowTableLimit = 128
    static let wideBase: UInt16 = 0xD800
    static let overflowUnit: UInt16 = 0xDFFF

    init() {}

    /// A pool of `values`, one position each, with room for an eighth more
    /// (a snapshot's labels, which inserts after the load add to). The
    /// units are written in place: appended one by one, they would be a
    /// noticeable part of a cold start.
    package init(scalarsAt start: UnsafeRawPointer, count: Int) {
        self.init(values: UnalignedScalars(start: start, count: count))
    }

    /// The same, of any values (tests give arrays).
    init<Values: RandomAccessCollection<UInt32>>(values: Values) where Values.Index == Int {
        var pool = LabelPool()
        let capacity = values.count + values.count / 8
        var fits = true
        let narrow = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            for position in values.indices {
                guard let unit = pool.narrowUnit(for: values[position]) else { fits = false; break }
                buffer[position] = unit
            }
            initialized = fits ? values.count : 0
        }
        if fits {
            pool.narrow = narrow
            self = pool
            return
        }
        pool = LabelPool()
        pool.isWide = true
        let units = [UInt16](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            for position in values.indices { buffer[position] = pool.unit(for: values[position], at: position) }
            initialized = values.count
        }
        pool.units = units
        self = pool
    }

    var count: Int { isWide ? units.count : narrow.count }

    /// Bytes the pool takes (units, tables, overflow entries).
    var memoryBytes: Int {
        narrow.count + narrowValues.count * 4 + units.count * 2 + wide.count * 4 + overflow.count * 16
    }

    @inline(__always) subscript(position: Int) -> UInt32 {
        isWide
            ? Self.value(units[position], at: position, wide: wide, overflow: overflow)
            : Self.narrowValue(narrow[position], narrowValues)
    }

    /// The value of a two-byte `unit` at `position`.
    @inline(__always)
    fileprivate static func value(_ unit: UInt16, at position: Int, wide: [UInt32], overflow: [Int: UInt32]) -> UInt32 {
        unit & 0xF800 != wideBase ? UInt32(unit) : wideValue(unit, at: position, wide: wide, overflow: overflow)
    }

    @inline(__always)
    fileprivate static func narrowValue(_ unit: UInt8, _ values: [UInt32]) -> UInt32 {
        unit < narrowBase ? UInt32(unit) : values[Int(unit &- narrowBase)]
    }

    @inline(never)
    fileprivate static func wideValue(_ unit: UInt16, at position: Int, wide: [UInt32], overflow: [Int: UInt32]) -> UInt32 {
        unit == overflowUnit ? overflow[position]! : wide[Int(unit &- wideBase)]
    }

    mutating func append(_ value: UInt32) {
        if !isWide {
            if let unit = narrowUnit(for: value) { return narrow.append(unit) }
            widen()
        }
        units.append(unit(for: value, at: units.count))
    }

    /// The one-byte unit for `value`, entering it in the table if there is
    /// room; nil when there is none.
    @inline(__always) private mutating func narrowUnit(for value: UInt32) -> UInt8? {
        if value < UInt32(Self.narrowBase) { return UInt8(truncatingIfNeeded: value) }
        if let index = narrowIndex[value] { return Self.narrowBase + index }
        guard narrowValues.count < Self.narrowTableLimit else { return nil }
        narrowIndex[value] = UInt8(narrowValues.count)
        narrowValues.append(value)
        return Self.narrowBase + UInt8(narrowValues.count - 1)
    }

    /// Rewrites the pool in two-byte units, for good.
    private mutating func widen() {
        var wider = [UInt16]()
        wider.reserveCapacity(Swift.max(narrow.capacity, narrow.count + 1))
        for position in narrow.indices { wider.append(unit(for: self[position], at: position)) }
        units = wider
        isWide = true
        narrow = []
        narrowValues = []
        narrowIndex = [:]
    }

    /// The unit that stands for `value` at `position`, entering it in the
    /// table or the overflow if it does not fit in a unit.
    @inline(__always) private mutating func unit(for value: UInt32, at position: Int) -> UInt16 {
        // Surrogate values are never scalars; one read from elsewhere is kept wide, as any other value.
        if value < 0x1_0000, value & 0xF800 != 0xD800 { return UInt16(truncatingIfNeeded: value) }
        return wideUnit(for: value, at: position)
    }

    private mutating func wideUnit(for value: UInt32, at position: Int) -> UInt16 {
        if let index = wideIndex[value] { return Self.wideBase + index }
        if wide.count < Int(Self.overflowUnit - Self.wideBase) {
            wideIndex[value] = UInt16(wide.count)
            wide.append(value)
            return Self.wideBase + UInt16(wide.count - 1)
        }
        overflow[position] = value
        return Self.overflowUnit
    }

    mutating func append<S: Sequence>(contentsOf values: S) where S.Element == UInt32 {
        for value in values { append(value) }
    }

    mutating func reserveCapacity(_ count: Int) {
        if isWide { units.reserveCapacity(count) } else { narrow.reserveCapacity(count) }
    }

    /// The unit at `position`, as stored (to bring its line into the
    /// cache before a walk reads it: `TokenTrie.touchPaths`).
    @inline(__always)
    func unit(at position: Int) -> UInt32 {
        isWide ? UInt32(units[position]) : UInt32(narrow[position])
    }

    /// How many values from `start` (of `count`; the first is taken as
    /// matched, a child being found by it) equal `scalars` from `offset`:
    /// a walk down an edge. (The units are read in place, each width in a
    /// loop of its own: every token inserted or looked up walks its edges
    /// through here, and a `Reader` made for each would retain its tables.)
    @inline(__always)
    func matchLength(start: Int, count: Int, of scalars: UnsafeBufferPointer<UInt32>, from offset: Int) -> Int {
        var step = 1
        if isWide {
            units.withUnsafeBufferPointer { units in
                while step < count, offset + step < scalars.count,
                      Self.value(units[start + step], at: start + step, wide: wide, overflow: overflow) == scalars[offset + step] {
                    step += 1
                }
            }
        } else {
            narrow.withUnsafeBufferPointer { units in
                while step < count, offset + step < scalars.count,
                      Self.narrowValue(units[start + step], narrowValues) == scalars[offset + step] {
                    step += 1
                }
            }
        }
        return step
    }

    /// Writes the `count` values from `start` to `out` (a token spelled out).
    @inline(__always)
    func copyValues(start: Int, count: Int, to out: UnsafeMutablePointer<UInt32>) {
        if isWide {
            units.withUnsafeBufferPointer { units in
                for index in 0..<count {
                    out[index] = Self.value(units[start + index], at: start + index, wide: wide, overflow: overflow)
                }
            }
        } else {
            narrow.withUnsafeBufferPointer { units in
                for index in 0..<count { out[index] = Self.narrowValue(units[start + index], narrowValues) }
            }
        }
    }

    /// The values at `range`.
    func values(in range: Range<Int>) -> [UInt32] { range.map { self[$0] } }

    /// Calls `body` with a reader of the pool that indexes its units in place.
    @inline(__always)
    func withReader<R>(_ body: (Reader) throws -> R) rethrows -> R {
        try narrow.withUnsafeBufferPointer { narrow in
            try units.withUnsafeBufferPointer { units in
                try body(Reader(
                    isWide: isWide, narrow: narrow, narrowValues: narrowValues, units: units, wide: wide, overflow: overflow))
            }
        }
    }

    /// The pool read in place (a typo walk reads a label scalar per row).
    struct Reader: @unchecked Sendable {
        // Sendable as the pool it reads is: nothing changes while it is read.
        let isWide: Bool
        let narrow: UnsafeBufferPointer<UInt8>
        let narrowValues: [UInt32]
        let units: UnsafeBufferPointer<UInt16>
        let wide: [UInt32]
        let overflow: [Int: UInt32]

        @inline(__always) subscript(position: Int) -> UInt32 {
            isWide
                ? LabelPool.value(units[position], at: position, wide: wide, overflow: overflow)
                : LabelPool.narrowValue(narrow[position], narrowValues)
        }
    }
}

/// Scalars read where they lie in a snapshot's bytes, aligned or not (the
/// snapshot's own view is generic, and would run unspecialised here).
private struct UnalignedScalars: RandomAccessCollection {
    let start: UnsafeRawPointer
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> UInt32 {
        start.loadUnaligned(fromByteOffset: position * MemoryLayout<UInt32>.stride, as: UInt32.self)
    }
}
