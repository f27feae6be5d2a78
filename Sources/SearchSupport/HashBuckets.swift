/// An open-addressed table of 32-bit values keyed by something the caller
/// keeps elsewhere: each bucket holds a key's hash bits and its value, and
/// the caller tells whether a bucket's value is its key's.
///
/// ```
///  bucket   bits 63 … 32 │ 31 … 0
///           hash's low   │ value + 1   (0: empty)
/// ```
///
/// Linear probing, at most four fifths full, in a table of any size (a
/// key's home is its hash scaled to the size, not its low bits); a
/// removal shifts the buckets after it back (no tombstones), reading only
/// their stored hash bits. 8 bytes a bucket where a dictionary kept a copy
/// of each key beside its value (`RecordTable`, `TextDictionary`, best-list
/// summaries); `TaggedBuckets` is the 4-byte kind, for tables of every
/// document.
///
/// Why any size: a power of two at most three quarters full can need
/// nearly twice the buckets a table sized to its keys does.
package struct HashBuckets: Sendable {
    @usableFromInline var entries: [UInt64] = []
    /// How many values the table holds.
    package private(set) var count = 0

    package init() {}

    /// Where a probe for a key ended: at its bucket, or at the empty bucket
    /// it would take.
    package enum Probe {
        case found(bucket: Int, value: UInt32)
        case vacant(bucket: Int)
    }

    /// An identifier's hash, which picks its home bucket (the process's
    /// own seed: tables are never saved).
    @inlinable package static func hash(_ id: String) -> UInt32 {
        var hasher = Hasher()
        hasher.combine(id)
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// The bucket of the key with `hash` whose value `isKey` accepts, or the
    /// empty bucket it would take. Call `reserve(for: count + 1)` before a
    /// probe whose vacant bucket is to be filled.
    @inlinable package func probe(hash: UInt32, isKey: (UInt32) -> Bool) -> Probe {
        guard !entries.isEmpty else { return .vacant(bucket: -1) }
        var bucket = Self.home(of: hash, size: entries.count)
        return entries.withUnsafeBufferPointer { entries in
            while entries[bucket] != 0 {
                let entry = entries[bucket]
                if UInt32(truncatingIfNeeded: entry >> 32) == hash {
                    let value = UInt32(truncatingIfNeeded: entry) - 1
                    if isKey(value) { return .found(bucket: bucket, value: value) }
                }
                bucket = bucket + 1 == entries.count ? 0 : bucket + 1
            }
            return .vacant(bucket: bucket)
        }
    }

    /// Puts `value` for a key with `hash` in the vacant `bucket` a probe found.
    package mutating func fill(_ bucket: Int, hash: UInt32, value: UInt32) {
        entries[bucket] = Self.entry(hash: hash, value: value)
        count += 1
    }

    /// Puts `value` in place of the one at `bucket` (the same key's).
    package mutating func replace(_ bucket: Int, hash: UInt32, value: UInt32) {
        entries[bucket] = Self.entry(hash: hash, value: value)
    }

    /// Empties `bucket` by a backward shift: each bucket after it that may
    /// sit there (its home is not between the hole and it) moves into it.
    package mutating func empty(_ bucket: Int) {
        let size = entries.count
        // Buckets from `a` on to `b`, going round the end.
        func distance(_ a: Int, _ b: Int) -> Int { b >= a ? b - a : b + size - a }
        var hole = bucket
        var next = hole + 1 == size ? 0 : hole + 1
        while entries[next] != 0 {
            let home = Self.home(of: UInt32(truncatingIfNeeded: entries[next] >> 32), size: size)
            if distance(home, next) >= distance(hole, next) {
                entries[hole] = entries[next]
                hole = next
            }
            next = next + 1 == size ? 0 : next + 1
        }
        entries[hole] = 0
        count -= 1
    }

    /// Buckets for `count` values without growing (at most four fifths
    /// full), every value placed again. A table that must grow for one
    /// more value at least doubles, so that inserts one by one stay cheap.
    @inlinable package mutating func reserve(for count: Int) {
        // Called before every insert: most find the room there.
        if !entries.isEmpty, count * 5 <= entries.count * 4 { return }
        let size = max(8, (count * 5 + 3) / 4, entries.isEmpty ? 0 : 2 * entries.count)
        let old = entries
        entries = [UInt64](repeating: 0, count: size)
        for entry in old where entry != 0 {
            var bucket = Self.home(of: UInt32(truncatingIfNeeded: entry >> 32), size: size)
            while entries[bucket] != 0 { bucket = bucket + 1 == size ? 0 : bucket + 1 }
            entries[bucket] = entry
        }
    }

    /// The home bucket of a key with `hash` in a table of `size` buckets:
    /// the hash scaled to the size (every bit counts, and any size will do).
    @inlinable @inline(__always) static func home(of hash: UInt32, size: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(hash) &* UInt64(size)) >> 32)
    }

    /// Bytes the buckets take.
    package var memoryBytes: Int { entries.count * 8 }

    private static func entry(hash: UInt32, value: UInt32) -> UInt64 {
        precondition(value < UInt32.max, "a hash bucket holds a value below 2^32 - 1")
        return UInt64(hash) << 32 | UInt64(value + 1)
    }
}
