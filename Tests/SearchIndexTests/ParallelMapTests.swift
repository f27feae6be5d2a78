import Foundation
import SearchSupport
import Testing

/// The map a bulk build shares between the paired worker and its
/// inserting thread (`ParallelWork.map(_:alongside:_:)`).
@Suite struct ParallelMapTests {
    /// Counts the instances alive, to see each output made once and freed once.
    final class Tracked: @unchecked Sendable {
        // Made on two threads at once: counted under a lock.
        private static let lock = NSLock()
        nonisolated(unsafe) private static var count = 0
        static var alive: Int { lock.withLock { count } }
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.lock.withLock { Self.count += 1 }
        }
        deinit { Self.lock.withLock { Self.count -= 1 } }
    }

    /// Every element is mapped once, in order, and `alongside` runs once,
    /// whether the worker is free or already busy with a part (a map
    /// nested in `both` runs on this thread alone).
    @Test(arguments: [0, 1, 15, 16, 17, 4_096, 10_001])
    func everyElementIsMappedOnceAndComesBackInOrder(count: Int) {
        var alongside = 0
        let outputs = ParallelWork.map(Array(0..<count), alongside: { alongside += 1 }) { $0 * 3 + 1 }
        #expect(outputs == (0..<count).map { $0 * 3 + 1 })
        #expect(alongside == 1)
        var nested: [Int] = []
        ParallelWork.both({
            nested = ParallelWork.map(Array(0..<count), alongside: { alongside += 1 }) { $0 * 2 }
        }, {})
        #expect(nested == (0..<count).map { $0 * 2 })
        #expect(alongside == 2)
    }

    @Test func outputsAreMadeOnceAndFreedOnce() {
        // One test at a time touches `alive` (the suite's other test uses no Tracked).
        do {
            let outputs = ParallelWork.map(Array(0..<1_000), alongside: { usleep(2_000) }) { Tracked($0) }
            #expect(outputs.map(\.value) == Array(0..<1_000))
            #expect(Tracked.alive == 1_000)
        }
        #expect(Tracked.alive == 0)
    }
}
