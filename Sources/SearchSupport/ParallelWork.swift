import Foundation

/// Work shared among the cores in contiguous parts, for the engine and for
/// the modules that read and write its items (importing, the store).
public enum ParallelWork {
    /// Threads for work shared among the cores. Read once: the count comes
    /// from files under /proc and the cgroup, which cost more to read than
    /// a one-item update costs in all.
    public static let workerCount = min(ProcessInfo.processInfo.activeProcessorCount, 8)

    /// `transform` applied to every element, in order. From `minimum`
    /// elements the cores share them in contiguous parts (no two threads
    /// write near each other), each part with a transform of its own from
    /// `makeTransform` (Foundation's coders must not be shared between
    /// threads). The error thrown is the first failing element's, as in a
    /// plain `map`.
    public static func map<Element, Output>(
        _ elements: ArraySlice<Element>, minimum: Int, _ makeTransform: () -> (Element) throws -> Output
    ) throws -> [Output] {
        let workers = elements.count >= minimum ? max(1, min(workerCount, elements.count)) : 1
        guard workers > 1 else { return try elements.map(makeTransform()) }
        var parts = [Result<[Output], any Error>](repeating: .success([]), count: workers)
        parts.withUnsafeMutableBufferPointer { parts in
            nonisolated(unsafe) let (out, make) = (parts, makeTransform)
            nonisolated(unsafe) let elements = elements
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let first = elements.startIndex
                let share = elements[(first + elements.count * worker / workers)..<(first + elements.count * (worker + 1) / workers)]
                out[worker] = Result { try share.map(make()) }
            }
        }
        var results: [Output] = []
        results.reserveCapacity(elements.count)
        for part in parts { results.append(contentsOf: try part.get()) }
        return results
    }

    /// `transform` of every element, in order, made by the paired worker
    /// while this thread runs `alongside`, and by both threads once it is
    /// done (`SharedBlocks` of `blockSize` elements).
    ///
    /// A bulk build inserts one chunk's tokens (`alongside`, which only
    /// this thread may do) while the next chunk's documents are made.
    /// `transform` runs on both threads at once. The worker is taken for
    /// the whole call: a keystroke on another thread meanwhile runs its
    /// two parts on its own thread.
    public static func map<Element, Output>(
        _ elements: [Element], blockSize: Int = 16, alongside: () -> Void, _ transform: (Element) -> Output
    ) -> [Output] {
        let blocks = SharedBlocks(count: (elements.count + blockSize - 1) / blockSize)
        return [Output](unsafeUninitializedCapacity: elements.count) { buffer, initialized in
            // Each place is written once, by the thread that took its block.
            nonisolated(unsafe) let out = buffer
            func takeBlocks() {
                while let block = blocks.take() {
                    for index in (block * blockSize)..<min(elements.count, (block + 1) * blockSize) {
                        (out.baseAddress! + index).initialize(to: transform(elements[index]))
                    }
                }
            }
            both({
                alongside()
                takeBlocks()
            }, takeBlocks)
            initialized = elements.count
        }
    }

    /// Runs `first` on this thread and `second` on the paired worker at
    /// once (both here on one core, or while the worker is busy): the one
    /// way the engine runs two different parts of work at once, a
    /// keystroke's as a build's (one pass shared among all the cores goes
    /// to `concurrentPerform`). `PairedWorker` says why.
    public static func both(_ first: () -> Void, _ second: () -> Void) {
        guard let worker = PairedWorker.shared else {
            first()
            second()
            return
        }
        worker.run(first, second)
    }
}
