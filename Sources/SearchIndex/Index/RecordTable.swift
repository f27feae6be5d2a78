/// The index's records by identifier: a dictionary's interface over the
/// records stored once, in a dense array, and an open-addressed table of
/// their places.
///
/// ```
///  buckets   [ 0 │ 9f3a… 3 │ 0 │ 0 │ 11c0… 1 │ 7e21… 2 │ 0 … ]   hash's low 32 bits · place + 1 (0: empty)
///  records   [ r0 │ r1 │ r2 │ (free) │ r4 … ]                    a freed place is reused
/// ```
///
/// A lookup hashes the identifier, walks the buckets from its home (linear
/// probing, at most three quarters full) and compares the identifier of
/// the record a bucket with the same hash bits names. A removal shifts
/// the buckets after it back (no tombstones), reading only their stored
/// bits.
///
/// Why: `[String: IndexRecord]` kept an identifier and a record in each of
/// its buckets, two buckets an entry at a million items (a power of two
/// at most three quarters full): 151 MB. Here a bucket is 8 bytes and a
/// record is stored once: 72 MB.
public struct RecordTable: Sendable {
    private var storage: [IndexRecord?] = []
    private var freePlaces: [UInt32] = []
    private var buckets: [UInt64] = []
    /// How many records the table holds.
    public private(set) var count = 0

    public init() {}

    /// A table of `records`, taken as its storage (each identifier once:
    /// a snapshot's records, keyed by identifier when saved).
    init(records: [IndexRecord]) {
        storage = records.map { $0 }
        reserveBuckets(for: storage.count)
        for place in storage.indices {
            let id = storage[place]!.item.uniqueIdentifier
            let hash = Self.hash(id)
            // Should an identifier come twice all the same, the record read last stands.
            if let found = find(id, hash: hash) {
                storage[found.place] = storage[place]
                storage[place] = nil
                freePlaces.append(UInt32(place))
            } else {
                insertBucket(hash: hash, place: place)
                count += 1
            }
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// The record with identifier `id`, if any; setting nil removes it.
    public internal(set) subscript(id: String) -> IndexRecord? {
        get { find(id).map { storage[$0.place] } ?? nil }
        set {
            if let newValue {
                updateValue(newValue, forKey: id)
            } else {
                removeValue(forKey: id)
            }
        }
    }

    /// Puts `record` under `id`; returns the record it replaced, if any.
    @discardableResult
    mutating func updateValue(_ record: IndexRecord, forKey id: String) -> IndexRecord? {
        let hash = Self.hash(id)
        if let found = find(id, hash: hash) {
            defer { storage[found.place] = record }
            return storage[found.place]
        }
        if (count + 1) * 4 > buckets.count * 3 { reserveBuckets(for: count + 1) }
        let place: Int
        if let reused = freePlaces.popLast() {
            place = Int(reused)
            storage[place] = record
        } else {
            place = storage.count
            storage.append(record)
        }
        insertBucket(hash: hash, place: place)
        count += 1
        return nil
    }

    /// Removes the record under `id`; returns it, if there was one.
    @discardableResult
    mutating func removeValue(forKey id: String) -> IndexRecord? {
        guard let found = find(id) else { return nil }
        let removed = storage[found.place]
        storage[found.place] = nil
        freePlaces.append(UInt32(found.place))
        count -= 1
        Self.shiftBack(&buckets, from: found.bucket)
        if count == 0 {
            storage = []
            freePlaces = []
        }
        return removed
    }

    /// Room for `minimumCapacity` records, and an eighth more: the first
    /// record past a bulk import's would otherwise double the storage (at
    /// a million records a copy of 56 MB, and as much again held at once).
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        let room = minimumCapacity + minimumCapacity / 8
        if room > storage.capacity { storage.reserveCapacity(room) }
        if room * 4 > buckets.count * 3 { reserveBuckets(for: room) }
    }

    /// The records, in no particular order.
    public var values: some Sequence<IndexRecord> { storage.lazy.compactMap { $0 } }

    /// The identifiers, in no particular order.
    public var keys: some Sequence<String> { storage.lazy.compactMap { $0?.item.uniqueIdentifier } }

    /// Bytes the table holds (records, free places, buckets).
    var memoryBytes: Int {
        storage.capacity * MemoryLayout<IndexRecord?>.stride + freePlaces.capacity * 4 + buckets.count * 8
    }

    // MARK: - Buckets

    /// An identifier's hash, whose low bits pick its home bucket (the
    /// process's own seed: tables are never saved).
    static func hash(_ id: String) -> UInt32 {
        var hasher = Hasher()
        hasher.combine(id)
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// Buckets for `count` entries: a power of two, at most three quarters full.
    static func bucketCount(for count: Int) -> Int {
        var size = 8
        while count * 4 > size * 3 { size <<= 1 }
        return size
    }

    /// Empties the bucket at `hole` by a backward shift: each bucket after
    /// it that may sit there (its home, the low bits of its stored hash,
    /// is not between the hole and it) moves into it, leaving no tombstone.
    static func shiftBack(_ buckets: inout [UInt64], from start: Int) {
        let mask = buckets.count - 1
        var hole = start
        var next = (hole + 1) & mask
        while buckets[next] != 0 {
            let home = Int(truncatingIfNeeded: buckets[next] >> 32) & mask
            if (next - home) & mask >= (next - hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = 0
    }

    /// The bucket and place of `id`'s record.
    private func find(_ id: String, hash: UInt32? = nil) -> (bucket: Int, place: Int)? {
        guard !buckets.isEmpty else { return nil }
        let hash = hash ?? Self.hash(id)
        let mask = buckets.count - 1
        var bucket = Int(hash) & mask
        return buckets.withUnsafeBufferPointer { buckets in
            while buckets[bucket] != 0 {
                let entry = buckets[bucket]
                if UInt32(truncatingIfNeeded: entry >> 32) == hash {
                    let place = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                    if storage[place]?.item.uniqueIdentifier == id { return (bucket, place) }
                }
                bucket = (bucket + 1) & mask
            }
            return nil
        }
    }

    private mutating func insertBucket(hash: UInt32, place: Int) {
        let mask = buckets.count - 1
        var bucket = Int(hash) & mask
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = UInt64(hash) << 32 | UInt64(place + 1)
    }

    /// Buckets for `count` records (a power of two, at most three quarters
    /// full), every record's bucket placed again.
    private mutating func reserveBuckets(for count: Int) {
        let size = Self.bucketCount(for: count)
        guard size > buckets.count else { return }
        let old = buckets
        buckets = [UInt64](repeating: 0, count: size)
        for entry in old where entry != 0 {
            insertBucket(hash: UInt32(truncatingIfNeeded: entry >> 32), place: Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1)
        }
    }
}

extension RecordTable: Equatable {
    /// Equal when they hold the same records under the same identifiers,
    /// whatever their places (as dictionaries are equal).
    public static func == (a: RecordTable, b: RecordTable) -> Bool {
        a.count == b.count && a.values.allSatisfy { b[$0.item.uniqueIdentifier] == $0 }
    }
}
