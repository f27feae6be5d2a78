import Foundation
import Testing
@testable import SearchIndex

/// The map a bulk build shares between its worker and its inserting thread.
@Suite struct SharedMapTests {
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

    @Test(arguments: [0, 1, 15, 16, 17, 4_096, 10_001])
    func everyElementIsMappedOnceAndComesBackInOrder(count: Int) {
        let map = SharedMap(Array(0..<count)) { $0 * 3 + 1 }
        #expect(map.finish() == (0..<count).map { $0 * 3 + 1 })
    }

    @Test func outputsAreMovedOutAndFreedOnce() {
        // One test at a time touches `alive` (the suite's other test uses no Tracked).
        do {
            let outputs = SharedMap(Array(0..<1_000)) { Tracked($0) }.finish()
            #expect(outputs.map(\.value) == Array(0..<1_000))
            #expect(Tracked.alive == 1_000)
        }
        #expect(Tracked.alive == 0)
        // A map dropped before it is finished still frees what it made,
        // once its worker (which holds it until its last block) lets go.
        weak var dropped: SharedMap<Int, Tracked>?
        do {
            let map = SharedMap(Array(0..<100)) { Tracked($0) }
            dropped = map
        }
        let deadline = Date().addingTimeInterval(10)
        while dropped != nil, Date() < deadline { usleep(1_000) }
        #expect(dropped == nil)
        #expect(Tracked.alive == 0)
    }
}
