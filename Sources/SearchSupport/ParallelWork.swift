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

    /// Runs `first` on this thread and `second` on the paired worker at
    /// once (both here on one core, or while the worker is busy), for the
    /// two parts of a keystroke's work: `PairedWorker` says why not
    /// `concurrentPerform`.
    public static func both(_ first: () -> Void, _ second: () -> Void) {
        guard let worker = PairedWorker.shared else {
            first()
            second()
            return
        }
        worker.run(first, second)
    }
}
