import SearchSupport

/// The slot of each document by identifier: a table of slots keyed by the
/// documents' own identifiers (`TaggedBuckets`).
///
/// ```
///  buckets    [ 0 │ 9f·3 │ 0 │ 11·1 │ … ]   the hash's low byte · slot + 1 (0: empty)
///  documents  [ d0 │ d1 │ d2 │ d3 … ]       a bucket's key is its document's identifier
/// ```
///
/// A probe reads the document of a bucket only where the hash's low byte
/// agrees. Moving buckets (a removal's shift, growing) hashes the moved
/// slots' identifiers again: every slot in the table but one being removed
/// has its document then, as the engine puts a document in its slot right
/// after the slot goes in, and takes it out right before the slot goes.
///
/// Why: `[String: UInt32]` holds a copy of each identifier in its buckets,
/// up to two buckets an entry, where these buckets are 4 bytes.
package struct SlotTable: Sendable {
    private var buckets = TaggedBuckets()

    /// How many identifiers the table holds.
    var count: Int { buckets.count }

    /// The slot of `id`, whose document is in `documents`.
    package func slot(of id: String, in documents: [Document?]) -> UInt32? {
        guard case .found(_, let slot) = probe(id, hash: Self.hash(id), in: documents) else { return nil }
        return slot
    }

    /// Adds `id` at `slot` (the caller knows it is not in the table).
    mutating func insert(_ id: String, slot: UInt32, in documents: [Document?]) {
        let hash = Self.hash(id)
        buckets.reserve(for: count + 1, hashOf: Self.hashOf(documents))
        // No key is this one: the probe ends at the first empty bucket.
        guard case .vacant(let bucket) = buckets.probe(hash: hash, tag: Self.tag(hash), isKey: { _ in false }) else { return }
        buckets.fill(bucket, tag: Self.tag(hash), slot: slot)
    }

    /// Puts `id` at `slot`, in place of its slot if the table holds it
    /// already (a load that meets an identifier twice keeps the last).
    package mutating func set(_ id: String, slot: UInt32, in documents: [Document?]) {
        let hash = Self.hash(id)
        buckets.reserve(for: count + 1, hashOf: Self.hashOf(documents))
        switch probe(id, hash: hash, in: documents) {
        case .found(let bucket, _): buckets.replace(bucket, slot: slot)
        case .vacant(let bucket): buckets.fill(bucket, tag: Self.tag(hash), slot: slot)
        }
    }

    /// Removes `id`, which the table holds at `slot`; the other slots' documents are in `documents`.
    mutating func remove(_ id: String, slot: UInt32, in documents: [Document?]) {
        let hash = Self.hash(id)
        guard case .found(let bucket, _) = buckets.probe(hash: hash, tag: Self.tag(hash), isKey: { $0 == slot }) else {
            preconditionFailure("the slot table does not hold \(id) at \(slot)")
        }
        buckets.empty(bucket, hashOf: Self.hashOf(documents))
    }

    /// Room for `minimumCapacity` identifiers without growing.
    package mutating func reserveCapacity(_ minimumCapacity: Int, in documents: [Document?]) {
        buckets.reserve(for: minimumCapacity, hashOf: Self.hashOf(documents))
    }

    /// Bytes the buckets take.
    var memoryBytes: Int { buckets.memoryBytes }

    /// An identifier's hash, which picks its home bucket (the process's
    /// own seed: this table is never saved).
    static func hash(_ id: String) -> UInt32 { HashBuckets.hash(id) }

    /// The hash's low byte: the home is read off its top bits, so the
    /// buckets of one run mostly share those and differ here.
    private static func tag(_ hash: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: hash) }

    /// The hash of a slot's identifier, read from its document.
    private static func hashOf(_ documents: [Document?]) -> TaggedBuckets.HashOf {
        { slot, _ in hash(documents[Int(slot)]!.uniqueIdentifier) }
    }

    /// The bucket of `id`, whose document is in `documents`, or the one it would take.
    private func probe(_ id: String, hash: UInt32, in documents: [Document?]) -> TaggedBuckets.Probe {
        documents.withUnsafeBufferPointer { documents in
            buckets.probe(hash: hash, tag: Self.tag(hash)) {
                Int($0) < documents.count && documents[Int($0)]?.uniqueIdentifier == id
            }
        }
    }
}
