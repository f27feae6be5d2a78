import Testing
@testable import SearchIndex
import TestSupport

@Suite struct SlotSortTests {
    /// Pairs put in slot order by the radix sort hold the same pairs, in
    /// the order of their slots, for slot widths of one pass and of
    /// several, a slot more than once, and counts around a pass's edges.
    @Test func pairsComeInSlotOrder() {
        var generator = SeededGenerator(seed: 53)
        for slotBits in [1, 5, 11, 12, 20, 30] {
            for count in [0, 1, 2, 3, 100, 4_096] {
                let pairs = (0..<count).map { _ in
                    UInt64.random(in: 0..<(1 << UInt64(slotBits)), using: &generator) << 8 | UInt64.random(in: 0...255, using: &generator)
                }
                var sorted = pairs
                SearchEngine.sortBySlot(&sorted, slotBits: slotBits)
                #expect(sorted.sorted() == pairs.sorted(), "\(slotBits) bits, \(count): the same pairs")
                #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $0 >> 8 <= $1 >> 8 }, "\(slotBits) bits, \(count): in slot order")
            }
        }
    }
}
