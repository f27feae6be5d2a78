/// The slot of each document by identifier: a table of slots keyed by the
/// documents' own identifiers (`HashBuckets`).
///
/// ```
///  buckets    [ 0 │ 9f3a… 3 │ 0 │ 11c0… 1 │ … ]   hash's low 32 bits · slot + 1 (0: empty)
///  documents  [ d0 │ d1 │ d2 │ d3 … ]              a bucket's key is its document's identifier
/// ```
///
/// Inserting and removing read no document (a removal names the slot it
/// takes out), so the engine may add a slot before its document is in it
/// and remove one after it is gone.
///
/// Why: `[String: UInt32]` holds a copy of each identifier in its buckets,
/// up to two buckets an entry, where these buckets are 8 bytes.
struct SlotTable: Sendable {
    private var buckets = HashBuckets()

    /// How many identifiers the table holds.
    var count: Int { buckets.count }

    /// The slot of `id`, whose document is in `documents`.
    func slot(of id: String, in documents: [Document?]) -> UInt32? {
        guard case .found(_, let slot) = probe(id, hash: HashBuckets.hash(id), in: documents) else { return nil }
        return slot
    }

    /// Adds `id` at `slot` (the caller knows it is not in the table).
    mutating func insert(_ id: String, slot: UInt32) {
        let hash = HashBuckets.hash(id)
        buckets.reserve(for: count + 1)
        // No key is this one: the probe ends at the first empty bucket.
        guard case .vacant(let bucket) = buckets.probe(hash: hash, isKey: { _ in false }) else { return }
        buckets.fill(bucket, hash: hash, value: slot)
    }

    /// Puts `id` at `slot`, in place of its slot if the table holds it
    /// already (a load that meets an identifier twice keeps the last).
    mutating func set(_ id: String, slot: UInt32, in documents: [Document?]) {
        let hash = HashBuckets.hash(id)
        buckets.reserve(for: count + 1)
        switch probe(id, hash: hash, in: documents) {
        case .found(let bucket, _): buckets.replace(bucket, hash: hash, value: slot)
        case .vacant(let bucket): buckets.fill(bucket, hash: hash, value: slot)
        }
    }

    /// Removes `id`, which the table holds at `slot`.
    mutating func remove(_ id: String, slot: UInt32) {
        guard case .found(let bucket, _) = buckets.probe(hash: HashBuckets.hash(id), isKey: { $0 == slot }) else {
            preconditionFailure("the slot table does not hold \(id) at \(slot)")
        }
        buckets.empty(bucket)
    }

    /// Room for `minimumCapacity` identifiers without growing.
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        buckets.reserve(for: minimumCapacity)
    }

    /// Bytes the buckets take.
    var memoryBytes: Int { buckets.memoryBytes }

    /// The bucket of `id`, whose document is in `documents`, or the one it would take.
    private func probe(_ id: String, hash: UInt32, in documents: [Document?]) -> HashBuckets.Probe {
        documents.withUnsafeBufferPointer { documents in
            buckets.probe(hash: hash) { Int($0) < documents.count && documents[Int($0)]?.uniqueIdentifier == id }
        }
    }
}
