/// A slot's rule values summed over a query's terms as one number that
/// orders as the rules do (typos, then terms matched only as prefixes,
/// then the field sum): what `SearchEngine.searchByFieldMaps` computes for
/// every slot and then counts and bounds.
///
/// Two widths: sixteen bits take up to eight terms; a query of two terms
/// (most broad queries typed) fits a byte, which the passes read and
/// compare sixteen slots to a vector operation instead of eight, each
/// term's part made with shifts instead of two multiplications.
///
/// ```
///  UInt16   typos × 225 + non-whole × 25 + field     (each a sum over the terms)
///  UInt8    typos << 5 | non-whole << 3 | field      (two terms: at most 6, 2, 6)
/// ```
///
/// A sum with the slot's rank tier below it (`tiered`, twice as wide)
/// orders as the ranking does slots without views, up to ties: what tells
/// apart a broad query's many matches that share their least sum.
protocol RuleSum: FixedWidthInteger, UnsignedInteger, SIMDScalar, Codable, Sendable {
    // Codable: the SIMD storage types that `SIMDScalar` brings ask for it.

    /// A sum with a slot's rank tier below it (`tiered(_:tier:)`): twice
    /// as wide.
    associatedtype Tiered: FixedWidthInteger, UnsignedInteger, SIMDScalar

    /// The least sum of a slot that a term misses: every sum below it is a
    /// match.
    static var missed: Self { get }
    /// One term's part of a slot's sum, from the term's hit code there
    /// (`TermProbe` coding: `typos × 8 + (prefix only ? 4 : 0) + field`).
    static func part(ofCode code: UInt8) -> Self
    /// `sum` with one more term's `part`.
    static func adding(_ part: Self, to sum: Self) -> Self
    /// The rule bits of a packed candidate's key (`PackedCandidate`) for a
    /// sum below `missed`.
    static func ruleBits(of sum: Self) -> UInt64
    /// How many of `values` are at most `bound`, the least of them all, and
    /// the least above `bound` (`.max` if none): `SearchEngine.countAtMost`.
    /// Written out for each width, a block's count as wide as the values,
    /// so that each width's loop is vector code (one generic loop stayed
    /// scalar for bytes).
    static func countAtMost(_ bound: Self, in values: UnsafeBufferPointer<Self>) -> (count: Int, least: Self, leastAbove: Self)
}

extension RuleSum {
    /// `sum` with `tier` (`StaticRank.tier`) below it: ordered as the
    /// ranking orders slots without views, up to ties of both.
    @inline(__always)
    static func tiered(_ sum: Self, tier: UInt8) -> Tiered {
        Tiered(truncatingIfNeeded: sum) &<< 8 | Tiered(truncatingIfNeeded: tier)
    }
}

extension UInt16: RuleSum {
    typealias Tiered = UInt32

    static var missed: UInt16 { part(ofCode: TermProbe.miss) }

    @inline(__always)
    static func part(ofCode code: UInt8) -> UInt16 { SearchEngine.rulesValue(of: code) }

    // At most 8 terms of at most 3 typos stay below `missed`; one miss reaches it.
    @inline(__always)
    static func adding(_ part: UInt16, to sum: UInt16) -> UInt16 { sum &+ part }

    @inline(__always)
    static func ruleBits(of sum: UInt16) -> UInt64 {
        let value = UInt64(sum)
        return (value / 225) << 56 | (value % 225 / 25) << 48 | (value % 25) << 40
    }

    static func countAtMost(_ bound: UInt16, in values: UnsafeBufferPointer<UInt16>) -> (count: Int, least: UInt16, leastAbove: UInt16) {
        var count = 0
        var least = UInt16.max
        var leastAbove = UInt16.max
        var start = 0
        while start < values.count {
            let end = Swift.min(values.count, start + 32_768)
            var blockCount: UInt16 = 0
            var blockLeast = UInt16.max
            var blockLeastAbove = UInt16.max
            for index in start..<end {
                let value = values[index]
                blockCount &+= value <= bound ? 1 : 0
                blockLeast = value < blockLeast ? value : blockLeast
                let above = value > bound ? value : .max
                blockLeastAbove = above < blockLeastAbove ? above : blockLeastAbove
            }
            count += Int(blockCount)
            least = Swift.min(least, blockLeast)
            leastAbove = Swift.min(leastAbove, blockLeastAbove)
            start = end
        }
        return (count, least, leastAbove)
    }
}

extension UInt8: RuleSum {
    typealias Tiered = UInt16

    static var missed: UInt8 { .max }

    // A code of at most 3 typos is below 32: typos in bits 3–4, the
    // prefix bit 2, the field bits 0–1; a miss (0xFF) alone has bit 7,
    // which becomes all ones. Plain arithmetic, no select: the loops over
    // a chunk's slots then vectorise.
    @inline(__always)
    static func part(ofCode code: UInt8) -> UInt8 {
        (code & 0x18) &<< 2 | (code & 4) &<< 1 | code & 3 | (0 &- (code &>> 7))
    }

    // A part of a hit is at most 0x6B: bit 7 set in either is a miss.
    @inline(__always)
    static func adding(_ part: UInt8, to sum: UInt8) -> UInt8 { (sum &+ part) | (0 &- ((part | sum) &>> 7)) }

    @inline(__always)
    static func ruleBits(of sum: UInt8) -> UInt64 {
        UInt64(sum >> 5) << 56 | UInt64((sum >> 3) & 3) << 48 | UInt64(sum & 7) << 40
    }

    static func countAtMost(_ bound: UInt8, in values: UnsafeBufferPointer<UInt8>) -> (count: Int, least: UInt8, leastAbove: UInt8) {
        var count = 0
        var least = UInt8.max
        var leastAbove = UInt8.max
        var start = 0
        while start < values.count {
            let end = Swift.min(values.count, start + 240)
            var blockCount: UInt8 = 0
            var blockLeast = UInt8.max
            var blockLeastAbove = UInt8.max
            for index in start..<end {
                let value = values[index]
                blockCount &+= value <= bound ? 1 : 0
                blockLeast = value < blockLeast ? value : blockLeast
                let above = value > bound ? value : .max
                blockLeastAbove = above < blockLeastAbove ? above : blockLeastAbove
            }
            count += Int(blockCount)
            least = Swift.min(least, blockLeast)
            leastAbove = Swift.min(leastAbove, blockLeastAbove)
            start = end
        }
        return (count, least, leastAbove)
    }
}
