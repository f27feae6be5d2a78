import SearchSupport

/// The index's records by identifier: a dictionary's interface over the
/// records stored once, in a dense array, and a table of their places
/// keyed by the records' own identifiers (`HashBuckets`).
///
/// ```
///  buckets   [ 0 │ 9f3a… 3 │ 0 │ 0 │ 11c0… 1 │ 7e21… 2 │ 0 … ]   hash's low 32 bits · place + 1 (0: empty)
///  records   [ r0 │ r1 │ r2 │ (free) │ r4 … ]                    a freed place is reused
/// ```
///
/// Why: `[String: IndexRecord]` keeps an identifier and a record in each of
/// its buckets, up to two buckets an entry (a power of two at most three
/// quarters full). Here a bucket is 8 bytes and a record is stored once,
/// about half the memory.
public struct RecordTable: Sendable {
    private var storage: [IndexRecord?] = []
    private var freePlaces: [UInt32] = []
    private var buckets = HashBuckets()

    public init() {}

    /// A table of `records`, taken as its storage (each identifier once:
    /// a snapshot's records, keyed by identifier when saved).
    package init(records: [IndexRecord]) {
        storage = records.map { $0 }
        buckets.reserve(for: storage.count)
        for place in storage.indices {
            let id = storage[place]!.item.uniqueIdentifier
            let hash = HashBuckets.hash(id)
            switch probe(id, hash: hash) {
            case .vacant(let bucket):
                buckets.fill(bucket, hash: hash, value: UInt32(place))
            case .found(let bucket, let earlier):
                // Should an identifier come twice all the same, the record read last stands.
                storage[Int(earlier)] = nil
                freePlaces.append(earlier)
                buckets.replace(bucket, hash: hash, value: UInt32(place))
            }
        }
    }

    /// How many records the table holds.
    public var count: Int { buckets.count }

    public var isEmpty: Bool { count == 0 }

    /// The record with identifier `id`, if any; setting nil removes it.
    public internal(set) subscript(id: String) -> IndexRecord? {
        get {
            guard case .found(_, let place) = probe(id, hash: HashBuckets.hash(id)) else { return nil }
            return storage[Int(place)]
        }
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
        let hash = HashBuckets.hash(id)
        buckets.reserve(for: count + 1)
        switch probe(id, hash: hash) {
        case .found(_, let place):
            defer { storage[Int(place)] = record }
            return storage[Int(place)]
        case .vacant(let bucket):
            let place: Int
            if let reused = freePlaces.popLast() {
                place = Int(reused)
                storage[place] = record
            } else {
                place = storage.count
                storage.append(record)
            }
            buckets.fill(bucket, hash: hash, value: UInt32(place))
            return nil
        }
    }

    /// Removes the record under `id`; returns it, if there was one.
    @discardableResult
    mutating func removeValue(forKey id: String) -> IndexRecord? {
        guard case .found(let bucket, let place) = probe(id, hash: HashBuckets.hash(id)) else { return nil }
        let removed = storage[Int(place)]
        storage[Int(place)] = nil
        freePlaces.append(place)
        buckets.empty(bucket)
        if count == 0 {
            storage = []
            freePlaces = []
        }
        return removed
    }

    /// Room for `minimumCapacity` records, and an eighth more: the first
    /// record past a bulk import's would otherwise double the storage (a
    /// copy of every record, and as much again held at once).
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        let room = minimumCapacity + minimumCapacity / 8
        if room > storage.capacity { storage.reserveCapacity(room) }
        buckets.reserve(for: room)
    }

    /// Made again from its records when they fill under a quarter of its
    /// room (most of them went to their documents), so the room and
    /// buckets of a bulk import do not stay.
    mutating func shrinkIfSparse() {
        if count == 0, buckets.memoryBytes > 0 { self = RecordTable(); return }
        guard storage.capacity > 1_024, count * 4 < storage.capacity else { return }
        self = RecordTable(records: Array(values))
    }

    /// The records, in no particular order.
    public var values: some Sequence<IndexRecord> { storage.lazy.compactMap { $0 } }

    /// The identifiers, in no particular order.
    public var keys: some Sequence<String> { storage.lazy.compactMap { $0?.item.uniqueIdentifier } }

    /// Bytes the table holds (records, free places, buckets).
    var memoryBytes: Int {
        storage.capacity * MemoryLayout<IndexRecord?>.stride + freePlaces.capacity * 4 + buckets.memoryBytes
    }

    /// The bucket of `id`'s record, or the one it would take.
    private func probe(_ id: String, hash: UInt32) -> HashBuckets.Probe {
        storage.withUnsafeBufferPointer { storage in
            buckets.probe(hash: hash) { storage[Int($0)]?.item.uniqueIdentifier == id }
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
