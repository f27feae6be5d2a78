/// An open-addressed table of slots keyed by something the caller keeps
/// elsewhere, in 4-byte buckets: each holds a byte of its key's tag and the
/// slot, and the caller tells whether a bucket's slot is its key's.
///
/// ```
///  bucket   bits 31 … 24 │ 23 … 0
///           tag          │ slot + 1   (0: empty)
/// ```
///
/// Linear probing, at most four fifths full (or as the owner says), in a table of any size (a
/// key's home is its 32-bit hash scaled to the size, so read off its top
/// bits). The tag, chosen by the caller from the hash's low bits (those
/// the buckets of one run do not share), spares reading the key of most
/// buckets a probe passes. Moving a bucket (a removal shifts the buckets after it
/// back, growing places every one again) needs its key's hash, which the
/// bucket does not hold: the caller gives it from the slot and the tag
/// (`HashOf`), so every key in the table must be readable then.
///
/// Why not `HashBuckets`: 4 bytes a bucket instead of 8, for the tables
/// that hold a bucket for every document (`SlotTable`, `ExactNames`).
/// Invariant: slots are at most `slotLimit`.
package struct TaggedBuckets: Sendable {
    @usableFromInline var buckets: [UInt32] = []
    /// How many slots the table holds.
    package private(set) var count = 0
    /// The most buckets in a hundred that hold a slot.
    private let loadPercent: Int

    /// The key's hash of the bucket holding `slot` with `tag`.
    package typealias HashOf = (_ slot: UInt32, _ tag: UInt8) -> UInt32

    /// The largest slot a bucket holds (24 bits, one value kept for empty).
    package static let slotLimit: UInt32 = (1 << 24) - 2

    /// Where a probe for a key ended: at its bucket, or at the empty bucket
    /// it would take.
    package enum Probe {
        case found(bucket: Int, slot: UInt32)
        case vacant(bucket: Int)
    }

    package init(loadPercent: Int = 80) {
        self.loadPercent = loadPercent
    }

    /// The table whose buckets are `stored` (`storedBuckets`).
    package init(storedBuckets stored: [UInt32], loadPercent: Int = 80) {
        self.loadPercent = loadPercent
        buckets = stored
        count = stored.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }
    }

    /// The buckets as they lie, for a table whose hashes are the same in
    /// every process (a snapshot keeps it).
    package var storedBuckets: [UInt32] { buckets }

    /// Bytes the buckets take.
    package var memoryBytes: Int { buckets.count * 4 }

    /// The bucket of the key with `hash` whose tag, under `tagMask`, is
    /// `tag` and whose slot `isKey` accepts, or the empty bucket it would
    /// take. Call `reserve` first for a probe whose vacant bucket is to be
    /// filled.
    @inlinable package func probe(hash: UInt32, tag: UInt8, tagMask: UInt8 = 0xFF, isKey: (UInt32) -> Bool) -> Probe {
        guard !buckets.isEmpty else { return .vacant(bucket: -1) }
        return buckets.withUnsafeBufferPointer { buckets in
            var bucket = Self.home(of: hash, size: buckets.count)
            while buckets[bucket] != 0 {
                let entry = buckets[bucket]
                if UInt8(truncatingIfNeeded: entry >> 24) & tagMask == tag & tagMask, isKey(Self.slot(in: entry)) {
                    return .found(bucket: bucket, slot: Self.slot(in: entry))
                }
                bucket = bucket + 1 == buckets.count ? 0 : bucket + 1
            }
            return .vacant(bucket: bucket)
        }
    }

    /// Every slot a key with `hash` and `tag` (under `tagMask`) may have:
    /// the caller tells which are its key's.
    @inlinable package func slots(hash: UInt32, tag: UInt8, tagMask: UInt8 = 0xFF) -> [UInt32] {
        var found: [UInt32] = []
        _ = probe(hash: hash, tag: tag, tagMask: tagMask) { found.append($0); return false }
        return found
    }

    /// Puts `slot` with `tag` in the vacant `bucket` a probe found.
    package mutating func fill(_ bucket: Int, tag: UInt8, slot: UInt32) {
        precondition(slot <= Self.slotLimit, "an index holds at most \(Self.slotLimit + 1) documents")
        buckets[bucket] = UInt32(tag) << 24 | (slot + 1)
        count += 1
    }

    /// Puts `slot` in place of the one at `bucket` (the same key's, so the same tag).
    package mutating func replace(_ bucket: Int, slot: UInt32) {
        precondition(slot <= Self.slotLimit, "an index holds at most \(Self.slotLimit + 1) documents")
        buckets[bucket] = buckets[bucket] & 0xFF00_0000 | (slot + 1)
    }

    /// Empties `bucket` by a backward shift: each bucket after it that may
    /// sit there (its home is not between the hole and it) moves into it.
    package mutating func empty(_ bucket: Int, hashOf: HashOf) {
        let size = buckets.count
        // Buckets from `a` on to `b`, going round the end.
        func distance(_ a: Int, _ b: Int) -> Int { b >= a ? b - a : b + size - a }
        var hole = bucket
        var next = hole + 1 == size ? 0 : hole + 1
        while buckets[next] != 0 {
            let entry = buckets[next]
            let home = Self.home(of: hashOf(Self.slot(in: entry), UInt8(truncatingIfNeeded: entry >> 24)), size: size)
            if distance(home, next) >= distance(hole, next) {
                buckets[hole] = entry
                hole = next
            }
            next = next + 1 == size ? 0 : next + 1
        }
        buckets[hole] = 0
        count -= 1
    }

    /// Buckets for `count` slots without growing (at most `loadPercent`
    /// full), every slot placed again. A table that must grow for one
    /// more slot grows by at least a half, so that inserts one by one stay
    /// cheap.
    package mutating func reserve(for count: Int, hashOf: HashOf) {
        if !buckets.isEmpty, count * 100 <= buckets.count * loadPercent { return }
        let size = max(8, (count * 100 + loadPercent - 1) / loadPercent, buckets.count + buckets.count / 2)
        let old = buckets
        buckets = [UInt32](repeating: 0, count: size)
        for entry in old where entry != 0 {
            var bucket = Self.home(of: hashOf(Self.slot(in: entry), UInt8(truncatingIfNeeded: entry >> 24)), size: size)
            while buckets[bucket] != 0 { bucket = bucket + 1 == size ? 0 : bucket + 1 }
            buckets[bucket] = entry
        }
    }

    @inlinable @inline(__always) static func slot(in entry: UInt32) -> UInt32 { (entry & 0xFF_FFFF) - 1 }

    /// The home bucket of a key with `hash` in a table of `size` buckets:
    /// the hash scaled to the size (every bit counts, and any size will do).
    @inlinable @inline(__always) static func home(of hash: UInt32, size: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(hash) &* UInt64(size)) >> 32)
    }
}
