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
}
