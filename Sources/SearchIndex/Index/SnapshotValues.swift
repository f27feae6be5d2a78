/// Values of `T` read where they lie in a snapshot's bytes, aligned or not:
/// for columns a load only reads once on its way to other structures (the
/// trie's), which a copy into an array would first write to new pages,
/// a cost for every cold start.
///
/// Valid while the bytes are: during the load that reads them. Sendable:
/// a view of bytes that nothing writes while it is read.
package struct SnapshotValues<T: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
    @usableFromInline let start: UnsafeRawPointer
    package let count: Int

    @inlinable package init(start: UnsafeRawPointer, count: Int) {
        self.start = start
        self.count = count
    }

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { count }

    @inlinable @inline(__always) package subscript(position: Int) -> T {
        precondition(position >= 0 && position < count, "a snapshot value out of range")
        return start.loadUnaligned(fromByteOffset: position * MemoryLayout<T>.stride, as: T.self)
    }
}
