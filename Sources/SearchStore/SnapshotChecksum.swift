import Dispatch
import Glibc

/// A running 64-bit Fletcher-style sum over the bytes of a snapshot file,
/// fed in pieces of any size (or read from the file on every core at
/// once): cheap enough to check a gigabyte at load, and sensitive to both
/// the value and the position of every word.
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

    /// The checksum of `count` bytes of the file open at `descriptor`,
    /// from `offset`: the same value as one `update` with all of them.
    /// Their whole words are summed on `workers` threads at once, each
    /// reading its part with `pread` a piece at a time into a buffer of
    /// its own, not through a mapping of the file (a fault for every few
    /// pages, and a call to drop them again). Words after the first `n` add `n` times
    /// the running sum to the weighted sum, so sums of parts started from
    /// zero combine in order. Nil when the file cannot be read whole.
    static func of(descriptor: Int32, offset: Int, count: Int, workers: Int) -> SnapshotChecksum? {
        let words = count / 8
        let workers = max(1, min(workers, words / 4_096))
        var parts = [(sum: UInt64, weighted: UInt64, words: Int, read: Bool)](repeating: (0, 0, 0, false), count: workers)
        parts.withUnsafeMutableBufferPointer { parts in
            nonisolated(unsafe) let out = parts
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let first = words * worker / workers, end = words * (worker + 1) / workers
                let piece = UnsafeMutableRawPointer.allocate(byteCount: pieceWords * 8, alignment: 64)
                defer { piece.deallocate() }
                var sum: UInt64 = 0, weighted: UInt64 = 0
                var word = first
                while word < end {
                    let pieceCount = min(end - word, pieceWords)
                    guard readFully(descriptor, into: piece, count: pieceCount * 8, at: offset + word * 8) else { return }
                    for index in 0..<pieceCount {
                        sum &+= piece.load(fromByteOffset: index * 8, as: UInt64.self)
                        weighted &+= sum
                    }
                    word += pieceCount
                }
                out[worker] = (sum, weighted, end - first, true)
            }
        }
        guard parts.allSatisfy(\.read) else { return nil }
        var checksum = SnapshotChecksum()
        for part in parts {
            checksum.weighted &+= part.weighted &+ UInt64(part.words) &* checksum.sum
            checksum.sum &+= part.sum
        }
        var tail = [UInt8](repeating: 0, count: count - words * 8)
        let tailRead = tail.withUnsafeMutableBytes { buffer in
            buffer.isEmpty || readFully(descriptor, into: buffer.baseAddress!, count: buffer.count, at: offset + words * 8)
        }
        guard tailRead else { return nil }
        tail.withUnsafeBytes { checksum.update($0) }
        return checksum
    }

    private static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Bool {
        var done = 0
        while done < count {
            let got = pread(descriptor, buffer + done, count - done, off_t(offset + done))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return false }
            done += got
        }
        return true
    }

    /// Words read by one `pread` (256 KB: the piece stays in the core's cache to be summed).
    private static let pieceWords = 1 << 15

    var value: UInt64 {
        var copy = self
        if copy.pendingCount > 0 { copy.add(copy.pending ^ UInt64(copy.pendingCount) << 56) }
        return copy.sum ^ (copy.weighted &* 0x0000_0100_0000_01B3)
    }
}
