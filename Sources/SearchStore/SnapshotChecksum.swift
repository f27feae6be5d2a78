import Dispatch

/// A running 64-bit Fletcher-style sum over the bytes of a snapshot file,
/// fed in pieces of any size: cheap enough to check a gigabyte at load,
/// and sensitive to both the value and the position of every word.
struct SnapshotChecksum {
    private var sum: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var weighted: UInt64 = 0
    private var pending: UInt64 = 0
    private var pendingCount = 0

    @inline(__always) private mutating func add(_ word: UInt64) {
        sum &+= word
        weighted &+= sum
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var index = 0
        // Finish the word the previous piece left open.
        while pendingCount > 0, index < bytes.count {
            pending |= UInt64(bytes[index]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            index += 1
            if pendingCount == 8 {
                add(pending)
                pending = 0
                pendingCount = 0
            }
        }
        while index + 8 <= bytes.count {
            add(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        while index < bytes.count {
            pending |= UInt64(bytes[index]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            index += 1
        }
    }

    /// The checksum of `bytes`, their whole words summed on `workers`
    /// threads at once: the same value as one `update` with all of them.
    /// Words after the first `n` add `n` times the running sum to the
    /// weighted sum, so sums of parts started from zero combine in order.
    ///
    /// `summed` is told of each stretch of bytes (a few MB) once it has been
    /// read, from the worker that read it: a mapped file's pages can be
    /// dropped as the sum goes, instead of the whole file counting in the
    /// process's memory at once (its peak, at a million items).
    static func of(
        _ bytes: UnsafeRawBufferPointer, workers: Int, summed: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil
    ) -> SnapshotChecksum {
        let words = bytes.count / 8
        let workers = max(1, min(workers, words / 4_096))
        var parts = [(sum: UInt64, weighted: UInt64, words: Int)](repeating: (0, 0, 0), count: workers)
        parts.withUnsafeMutableBufferPointer { parts in
            nonisolated(unsafe) let (out, input) = (parts, bytes)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let first = words * worker / workers, end = words * (worker + 1) / workers
                var sum: UInt64 = 0, weighted: UInt64 = 0
                for stretch in stride(from: first, to: end, by: Self.stretchWords) {
                    let stretchEnd = min(end, stretch + Self.stretchWords)
                    for index in stretch..<stretchEnd {
                        sum &+= input.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                        weighted &+= sum
                    }
                    summed?(UnsafeRawBufferPointer(rebasing: input[(stretch * 8)..<(stretchEnd * 8)]))
                }
                out[worker] = (sum, weighted, end - first)
            }
        }
        var checksum = SnapshotChecksum()
        for part in parts {
            checksum.weighted &+= part.weighted &+ UInt64(part.words) &* checksum.sum
            checksum.sum &+= part.sum
        }
        checksum.update(UnsafeRawBufferPointer(rebasing: bytes[(words * 8)...]))
        return checksum
    }

    /// Words summed between two calls of `of`'s `summed` (8 MB).
    private static let stretchWords = 1 << 20

    var value: UInt64 {
        var copy = self
        if copy.pendingCount > 0 { copy.add(copy.pending ^ UInt64(copy.pendingCount) << 56) }
        return copy.sum ^ (copy.weighted &* 0x0000_0100_0000_01B3)
    }
}
