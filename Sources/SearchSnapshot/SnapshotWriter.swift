import SearchIndex
/// Appends values as bytes and hands them on in large chunks, so that a
/// snapshot of any size streams to its file without being held whole.
///
/// Plain values are written in their in-memory layout (the snapshot is a
/// cache for this machine and this build; the reader checks both). Arrays
/// of plain values are written as a count followed by their bytes in one
/// piece.
struct SnapshotWriter {
    typealias Sink = (UnsafeRawBufferPointer) throws -> Void

    private var buffer: [UInt8] = []
    private let sink: Sink
    /// Bytes written so far, for alignment.
    private(set) var position = 0
    private let chunkSize = 1 << 22

    /// `bufferCapacity`: room made at once for the bytes held before they
    /// go to the sink (a writer of one small chunk needs little).
    init(bufferCapacity: Int = 1 << 22, sink: @escaping Sink) {
        self.sink = sink
        buffer.reserveCapacity(bufferCapacity)
    }

    /// Hands every buffered byte to the sink.
    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try sink($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
        position += bytes.count
        if bytes.count >= chunkSize / 4 {
            // Large arrays go straight through instead of being copied twice.
            try flush()
            try sink(bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= chunkSize { try flush() }
    }

    /// Bytes as they are, without a count.
    mutating func write(raw bytes: UnsafeRawBufferPointer) throws {
        try append(bytes)
    }

    mutating func write<T: BitwiseCopyable>(_ value: T) throws {
        try withUnsafeBytes(of: value) { try append($0) }
    }

    mutating func write(_ flag: Bool) throws {
        try write(UInt8(flag ? 1 : 0))
    }

    mutating func write(_ count: Int) throws {
        try write(Int64(count))
    }

    mutating func write(_ string: String) throws {
        var string = string
        try string.withUTF8 { utf8 in
            try write(UInt32(utf8.count))
            try append(UnsafeRawBufferPointer(utf8))
        }
    }

    mutating func write(_ string: String?) throws {
        try write(string != nil)
        if let string { try write(string) }
    }

    mutating func write(_ strings: [String]) throws {
        try write(UInt32(strings.count))
        for string in strings { try write(string) }
    }

    mutating func write<T: BitwiseCopyable>(_ value: T?) throws {
        try write(value != nil)
        if let value { try write(value) }
    }

    /// A count, then every element's bytes in one piece.
    mutating func write<T: BitwiseCopyable>(array: [T]) throws {
        try write(UInt64(array.count))
        try array.withUnsafeBytes { try append($0) }
    }

    /// Where columns start: a multiple of this many bytes from the start.
    static let columnAlignment = 16

    /// A count, zeros up to the column alignment, then every element's
    /// bytes: a reader can use them where they lie (`FlatColumn`).
    mutating func write<T: BitwiseCopyable>(column: FlatColumn<T>) throws {
        try write(UInt64(column.count))
        let padding = (Self.columnAlignment - position % Self.columnAlignment) % Self.columnAlignment
        try withUnsafeBytes(of: (UInt64(0), UInt64(0))) { try append(UnsafeRawBufferPointer(rebasing: $0[0..<padding])) }
        try column.withUnsafeBufferPointer { try append(UnsafeRawBufferPointer($0)) }
    }
}
