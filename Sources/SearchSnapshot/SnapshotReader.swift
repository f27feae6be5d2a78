import Dispatch
import Glibc
import SearchIndex
import SearchSupport

/// Reads what `SnapshotWriter` wrote, checking every length against the
/// bytes that remain: damaged input throws, it never reads out of bounds
/// or allocates what the input cannot hold.
struct SnapshotReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0
    /// Domains read by `readDomain`, handed back again when the same bytes
    /// come (a few domains name a million items). Each chunk of a section
    /// is read by a reader of its own, so each has its own.
    private var domainNames = SnapshotDomainNames()
    /// Keeps `bytes` valid and unchanged for as long as it lives, so
    /// columns may borrow them; nil: every column is copied.
    let owner: (AnyObject & Sendable)?
    /// Keeps the run of sets valid: the owner of the bytes, unless the
    /// sets lie elsewhere (a store's bodies: `SearchEngine(snapshot:…sets:)`).
    let setsOwner: (AnyObject & Sendable)?
    /// Whether the bytes are known to be what a writer wrote (a file whose
    /// checksum held): structures the writer checked need not be walked
    /// again (see `readAttributes`). Lengths are checked all the same.
    let verified: Bool
    /// The window over the run of sets that the last sets read share
    /// (`readAttributes`), and where it starts in the run.
    var setWindow: (start: Int, storage: PackedStorage)?

    init(
        _ bytes: UnsafeRawBufferPointer, owner: (AnyObject & Sendable)? = nil, setsOwner: (AnyObject & Sendable)?? = nil,
        verified: Bool = false
    ) {
        self.bytes = bytes
        self.owner = owner
        self.setsOwner = setsOwner ?? owner
        self.verified = verified
    }

    /// Lets the owner of the bytes drop the pages read so far, when it can
    /// (`DroppablePages`), as the structures are built from them: they
    /// would otherwise stay resident beside those structures until the
    /// load ends, raising its peak. Pages read again come
    /// back from the page cache.
    func releaseConsumed() {
        (owner as? DroppablePages)?.dropPages()
    }

    var isAtEnd: Bool { offset == bytes.count }

    @inline(__always) private func need(_ count: Int, _ what: StaticString) throws(SnapshotError) {
        guard count >= 0, count <= bytes.count - offset else { throw Self.truncated(inside: what) }
    }

    @inline(never) private static func truncated(inside what: StaticString) -> SnapshotError {
        SnapshotError(.truncated, "the snapshot ends inside \(what)")
    }

    // This read and the small ones below are inlined: they are made for
    // every field of every record and document.
    @inline(__always) mutating func read<T: BitwiseCopyable>(_: T.Type = T.self) throws(SnapshotError) -> T {
        try need(MemoryLayout<T>.size, "a value")
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
        return value
    }

    @inline(__always)
    mutating func readBool() throws(SnapshotError) -> Bool {
        switch try read(UInt8.self) {
        case 0: return false
        case 1: return true
        default: throw SnapshotError(.malformed, "a flag is neither 0 nor 1")
        }
    }

    mutating func readCount() throws(SnapshotError) -> Int {
        let value = try read(Int64.self)
        guard value >= 0, value <= Int64(bytes.count) else { throw SnapshotError(.malformed, "a count is out of range") }
        return Int(value)
    }

    @inline(__always)
    mutating func readString() throws(SnapshotError) -> String {
        let count = Int(try read(UInt32.self))
        try need(count, "a string")
        let utf8 = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        offset += count
        // Decoding repairs rather than refuses bad UTF-8; the file's checksum
        // is what catches damage, and this path is the hot one at load.
        return String(decoding: utf8.bindMemory(to: UInt8.self), as: UTF8.self)
    }

    /// The next `count` bytes, left where they lie.
    @inline(__always)
    mutating func readBytes(_ count: Int) throws(SnapshotError) -> UnsafeRawBufferPointer {
        try need(count, "a run of bytes")
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    /// An optional domain, as `write(_: String?)` wrote it: the object
    /// the documents of that domain share (see `SnapshotDomainNames`).
    mutating func readDomain() throws(SnapshotError) -> DomainName? {
        guard try readBool() else { return nil }
        return domainNames.name(for: try readBytes(Int(try read(UInt32.self))))
    }

    mutating func readOptionalString() throws(SnapshotError) -> String? {
        try readBool() ? try readString() : nil
    }


    @inline(__always)
    mutating func readOptional<T: BitwiseCopyable>(_: T.Type = T.self) throws(SnapshotError) -> T? {
        try readBool() ? try read(T.self) : nil
    }

    /// With `growing`, the array has room to grow by an eighth: an array
    /// loaded full makes the first append after a load copy all of it, a
    /// pause for the first one-item insert. Untouched capacity is address space, not
    /// memory.
    mutating func readArray<T: BitwiseCopyable>(of _: T.Type = T.self, growing: Bool = false) throws(SnapshotError) -> [T] {
        let (raw, count) = try readArrayInPlace(of: T.self)
        return Self.array(from: raw, count: count, capacity: growing ? Self.growingCapacity(count) : 0)
    }

    /// A column `write(column:)` wrote: borrowed where it lies when the
    /// bytes have an owner and the values are aligned there, else copied
    /// with room to grow.
    mutating func readColumn<T: BitwiseCopyable>(of _: T.Type = T.self) throws(SnapshotError) -> FlatColumn<T> {
        let (start, count, lender) = try readColumnInPlace(of: T.self)
        return FlatColumn(at: start, count: count, lender: lender, capacity: Self.growingCapacity(count))
    }

    /// A column `write(column:)` wrote, left where it lies: its first
    /// value, its count, and the owner to borrow it from (nil when it must
    /// be copied: the bytes have no owner, or the values are not aligned).
    mutating func readColumnInPlace<T: BitwiseCopyable>(
        of _: T.Type = T.self
    ) throws(SnapshotError) -> (start: UnsafeRawPointer, count: Int, lender: (AnyObject & Sendable)?) {
        let count = Int(try read(UInt64.self) & 0x7FFF_FFFF_FFFF_FFFF)
        let alignment = SnapshotWriter.columnAlignment
        let padding = (alignment - offset % alignment) % alignment
        try need(padding, "a column's padding")
        offset += padding
        let start = try takeValues(of: T.self, count: count)
        let aligned = Int(bitPattern: start) % MemoryLayout<T>.alignment == 0
        return (start, count, aligned ? owner : nil)
    }

    /// The capacity of an array loaded with room to grow.
    static func growingCapacity(_ count: Int) -> Int { count + count / 8 }

    /// An array `write(array:)` wrote, left where it lies: its first value's
    /// bytes and its count, for callers that cut one flat array into many.
    @inline(__always)
    mutating func readArrayInPlace<T: BitwiseCopyable>(
        of _: T.Type = T.self
    ) throws(SnapshotError) -> (start: UnsafeRawPointer, count: Int) {
        let count = Int(try read(UInt64.self) & 0x7FFF_FFFF_FFFF_FFFF)
        return (try takeValues(of: T.self, count: count), count)
    }

    /// The next `count` values of `T`, left where they lie.
    @inline(__always)
    private mutating func takeValues<T>(of _: T.Type, count: Int) throws(SnapshotError) -> UnsafeRawPointer {
        let stride = MemoryLayout<T>.stride
        guard count <= (bytes.count - offset) / max(stride, 1) else {
            throw SnapshotError(.truncated, "the snapshot ends inside an array")
        }
        defer { offset += count * stride }
        return bytes.baseAddress! + offset
    }

    /// A new array holding `count` values of `T` copied from `raw` (which
    /// need not be aligned). A large one is copied on every core at once:
    /// the copy is mostly first touches of new pages and of the mapped
    /// file's, and a load's slot tables and trie labels would otherwise be
    /// copied on one core while the other waits.
    static func array<T: BitwiseCopyable>(from raw: UnsafeRawPointer, count: Int, capacity: Int = 0) -> [T] {
        guard count > 0 else { return [] }
        return [T](unsafeUninitializedCapacity: max(count, capacity)) { buffer, initialized in
            let target = UnsafeMutableRawPointer(buffer.baseAddress!)
            let byteCount = count * MemoryLayout<T>.stride
            let workers = byteCount >= parallelCopyMinimum ? ParallelWork.workerCount : 1
            if workers > 1 {
                nonisolated(unsafe) let (source, destination) = (raw, target)
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    let start = byteCount * worker / workers, end = byteCount * (worker + 1) / workers
                    (destination + start).copyMemory(from: source + start, byteCount: end - start)
                }
            } else {
                target.copyMemory(from: raw, byteCount: byteCount)
            }
            initialized = count
        }
    }

    /// Bytes from which `array(from:count:capacity:)` copies on every core.
    static let parallelCopyMinimum = 1 << 22
}

extension SnapshotReader {
    /// An array `write(array:)` wrote, left where it lies.
    mutating func readValues<T: BitwiseCopyable>(of _: T.Type = T.self) throws(SnapshotError) -> SnapshotValues<T> {
        let (start, count) = try readArrayInPlace(of: T.self)
        return SnapshotValues(start: start, count: count)
    }
}
