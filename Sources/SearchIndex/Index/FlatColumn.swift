/// A growable array of plain values whose storage may be borrowed: a
/// column of a loaded snapshot is read where it lies in the mapped file,
/// and copied into memory of its own only when it is first changed.
///
/// ```
///  loaded:   buffer ──► header { count, borrowed ─┐, owner: the mapping }
///                                                 ▼
///  file:     … │ count │ pad │ e0 e1 e2 … en │ next section …
///
///  changed:  buffer ──► header { count, capacity } e0 e1 e2 … en · · ·   (one allocation)
///  one value, changed:  no buffer, the value held in the column itself
///  empty:    no buffer
/// ```
///
/// Why: the token arena and the trie's posting lists are most of a large
/// engine. Copied out of the file at load, every page of them is a fault
/// on fresh memory, and the process's memory grows by as much; the
/// file's pages, already in the page cache, map in large folios for
/// almost nothing and count only once touched.
///
/// A value type with copy-on-write storage, like `Array`.
package struct FlatColumn<Element: BitwiseCopyable & Sendable>: @unchecked Sendable {
    // Sendable as Array is: the buffer is changed only when uniquely referenced.
    private var buffer: Buffer?
    /// The value of a column that holds exactly one and no buffer. Most
    /// posting lists are one posting long: a buffer of their own (its
    /// object, a 32-byte header and room for four) would be an allocation
    /// of 64 bytes for 4. This field costs every node 8 bytes, less than
    /// it saves.
    private var single: Element?

    package init() {}

    init(_ elements: [Element]) {
        elements.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    /// A column of `count` values copied from `start` (which need not be
    /// aligned), with room for `capacity`.
    init(copying start: UnsafeRawPointer, count: Int, capacity: Int) {
        guard Swift.max(count, capacity) > 0 else { return }
        let buffer = Buffer.make(capacity: Swift.max(count, capacity))
        buffer.append(bytes: start, count: count)
        self.buffer = buffer
    }

    /// A column over the `count` values at `start`: borrowed when there is
    /// a `lender` to keep them (see `init(borrowing:count:owner:)`),
    /// else copied with room for `capacity`. How a snapshot's columns are
    /// read (`SnapshotReader.readColumnInPlace` says which may be borrowed).
    package init(at start: UnsafeRawPointer, count: Int, lender: (AnyObject & Sendable)?, capacity: Int) {
        if let lender {
            self.init(borrowing: start.assumingMemoryBound(to: Element.self), count: count, owner: lender)
        } else {
            self.init(copying: start, count: count, capacity: capacity)
        }
    }

    /// A column over `count` values at `start`, which stay valid and
    /// unchanged while `owner` lives (a read-only mapping of a file).
    init(borrowing start: UnsafePointer<Element>, count: Int, owner: AnyObject & Sendable) {
        guard count > 0 else { return }
        buffer = Buffer.make(borrowing: start, count: count, owner: owner)
    }

    @inline(__always) package var count: Int {
        if let buffer { return buffer.elementCount }
        return single == nil ? 0 : 1
    }
    package var isEmpty: Bool { count == 0 }
    var capacity: Int {
        if let buffer { return buffer.elementCapacity }
        return single == nil ? 0 : 1
    }
    /// Whether the values are still read from the storage they were loaded from.
    var isBorrowed: Bool { buffer?.isBorrowed ?? false }

    /// The lender's bytes a borrowed column reads (empty when it owns its values).
    var borrowedBytes: UnsafeRawBufferPointer {
        guard isBorrowed else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return withUnsafeBufferPointer { UnsafeRawBufferPointer($0) }
    }

    package subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "index out of range")
            // The buffer first: the token arena's columns read this for every token.
            if let buffer { return buffer.base[index] }
            return single.unsafelyUnwrapped
        }
        set {
            precondition(index >= 0 && index < count, "index out of range")
            if single != nil {
                single = newValue
                return
            }
            makeUniqueOwned(capacity: capacity)
            buffer.unsafelyUnwrapped.base[index] = newValue
        }
    }

    /// The values in `range`, copied.
    func elements(in range: Range<Int>) -> [Element] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
        if let single, !range.isEmpty { return [single] }
        guard let buffer, !range.isEmpty else { return [] }
        return withExtendedLifetime(buffer) { Array(UnsafeBufferPointer(start: buffer.base + range.lowerBound, count: range.count)) }
    }

    package func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        guard let buffer else {
            guard let single else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
            return try withUnsafePointer(to: single) { (value) throws(E) -> R in try body(UnsafeBufferPointer(start: value, count: 1)) }
        }
        return try withExtendedLifetime(buffer) { () throws(E) -> R in
            let (base, count) = buffer.withUnsafeMutablePointers { header, elements in
                (header.pointee.borrowed ?? elements, header.pointee.count)
            }
            return try body(UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// Changes the values in place, in storage of this column's own
    /// (copied first when borrowed or shared).
    mutating func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> R) rethrows -> R {
        guard count > 0 else { return try body(UnsafeMutableBufferPointer(start: nil, count: 0)) }
        if var value = single {
            defer { single = value }
            return try withUnsafeMutablePointer(to: &value) { try body(UnsafeMutableBufferPointer(start: $0, count: 1)) }
        }
        makeUniqueOwned(capacity: capacity)
        let buffer = buffer.unsafelyUnwrapped
        return try withExtendedLifetime(buffer) { try body(UnsafeMutableBufferPointer(start: buffer.base, count: buffer.elementCount)) }
    }

    /// A copy in storage of its own with room for `capacity` values,
    /// whatever this one's storage is.
    func ownedCopy(capacity: Int) -> FlatColumn {
        var copy = FlatColumn()
        if count == 1 {
            copy.single = self[0]
            return copy
        }
        copy.buffer = Buffer.make(capacity: Swift.max(capacity, count, 1))
        withUnsafeBufferPointer { copy.buffer.unsafelyUnwrapped.append($0) }
        return copy
    }

    package mutating func reserveCapacity(_ minimum: Int) {
        guard minimum > capacity || !isUniqueOwned else { return }
        makeUniqueOwned(capacity: Swift.max(minimum, count))
    }

    mutating func append(_ value: Element) {
        // The common case in place (no binding first: a second reference
        // would make the uniqueness check fail).
        if isKnownUniquelyReferenced(&buffer), buffer.unsafelyUnwrapped.hasRoomOfItsOwn {
            buffer.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
                (elements + header.pointee.count).initialize(to: value)
                header.pointee.count += 1
            }
            return
        }
        withUnsafePointer(to: value) { append(contentsOf: UnsafeBufferPointer(start: $0, count: 1)) }
    }

    mutating func append(contentsOf values: [Element]) {
        values.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    package mutating func append(contentsOf values: UnsafeBufferPointer<Element>) {
        guard !values.isEmpty else { return }
        if values.count == 1, buffer == nil, single == nil {
            single = values[0]
            return
        }
        let needed = count + values.count
        if needed > capacity || !isUniqueOwned {
            // Doubling, as Array grows; a borrowed column gains an eighth
            // (it is usually large, and a first insert after a load copies it).
            let grown = isBorrowed ? count + count / 8 : 2 * capacity
            makeUniqueOwned(capacity: Swift.max(needed, grown, 4))
        }
        buffer.unsafelyUnwrapped.append(values)
    }

    /// Adds `added` values after the last, with room for `room` more, and
    /// returns where the first of them goes: the caller writes every one
    /// before the column is read or changed again.
    mutating func appendUninitialized(_ added: Int, room: Int) -> UnsafeMutablePointer<Element> {
        precondition(added > 0, "at least one value")
        makeUniqueOwned(capacity: count + added + room)
        return buffer.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            defer { header.pointee.count += added }
            return elements + header.pointee.count
        }
    }

    /// Removes the last value.
    mutating func removeLast() {
        precondition(count > 0, "removeLast from an empty column")
        if single != nil {
            single = nil
            return
        }
        makeUniqueOwned(capacity: capacity)
        buffer.unsafelyUnwrapped.withUnsafeMutablePointerToHeader { $0.pointee.count -= 1 }
    }

    /// Whether the values are this column's alone, in storage of its own
    /// (a single value always is; an empty column has no storage).
    private var isUniqueOwned: Bool {
        mutating get { single != nil || isKnownUniquelyReferenced(&buffer) && !(buffer?.isBorrowed ?? false) }
    }

    /// Ensures the storage is this value's alone and its own allocation,
    /// with room for `capacity` values.
    private mutating func makeUniqueOwned(capacity: Int) {
        if isUniqueOwned, capacity <= self.capacity { return }
        let copy = Buffer.make(capacity: Swift.max(capacity, count, 1))
        if let buffer {
            withExtendedLifetime(buffer) { copy.append(UnsafeBufferPointer(start: buffer.base, count: buffer.elementCount)) }
        } else if let single {
            withUnsafePointer(to: single) { copy.append(UnsafeBufferPointer(start: $0, count: 1)) }
        }
        buffer = copy
        single = nil
    }

    fileprivate struct Header {
        var count: Int
        /// Room in the buffer's own elements (0 when borrowed).
        var capacity: Int
        var borrowed: UnsafeMutablePointer<Element>?
        /// What keeps borrowed values alive.
        var owner: (AnyObject & Sendable)?
    }

    fileprivate final class Buffer: ManagedBuffer<Header, Element> {
        // Changed only through a uniquely referenced buffer that owns its
        // elements (the column's copy-on-write check), never while shared
        // or borrowed.

        static func make(capacity: Int) -> Buffer {
            unsafeDowncast(create(minimumCapacity: capacity) { _ in
                Header(count: 0, capacity: capacity, borrowed: nil, owner: nil)
            }, to: Buffer.self)
        }

        static func make(borrowing start: UnsafePointer<Element>, count: Int, owner: AnyObject & Sendable) -> Buffer {
            unsafeDowncast(create(minimumCapacity: 0) { _ in
                Header(count: count, capacity: 0, borrowed: UnsafeMutablePointer(mutating: start), owner: owner)
            }, to: Buffer.self)
        }

        var isBorrowed: Bool { withUnsafeMutablePointerToHeader { $0.pointee.borrowed != nil } }

        /// The value count. The header is always read through its pointer:
        /// `header`, a class's stored property, has every access checked
        /// for exclusivity at run time (a thread-local lookup and a call),
        /// paid for every posting list a subtree walk visits.
        var elementCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }
        /// The room for values, read the same way.
        var elementCapacity: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

        /// Whether one more value fits in this buffer's own elements.
        var hasRoomOfItsOwn: Bool {
            withUnsafeMutablePointerToHeader { $0.pointee.borrowed == nil && $0.pointee.count < $0.pointee.capacity }
        }

        /// The first value: borrowed, or this buffer's own.
        var base: UnsafeMutablePointer<Element> {
            withUnsafeMutablePointers { header, elements in header.pointee.borrowed ?? elements }
        }

        func append(_ values: UnsafeBufferPointer<Element>) {
            guard let source = values.baseAddress, !values.isEmpty else { return }
            withUnsafeMutablePointers { header, elements in
                precondition(header.pointee.borrowed == nil && header.pointee.count + values.count <= header.pointee.capacity)
                (elements + header.pointee.count).initialize(from: source, count: values.count)
                header.pointee.count += values.count
            }
        }

        func append(bytes start: UnsafeRawPointer, count added: Int) {
            withUnsafeMutablePointers { header, elements in
                precondition(header.pointee.borrowed == nil && header.pointee.count + added <= header.pointee.capacity)
                UnsafeMutableRawPointer(elements + header.pointee.count)
                    .copyMemory(from: start, byteCount: added * MemoryLayout<Element>.stride)
                header.pointee.count += added
            }
        }
    }
}

extension FlatColumn: RandomAccessCollection {
    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    /// Iterates from the first value's address, read once (the
    /// collection's default would find it again for every value).
    package struct Iterator: IteratorProtocol {
        private let buffer: Buffer?
        private let base: UnsafeMutablePointer<Element>?
        private let count: Int
        private var single: Element?
        private var index = 0

        fileprivate init(_ buffer: Buffer?, single: Element?) {
            self.buffer = buffer
            base = buffer?.base
            count = buffer?.elementCount ?? 0
            self.single = single
        }

        package mutating func next() -> Element? {
            if let value = single {
                single = nil
                return value
            }
            guard index < count else { return nil }
            defer { index += 1 }
            return base.unsafelyUnwrapped[index]
        }
    }

    package func makeIterator() -> Iterator { Iterator(buffer, single: single) }

    package func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R? {
        try withUnsafeBufferPointer { buffer in try body(buffer) }
    }
}
