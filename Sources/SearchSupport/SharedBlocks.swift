import Synchronization

/// Blocks of work that two threads take one at a time, whichever asks
/// first, until none is left: the two sides of `ParallelWork.both` share a
/// pass this way when one side has work of its own first, so that neither
/// waits while the other still has blocks to do.
///
/// ```
///  blocks     0  1  2  3  4  5  6  7
///  taken by   W  W  W  C  W  C  W  C      W the paired worker from the start,
///                      ▲ the caller, once its own work is done
/// ```
/// Invariant: each block index below `count` is handed out exactly once.
package final class SharedBlocks: Sendable {
    /// How many blocks there are.
    package let count: Int
    private let next = Atomic<Int>(0)

    package init(count: Int) {
        self.count = count
    }

    /// The next block not taken yet, nil when every block is taken.
    package func take() -> Int? {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return index < count ? index : nil
    }

    /// Blocks not taken yet (a hint: the other thread may be taking one).
    package var left: Int { max(0, count - next.load(ordering: .relaxed)) }
}
