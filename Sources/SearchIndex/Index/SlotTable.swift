/// The slot of each document by identifier: an open-addressed table of
/// slots whose keys are the documents' own identifiers.
///
/// ```
///  buckets    [ 0 │ 9f3a… 3 │ 0 │ 11c0… 1 │ … ]   hash's low 32 bits · slot + 1 (0: empty)
///  documents  [ d0 │ d1 │ d2 │ d3 … ]              a bucket's key is its document's identifier
/// ```
///
/// A lookup hashes the identifier, walks the buckets from its home (linear
/// probing, at most three quarters full) and compares the identifier of
/// the document in a slot whose hash bits match. Inserting and removing
/// read no document (a removal names the slot it takes out), so the
/// engine may add a slot before its document is in it and remove one
/// after it is gone.
///
/// Why: `[String: UInt32]` held a copy of each identifier in its buckets,
/// two buckets an entry at a million items: 42 MB, where these buckets
/// are 16 MB.
struct SlotTable: Sendable {
    private var buckets: [UInt64] = []
    /// How many identifiers the table holds.
    private(set) var count = 0

    /// The slot of `id`, whose document is in `documents`.
    func slot(of id: String, in documents: [Document?]) -> UInt32? {
        guard !buckets.isEmpty else { return nil }
        let hash = RecordTable.hash(id)
        let mask = buckets.count - 1
        var bucket = Int(hash) & mask
        return buckets.withUnsafeBufferPointer { buckets in
            documents.withUnsafeBufferPointer { documents in
                while buckets[bucket] != 0 {
                    let entry = buckets[bucket]
                    if UInt32(truncatingIfNeeded: entry >> 32) == hash {
                        let slot = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                        if slot < documents.count, documents[slot]?.uniqueIdentifier == id { return UInt32(slot) }
                    }
                    bucket = (bucket + 1) & mask
                }
                return nil
            }
        }
    }

    /// Adds `id` at `slot` (the caller knows it is not in the table).
    mutating func insert(_ id: String, slot: UInt32) {
        if (count + 1) * 4 > buckets.count * 3 { reserveCapacity(count + 1) }
        place(UInt64(RecordTable.hash(id)) << 32 | UInt64(slot + 1))
        count += 1
    }

    /// Removes `id`, which the table holds at `slot`.
    mutating func remove(_ id: String, slot: UInt32) {
        let entry = UInt64(RecordTable.hash(id)) << 32 | UInt64(slot + 1)
        let mask = buckets.count - 1
        var hole = Int(truncatingIfNeeded: entry >> 32) & mask
        while buckets[hole] != entry {
            precondition(buckets[hole] != 0, "the slot table does not hold \(id) at \(slot)")
            hole = (hole + 1) & mask
        }
        count -= 1
        RecordTable.shiftBack(&buckets, from: hole)
    }

    /// Room for `minimumCapacity` identifiers without growing.
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        let size = RecordTable.bucketCount(for: minimumCapacity)
        guard size > buckets.count else { return }
        let old = buckets
        buckets = [UInt64](repeating: 0, count: size)
        for entry in old where entry != 0 { place(entry) }
    }

    /// Bytes the buckets take.
    var memoryBytes: Int { buckets.count * 8 }

    private mutating func place(_ entry: UInt64) {
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: entry >> 32) & mask
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = entry
    }
}
