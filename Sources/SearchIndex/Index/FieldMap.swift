/// The best field of each document slot's tokens under one trie node,
/// four bits a slot (`SearchEngine+FieldMaps`).
///
/// Slots go in groups of 32, each group sixteen bytes: slot `k` of a group
/// in the low half of byte `k`, slot `16 + k` in its high half.
///
/// ```
///  slot    0  1  2 … 15 │ 16 17 18 … 31 │ 32 …
///  byte    0  1  2 … 15 │  0  1  2 … 15 │ 16 …
///  half    low          │ high          │ low
///
///  half:   0 title, 1 keywords, 2 other, 3 description; F no token
/// ```
///
/// A field is one of four ranks and "no token" the largest value, so the
/// lesser of two maps is the lesser of each half byte and needs no
/// unpacking; and a group's sixteen bytes unpack into its 32 slots in
/// order, two vector operations and no shuffle (`TermCodeMap`). Half a
/// byte a slot is half the memory of a byte.
struct FieldMap: Sendable, Equatable {
    /// The packed halves; a group's bytes are all there once any is, and
    /// the halves of slots past `count` are none.
    private(set) var bytes: [UInt8]
    /// Slots the map covers; slots past it hold no field.
    private(set) var count: Int

    /// "No token" in a half byte.
    static let none: UInt8 = 0xF

    /// A map of `count` slots, none with a field, with room for `capacity`
    /// slots before it grows.
    ///
    /// The engine makes its maps with room for the slots its per-slot
    /// columns have room for: made exactly as large as the index, every
    /// map would be copied by the first insert after a build or a load,
    /// the old copies kept by the allocator.
    init(count: Int, capacity: Int = 0) {
        self.count = count
        let byteCount = Self.byteCount(forSlots: count)
        bytes = []
        bytes.reserveCapacity(Swift.max(byteCount, Self.byteCount(forSlots: capacity)))
        bytes.append(contentsOf: repeatElement(0xFF, count: byteCount))
    }

    /// The map of fields given a byte a slot (`SearchEngine.noField` for none).
    init(unpacked fields: [UInt8]) {
        self.init(count: fields.count)
        bytes.withUnsafeMutableBufferPointer { bytes in
            for (slot, field) in fields.enumerated() where field != SearchEngine.noField {
                Self.lower(slot, to: field, in: bytes)
            }
        }
    }

    /// Bytes that hold `slots` slots: whole groups.
    static func byteCount(forSlots slots: Int) -> Int { (slots + 31) / 32 * 16 }

    /// The byte holding `slot` and the shift of its half.
    @inline(__always)
    static func place(of slot: Int) -> (byte: Int, shift: UInt8) {
        ((slot >> 5) << 4 | slot & 15, UInt8(truncatingIfNeeded: slot >> 2) & 4)
    }

    /// The field of `slot`, or `SearchEngine.noField`.
    subscript(slot: Int) -> UInt8 {
        guard slot < count else { return SearchEngine.noField }
        let field = bytes.withUnsafeBufferPointer { Self.half(of: slot, in: $0) }
        return field == Self.none ? SearchEngine.noField : field
    }

    /// The packed byte that holds `slot`, or 0 past the map's bytes: read
    /// ahead of a change, so that its miss overlaps others.
    @inline(__always)
    func byte(containing slot: Int) -> UInt8 {
        bytes.withUnsafeBufferPointer { bytes in
            let byte = Self.place(of: slot).byte
            return byte < bytes.count ? bytes[byte] : 0
        }
    }

    /// `slot`'s half byte in packed `bytes` (which cover it): its field, or `none`.
    @inline(__always)
    static func half(of slot: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        let (byte, shift) = place(of: slot)
        return bytes[byte] >> shift & 0xF
    }

    /// Lowers `slot`'s field to `field` where that is better, covering the
    /// slot first if it lies past the end.
    mutating func lower(_ slot: Int, to field: UInt8) {
        if slot >= count {
            // Halves past the end are none: the slots now covered start so.
            count = slot + 1
            let needed = Self.byteCount(forSlots: count)
            if needed > bytes.count {
                // Room for an eighth more: doubling, as an append does,
                // left half of each of a hundred maps unused after the first
                // insert past the end (and the old copy to the allocator).
                if needed > bytes.capacity { bytes.reserveCapacity(needed + needed / 8) }
                bytes.append(contentsOf: repeatElement(0xFF, count: needed - bytes.count))
            }
        }
        bytes.withUnsafeMutableBufferPointer { Self.lower(slot, to: field, in: $0) }
    }

    /// Lowers `slot`'s field in packed `bytes` (which cover it).
    @inline(__always)
    static func lower(_ slot: Int, to field: UInt8, in bytes: UnsafeMutableBufferPointer<UInt8>) {
        let (byte, shift) = place(of: slot)
        let old = bytes[byte]
        if field < old >> shift & 0xF { bytes[byte] = old & ~(0xF << shift) | field << shift }
    }

    /// Calls `body` with the packed bytes to change in place (every slot
    /// the map covers lies in them; see `lower(_:to:in:)`).
    mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// Takes `slot`'s field away.
    mutating func clear(_ slot: Int) {
        guard slot < count else { return }
        let (byte, shift) = Self.place(of: slot)
        bytes[byte] |= 0xF << shift
    }

    /// Keeps in each slot the lesser of its field and `other`'s (over the
    /// slots both cover; this map's count stays). Half by half, a byte at
    /// a time: the form the compiler turns into vector code.
    mutating func formMinimum(with other: FieldMap) {
        let shared = min(bytes.count, other.bytes.count)
        bytes.withUnsafeMutableBufferPointer { target in
            other.bytes.withUnsafeBufferPointer { source in
                for index in 0..<shared {
                    let a = target[index], b = source[index]
                    target[index] = min(a & 0x0F, b & 0x0F) | min(a & 0xF0, b & 0xF0)
                }
            }
        }
        // Halves past either map's end are none: past `other`'s, the
        // minimum left these as they were; past this one's, `other`'s
        // fields are taken away again.
        for slot in count..<max(count, min(bytes.count * 2, other.count)) {
            let (byte, shift) = Self.place(of: slot)
            bytes[byte] |= 0xF << shift
        }
    }

    /// A byte a slot (`SearchEngine.noField` for none), `count` of them:
    /// for tests and reports.
    var unpacked: [UInt8] { (0..<count).map { self[$0] } }

    /// Bytes the map holds.
    var byteCount: Int { bytes.count }
}
