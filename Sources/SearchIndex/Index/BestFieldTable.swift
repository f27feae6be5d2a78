import SearchSupport

/// The documents of a few thousand postings, each once, with its best
/// (lowest) field: an open-addressing table of slots sized for the
/// postings, with the entries in the order first met.
///
/// For a best list made from fewer postings than a byte map over every
/// slot is worth (`SearchEngine.transientTopList`, and `bestFields` for
/// a kept list's small subtrees): a `Dictionary` hashes every slot
/// through SipHash and grows as it fills, and a byte map over every slot
/// is a byte a slot to clear for a couple of thousand documents. (Not `HashBuckets`: its keys live elsewhere and a
/// probe asks a closure whether a bucket's value is its key; here the
/// key is the slot itself, held in the bucket, and nothing is removed.)
///
///     keys    [ 0 | 813+1 | 0 | 77+1 | … ]   slot + 1 (0: empty), at hash(slot)
///     indices [ – |   0   | – |   1  | … ]   where its entry is
///     entries [ (813, title), (77, keywords), … ]
struct BestFieldTable {
    private var keys: [UInt32]
    private var indices: [Int32]
    private var shift: Int
    /// Each document offered, with the best field offered for it.
    private(set) var entries: [TopEntry] = []

    /// A table for `postings` offers, at most half full (it grows past that).
    init(postings: Int) {
        var size = 16
        while size < 2 * postings { size <<= 1 }
        keys = [UInt32](repeating: 0, count: size)
        indices = [Int32](repeating: 0, count: size)
        shift = 64 - size.trailingZeroBitCount
        entries.reserveCapacity(postings)
    }

    /// Records the posting's document, or its field when better than the one kept.
    @inline(__always)
    mutating func offer(_ posting: TokenTrie.Posting) {
        let key = posting.doc &+ 1
        let mask = keys.count - 1
        // Fibonacci hashing: the high bits of the product, so that
        // neighbouring slots land apart.
        var bucket = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
        while true {
            let held = keys[bucket]
            if held == key {
                let index = Int(indices[bucket])
                if posting.field < entries[index].field { entries[index].field = posting.field }
                return
            }
            if held == 0 {
                keys[bucket] = key
                indices[bucket] = Int32(entries.count)
                entries.append(TopEntry(posting))
                if 2 * entries.count > keys.count { grow() }
                return
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// Doubles the table (only when offered more documents than it was made for).
    private mutating func grow() {
        let kept = entries
        self = BestFieldTable(postings: keys.count)
        for entry in kept {
            offer(TokenTrie.Posting(doc: entry.doc, field: entry.field))
        }
    }
}
