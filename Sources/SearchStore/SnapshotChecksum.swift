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

    var value: UInt64 {
        var copy = self
        if copy.pendingCount > 0 { copy.add(copy.pending ^ UInt64(copy.pendingCount) << 56) }
        return copy.sum ^ (copy.weighted &* 0x0000_0100_0000_01B3)
    }
}
