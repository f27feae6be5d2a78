import Testing
@testable import SearchIndex

/// A two-term query sums its slots' rule values in a byte; every pair of
/// hit codes (at most 3 typos, or a miss) must order, count as a match and
/// pack into a candidate key exactly as the sixteen-bit sum does.
@Suite struct RuleSumTests {
    static let codes: [UInt8] = Array(0..<32) + [TermProbe.miss]

    func sums<V: RuleSum>(_: V.Type) -> [V] {
        Self.codes.flatMap { a in Self.codes.map { b in V.adding(V.part(ofCode: b), to: V.part(ofCode: a)) } }
    }

    @Test func aByteSumOfTwoTermsOrdersAndPacksAsTheWideSum() {
        let narrow = sums(UInt8.self), wide = sums(UInt16.self)
        for i in narrow.indices {
            #expect((narrow[i] < UInt8.missed) == (wide[i] < UInt16.missed), "match \(i)")
            if wide[i] < UInt16.missed {
                #expect(UInt8.ruleBits(of: narrow[i]) == UInt16.ruleBits(of: wide[i]), "key \(i)")
            }
            for j in narrow.indices where wide[i] < UInt16.missed && wide[j] < UInt16.missed {
                #expect((narrow[i] < narrow[j]) == (wide[i] < wide[j]), "order \(i) \(j)")
            }
        }
    }

    /// A sum with a tier below it orders as the sum, then the tier, for
    /// both widths; a slot that a term misses stays at or above the
    /// tiered `missed` whatever its tier, and every tiered value is below
    /// 2³¹ (the vector compares read its sign).
    @Test func tieredSumsOrderAsTheSumThenTheTier() {
        func check<V: RuleSum>(_: V.Type) {
            let tiers: [UInt8] = [0, 1, 63, 64, 191, 255]
            let values = sums(V.self).flatMap { sum in tiers.map { (sum, $0) } }
            for (sum, tier) in values {
                let tiered = V.tiered(sum, tier: tier)
                #expect(UInt64(tiered) < 1 << 31)
                #expect((sum < V.missed) == (tiered < V.tiered(V.missed, tier: 0)), "\(sum) \(tier)")
                #expect(tiered >> 8 == V.Tiered(sum))
            }
            for (a, tierA) in values.prefix(300) {
                for (b, tierB) in values.suffix(300) {
                    #expect((V.tiered(a, tier: tierA) < V.tiered(b, tier: tierB)) == ((a, tierA) < (b, tierB)), "\(a) \(tierA) \(b) \(tierB)")
                }
            }
        }
        check(UInt8.self)
        check(UInt16.self)
    }
}
