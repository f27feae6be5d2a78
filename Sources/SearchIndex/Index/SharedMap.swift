import Dispatch
import Foundation

/// A map over `elements` that a worker thread starts at once and the
/// caller joins once it is free (`finish`): both take blocks of elements
/// until none is left, so neither waits while the other has work.
///
/// A bulk build inserts one chunk's tokens while the next chunk's
/// documents are built. With the documents left to a worker alone, the
/// inserting thread, done first, would wait on it; taking what is left,
/// it waits only for the worker's
/// last block.
final class SharedMap<Element: Sendable, Output: Sendable>: @unchecked Sendable {
    // Each output place is written once, by the thread that took its block
    // (blocks are handed out under `lock`), and read only after both
    // threads are done with their blocks.
    private let elements: [Element]
    private let transform: @Sendable (Element) -> Output
    private let outputs: UnsafeMutableBufferPointer<Output>
    private let lock = NSLock()
    private var nextBlock = 0
    private let group = DispatchGroup()
    private var finished = false
    private static var blockSize: Int { 16 }

    init(_ elements: [Element], _ transform: @escaping @Sendable (Element) -> Output) {
        self.elements = elements
        self.transform = transform
        outputs = .allocate(capacity: elements.count)
        DispatchQueue.global().async(group: group) { self.takeBlocks() }
    }

    private func takeBlocks() {
        while true {
            lock.lock()
            let start = nextBlock
            nextBlock += Self.blockSize
            lock.unlock()
            guard start < elements.count else { return }
            for index in start..<min(start + Self.blockSize, elements.count) {
                (outputs.baseAddress! + index).initialize(to: transform(elements[index]))
            }
        }
    }

    /// The outputs in order: the calling thread takes blocks too, then
    /// waits for the worker's last. Called once.
    func finish() -> [Output] {
        precondition(!finished, "a shared map is finished once")
        takeBlocks()
        group.wait()
        finished = true
        // Moved out, not copied (a copy of each document retained its strings and arrays).
        return [Output](unsafeUninitializedCapacity: outputs.count) { buffer, initialized in
            _ = buffer.moveInitialize(fromContentsOf: outputs)
            initialized = outputs.count
        }
    }

    deinit {
        // Never finished: the worker, whose block holds the map, took every
        // block before letting it go (waiting here could be on its own
        // thread, inside the group).
        if !finished { outputs.baseAddress?.deinitialize(count: outputs.count) }
        outputs.deallocate()
    }
}
