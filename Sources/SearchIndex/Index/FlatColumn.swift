/// A growable array of plain values whose storage may be borrowed: a
/// column of a loaded snapshot is read where it lies in the mapped file,
/// and copied into memory of its own only when it is first changed.
///
/// ```
///  loaded:   buffer ──► base ─┐          owner: the mapping (kept alive)
///                             ▼
///  file:     … header │ count │ pad │ e0 e1 e2 … en │ next section …
///
///  changed:  buffer ──► base ─► e0 e1 e2 … en · · · (room to grow)   owner: nil
/// ```
///
/// Why: at a million items the token arena is 370 MB. Copied out of the
/// file at load, every page of it was a fault on fresh memory (about 2 µs a
/// page on our machines: a third of a second, and the process's memory
/// grew by the same 370 MB); the file's pages, already in the page cache,
/// map in large folios for almost nothing and count only once touched.
///
/// A value type with copy-on-write storage, like `Array`.
struct FlatColumn<Element: BitwiseCopyable & Sendable>: Sendable {
    private var buffer: Buffer

    init() { buffer = Buffer(capacity: 0) }

    init(_ elements: [Element]) {
        buffer = Buffer(capacity: elements.count)
        elements.withUnsafeBufferPointer { buffer.append($0) }
    }

    /// A column of `count` values copied from `start` (which need not be
    /// aligned), with room for `capacity`.
    init(copying start: UnsafeRawPointer, count: Int, capacity: Int) {
        buffer = Buffer(capacity: Swift.max(count, capacity))
        buffer.append(bytes: start, count: count)
    }

    /// A column over `count` values at `start`, which stay valid and
    /// unchanged while `owner` lives (a read-only mapping of a file).
    init(borrowing start: UnsafePointer<Element>, count: Int, owner: AnyObject & Sendable) {
        buffer = Buffer(borrowing: start, count: count, owner: owner)
    }

    var count: Int { buffer.count }
    var isEmpty: Bool { buffer.count == 0 }
    var capacity: Int { buffer.capacity }
    /// Whether the values are still read from the storage they were loaded from.
    var isBorrowed: Bool { buffer.owner != nil }

    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < buffer.count, "index out of range")
            return buffer.base[index]
        }
        set {
            precondition(index >= 0 && index < buffer.count, "index out of range")
            makeUniqueOwned(capacity: buffer.capacity)
            buffer.base[index] = newValue
        }
    }

    /// The values in `range`, copied.
    func elements(in range: Range<Int>) -> [Element] {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "range out of bounds")
        return Array(UnsafeBufferPointer(start: buffer.base + range.lowerBound, count: range.count))
    }

    func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(buffer) { () throws(E) -> R in
            try body(UnsafeBufferPointer(start: buffer.base, count: buffer.count))
        }
    }

    mutating func reserveCapacity(_ minimum: Int) {
        guard minimum > buffer.capacity || !isKnownUniquelyReferenced(&buffer) || isBorrowed else { return }
        makeUniqueOwned(capacity: Swift.max(minimum, buffer.count))
    }

    mutating func append(_ value: Element) {
        withUnsafePointer(to: value) { append(contentsOf: UnsafeBufferPointer(start: $0, count: 1)) }
    }

    mutating func append(contentsOf values: [Element]) {
        values.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    mutating func append(contentsOf values: UnsafeBufferPointer<Element>) {
        let needed = buffer.count + values.count
        if needed > buffer.capacity || !isKnownUniquelyReferenced(&buffer) || isBorrowed {
            // Doubling, as Array grows; a borrowed column gains an eighth
            // (it is usually large, and a first insert after a load copies it).
            let grown = isBorrowed ? buffer.count + buffer.count / 8 : 2 * buffer.capacity
            makeUniqueOwned(capacity: Swift.max(needed, grown))
        }
        buffer.append(values)
    }

    /// Ensures the storage is this value's alone and its own allocation,
    /// with room for `capacity` values.
    private mutating func makeUniqueOwned(capacity: Int) {
        if isKnownUniquelyReferenced(&buffer), !isBorrowed, capacity <= buffer.capacity { return }
        let copy = Buffer(capacity: Swift.max(capacity, buffer.count))
        copy.append(UnsafeBufferPointer(start: buffer.base, count: buffer.count))
        buffer = copy
    }

    private final class Buffer: @unchecked Sendable {
        // Mutated only through a uniquely referenced, owned buffer (the
        // column's copy-on-write check), never while shared or borrowed.
        let base: UnsafeMutablePointer<Element>
        private(set) var count: Int
        let capacity: Int
        /// What keeps borrowed storage alive; nil when `base` is this buffer's allocation.
        let owner: (AnyObject & Sendable)?

        init(capacity: Int) {
            base = .allocate(capacity: Swift.max(capacity, 1))
            count = 0
            self.capacity = capacity
            owner = nil
        }

        init(borrowing start: UnsafePointer<Element>, count: Int, owner: AnyObject & Sendable) {
            base = UnsafeMutablePointer(mutating: start)
            self.count = count
            capacity = count
            self.owner = owner
        }

        func append(_ values: UnsafeBufferPointer<Element>) {
            precondition(owner == nil && count + values.count <= capacity)
            guard let source = values.baseAddress, !values.isEmpty else { return }
            (base + count).initialize(from: source, count: values.count)
            count += values.count
        }

        func append(bytes start: UnsafeRawPointer, count added: Int) {
            precondition(owner == nil && count + added <= capacity)
            UnsafeMutableRawPointer(base + count).copyMemory(from: start, byteCount: added * MemoryLayout<Element>.stride)
            count += added
        }

        deinit {
            if owner == nil { base.deallocate() }
        }
    }
}

extension FlatColumn: RandomAccessCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { buffer.count }

    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R? {
        try withExtendedLifetime(buffer) { try body(UnsafeBufferPointer(start: buffer.base, count: buffer.count)) }
    }
}
