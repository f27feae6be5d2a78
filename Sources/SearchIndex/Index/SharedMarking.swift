import SearchSupport

/// A count's marking (`SearchEngine.documentBits`) shared by two threads:
/// the posting lists to mark as runs of ordered nodes, each run taken by
/// whichever thread asks first (`SharedBlocks`), each thread marking a bit
/// set of its own.
///
/// A one-term count that marks many postings runs on the paired worker
/// while this thread ranks and makes the results; the largest counts take
/// far longer than the results. Sharing runs rather than halves lets this thread
/// join the marking as soon as its results are made, however long they
/// took. The two sets are merged once both are done
/// (`SearchEngine.mergedBits(_:outside:)`).
final class SharedMarking: @unchecked Sendable {
    /// Ranges of node indices (`runLength` at most) whose posting lists are marked.
    let runs: [Range<Int>]
    /// Slots in the engine: the length of each thread's bit set in words.
    let words: Int
    private let blocks: SharedBlocks
    /// Each thread's set, written by that thread only (before the
    /// caller's join, taken after it). Empty for a thread that took no run.
    private var firstBits: [UInt64] = []
    private var secondBits: [UInt64] = []
    /// The bits each thread set.
    private var firstCount = 0, secondCount = 0

    /// Nodes a run holds at most: small enough for the threads to end
    /// together, large enough that taking one costs nothing beside it.
    static let runLength = 64

    init(runs: [Range<Int>], slots: Int) {
        self.runs = runs
        self.words = (slots + 63) / 64
        blocks = SharedBlocks(count: runs.count)
    }

    /// Runs not taken yet (a hint: the other thread may be taking one).
    var runsLeft: Int { blocks.left }

    /// The next run not taken yet, nil when every run is taken.
    func takeRun() -> Range<Int>? { blocks.take().map { runs[$0] } }

    /// Stores the set of `thread` (0 or 1) and the bits it set.
    func finish(thread: Int, bits: [UInt64], count: Int) {
        if thread == 0 { (firstBits, firstCount) = (bits, count) } else { (secondBits, secondCount) = (bits, count) }
    }

    /// Both threads' sets and counts, moved out (after both are done).
    func takeBits() -> (first: [UInt64], firstCount: Int, second: [UInt64], secondCount: Int) {
        defer { (firstBits, secondBits) = ([], []) }
        return (firstBits, firstCount, secondBits, secondCount)
    }

    /// The runs of `ranges`, each cut into runs of at most `runLength` nodes.
    static func runs(of ranges: [Range<Int>]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for range in ranges {
            var low = range.lowerBound
            while low < range.upperBound {
                let high = min(low + runLength, range.upperBound)
                runs.append(low..<high)
                low = high
            }
        }
        return runs
    }
}
