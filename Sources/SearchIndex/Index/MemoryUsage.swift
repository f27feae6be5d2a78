/// Where an engine's memory is, part by part, in bytes: what `bench`
/// reports beside the process's peak, so that a change to the engine's
/// size shows where it landed.
///
/// Estimates from element counts and strides (and, for hash tables, their
/// buckets), not the allocator's figures: an array's unused capacity is
/// left out (never touched, it is not resident), a heap object counts its
/// header. Bytes a loaded snapshot lends (columns and attribute sets read
/// in place from the mapped file) are counted apart, in `borrowed`: they
/// are resident only while their pages are.
public struct MemoryUsage: Sendable, Equatable {
    /// One part of the engine and the bytes it holds.
    public struct Part: Sendable, Equatable {
        public var name: String
        public var bytes: Int
    }

    /// The engine's own memory, largest part first.
    public var parts: [Part]
    /// Bytes read in place from a loaded snapshot's mapping.
    public var borrowed: Int

    /// The engine's own memory in all (`borrowed` not included).
    public var total: Int { parts.reduce(0) { $0 + $1.bytes } }

    /// The bytes of the part named `name` (0 if there is none).
    public subscript(name: String) -> Int { parts.first { $0.name == name }?.bytes ?? 0 }
}
