/// Values of `T` read where they lie in a snapshot's bytes, aligned or not:
/// for columns a load only reads once on its way to other structures (the
/// trie's), which a copy into an array would first write to new pages,
/// a cost for every cold start.
///
/// Valid while the bytes are: during the load that reads them. Sendable:
/// a view of bytes that nothing writes while it is read.
struct SnapshotValues<T: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
    let start: UnsafeRawPointer
    let count: Int

    init(start: UnsafeRawPointer, count: Int) {
        self.start = start
        self.count = count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always) subscript(position: Int) -> T {
        precondition(position >= 0 && position < count, "a snapshot value out of range")
        return start.loadUnaligned(fromByteOffset: position * MemoryLayout<T>.stride, as: T.self)
    }
}
