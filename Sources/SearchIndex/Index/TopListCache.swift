import Foundation
import SearchSupport

/// One entry of a best list: a document and the best field it has in the
/// subtree, packed as a posting is (`TokenTrie.Posting`: one 32-bit word,
/// the field in its top two bits). A slot and a byte would take eight
/// bytes with their padding.
package struct TopEntry: Sendable, Hashable, BitwiseCopyable {
    private var posting: TokenTrie.Posting

    init(doc: UInt32, field: UInt8) {
        posting = TokenTrie.Posting(doc: doc, field: field)
    }

    /// The entry of a posting's document and field, as it is.
    init(_ posting: TokenTrie.Posting) {
        self.posting = posting
    }

    package var doc: UInt32 { posting.doc }

    var field: UInt8 {
        get { posting.field }
        set { posting = TokenTrie.Posting(doc: posting.doc, field: newValue) }
    }
}

/// Best lists of large trie subtrees, filled lazily by queries and kept
/// up to date in place by changes (`SearchEngine+TopListUpkeep`).
///
/// ```
///  node "s" ──► [ (doc 812, title), (doc 77, title), … ]   ≤ capacity entries,
///  node "sa" ─► [ … ]                                       in static rank order
/// ```
///
/// Static rank is the ranking key without the query-dependent rules: field,
/// then more sources, shorter title, identifier. Engagement is left out and
/// handled per query (few documents have any). The cache is a class so that
/// a non-mutating `search` can fill it; `SearchEngine` copies it before
/// changing it when another copy shares it.
package final class TopListCache: @unchecked Sendable {
    /// Entries kept per list; a query for up to `capacity / 2` results can be
    /// answered from a list.
    static let capacity = 256

    /// What one node has cached. One dictionary entry per node, so that a
    /// change passing through the node looks it up once.
    struct Summary {
        var subtree: [TopEntry]?
        var own: [TopEntry]?
        /// Field map of one of the largest subtrees (`SearchEngine+FieldMaps`);
        /// derived and kept like the lists, but never saved in a snapshot.
        var fieldMap: FieldMap?
        /// The same of the node's own postings only, for a word with
        /// hundreds of thousands of them (`SearchEngine.ownFieldMap`).
        var ownFieldMap: FieldMap?
        /// For a large subtree that keeps no field map, the postings its
        /// cover walks (`SearchEngine.subtreeCover`), with the map minimum
        /// it was gathered under; dropped by any change under the node, and
        /// never saved in a snapshot.
        var residual: (minimum: Int, postings: [TokenTrie.Posting])?
        /// Each list's length and its last entry's key (nil for an empty
        /// list, and briefly after a change until the next one reads it
        /// again): most changes only need to learn that they rank after a
        /// list, and this answers without reading the list or another
        /// document's rank (cache misses both).
        var subtreeTail: ListTail?
        var ownTail: ListTail?

        var isEmpty: Bool { subtree == nil && own == nil && fieldMap == nil && ownFieldMap == nil && residual == nil }
    }

    let lock = NSLock()
    var summaries = SummaryTable()
    /// Whether a node has a summary, a bit per node: a change passes every
    /// node on its tokens' paths, nearly none of which has one. A bit test
    /// is cheaper than a hash lookup, and a bitset stays in cache where a
    /// byte per node would not (a miss per test).
    private var listed: [UInt64] = []

    /// Must hold the lock.
    private func markListed(_ node: Int32) {
        let index = Int(node)
        let word = index >> 6
        if word >= listed.count { listed.append(contentsOf: repeatElement(0, count: word + 1 - listed.count)) }
        listed[word] |= 1 << UInt64(index & 63)
    }

    /// Must hold the lock.
    private func isListed(_ node: Int32) -> Bool {
        Int(node) >> 6 < listed.count && listed[Int(node) >> 6] & (1 << UInt64(node & 63)) != 0
    }

    var isEmpty: Bool {
        lock.lock(); defer { lock.unlock() }
        return summaries.isEmpty
    }

    /// Every cached list, for a snapshot.
    package var allLists: (subtree: [Int32: [TopEntry]], own: [Int32: [TopEntry]]) {
        lock.lock(); defer { lock.unlock() }
        return (summaries.compactMapValues(\.subtree), summaries.compactMapValues(\.own))
    }

    /// A cache holding the lists a snapshot saved, with their tails.
    package convenience init(subtree: [Int32: [TopEntry]], own: [Int32: [TopEntry]], tail: ([TopEntry]) -> ListTail?) {
        self.init()
        for (node, list) in subtree {
            summaries[node, default: Summary()].subtree = list
            summaries[node, default: Summary()].subtreeTail = tail(list)
        }
        for (node, list) in own {
            summaries[node, default: Summary()].own = list
            summaries[node, default: Summary()].ownTail = tail(list)
        }
        for node in summaries.keys { markListed(node) }
    }

    func copy() -> TopListCache {
        lock.lock(); defer { lock.unlock() }
        let fresh = TopListCache()
        fresh.summaries = summaries
        fresh.listed = listed
        return fresh
    }

    /// Renames every node through `newIndex` (from `TokenTrie.reorder()`);
    /// what a node no longer there had cached is dropped.
    func renumberNodes(_ newIndex: [Int32]) {
        lock.lock(); defer { lock.unlock() }
        let old = summaries
        summaries = SummaryTable(minimumCapacity: old.entries.count)
        listed = []
        for (node, summary) in zip(old.keys, old.entries) where Int(node) < newIndex.count && newIndex[Int(node)] >= 0 {
            summaries.set(summary, for: newIndex[Int(node)])
            markListed(newIndex[Int(node)])
        }
    }

    /// Changes what the listed nodes among `touched` have cached, in place
    /// and under the lock: `body` gets each one's field (passed through)
    /// and summary; a summary it leaves empty is dropped. `slot` is the
    /// document changed, whose half-byte in each field map `body` changes.
    ///
    /// In three passes: the summaries found, then their lines (and their
    /// field maps' bytes for `slot`) read, then changed. The reads of the
    /// second pass depend on nothing but the first, so their misses
    /// overlap, and the third finds them in the cache.
    func update(_ touched: [(node: Int32, field: UInt8)], slot: UInt32, _ body: (Int32, UInt8, inout Summary) -> Void) {
        lock.lock(); defer { lock.unlock() }
        withUnsafeTemporaryAllocation(of: (position: Int, touched: Int).self, capacity: touched.count) { found in
            var count = 0
            for (index, (node, _)) in touched.enumerated() where isListed(node) {
                guard let position = summaries.position(of: node) else { continue }
                found.initializeElement(at: count, to: (position, index))
                count += 1
            }
            var emptied: [Int32] = []
            summaries.withEntries { entries in
                var sink = 0
                for (position, _) in found[..<count] { sink &+= Self.touch(entries[position], slot: slot) }
                keepValue(UInt32(truncatingIfNeeded: sink))
                for (position, index) in found[..<count] {
                    let (node, field) = touched[index]
                    body(node, field, &entries[position])
                    if entries[position].isEmpty { emptied.append(node) }
                }
            }
            found.baseAddress!.deinitialize(count: count)
            for node in emptied {
                summaries.remove(node)
                listed[Int(node) >> 6] &= ~(1 << UInt64(node & 63))
            }
        }
    }

    /// Reads the lines a change of `summary` for `slot` will: the summary's
    /// (its tails are at its end) and its field map's byte for the slot.
    @inline(__always) private static func touch(_ summary: borrowing Summary, slot: UInt32) -> Int {
        var sink = (summary.subtreeTail?.count ?? 0) &+ (summary.ownTail?.count ?? 0)
        sink &+= Int(summary.fieldMap?.byte(containing: Int(slot)) ?? 0)
        return sink
    }

    func subtree(_ node: Int32) -> [TopEntry]? {
        lock.lock(); defer { lock.unlock() }
        return summaries[node]?.subtree
    }

    func own(_ node: Int32) -> [TopEntry]? {
        lock.lock(); defer { lock.unlock() }
        return summaries[node]?.own
    }

    func fieldMap(_ node: Int32) -> FieldMap? {
        lock.lock(); defer { lock.unlock() }
        return summaries[node]?.fieldMap
    }

    /// Keeps `list` as the node's subtree list; `tail` is its `ListTail`
    /// (computed while the list is still in cache).
    func store(subtree list: [TopEntry], tail: ListTail?, for node: Int32) {
        lock.lock(); defer { lock.unlock() }
        summaries[node, default: Summary()].subtree = list
        summaries[node, default: Summary()].subtreeTail = tail
        markListed(node)
    }

    /// Keeps `list` as the node's own list, with its `ListTail`.
    func store(own list: [TopEntry], tail: ListTail?, for node: Int32) {
        lock.lock(); defer { lock.unlock() }
        summaries[node, default: Summary()].own = list
        summaries[node, default: Summary()].ownTail = tail
        markListed(node)
    }

    func store(fieldMap map: FieldMap, for node: Int32) {
        lock.lock(); defer { lock.unlock() }
        summaries[node, default: Summary()].fieldMap = map
        markListed(node)
    }

    /// The node's residual, if one was gathered under `minimum`.
    func residual(_ node: Int32, minimum: Int) -> [TokenTrie.Posting]? {
        lock.lock(); defer { lock.unlock() }
        guard let kept = summaries[node]?.residual, kept.minimum == minimum else { return nil }
        return kept.postings
    }

    func store(residual postings: [TokenTrie.Posting], minimum: Int, for node: Int32) {
        lock.lock(); defer { lock.unlock() }
        summaries[node, default: Summary()].residual = (minimum, postings)
        markListed(node)
    }

    func ownFieldMap(_ node: Int32) -> FieldMap? {
        lock.lock(); defer { lock.unlock() }
        return summaries[node]?.ownFieldMap
    }

    func store(ownFieldMap map: FieldMap, for node: Int32) {
        lock.lock(); defer { lock.unlock() }
        summaries[node, default: Summary()].ownFieldMap = map
        markListed(node)
    }

    /// Bytes held by best lists (entries only).
    var listBytes: Int {
        lock.lock(); defer { lock.unlock() }
        let entries = summaries.entries.reduce(0) { $0 + ($1.subtree?.count ?? 0) + ($1.own?.count ?? 0) }
        return entries * MemoryLayout<TopEntry>.stride
    }

    /// Bytes held by field maps (they dominate the cache's size).
    var fieldMapBytes: Int {
        lock.lock(); defer { lock.unlock() }
        return summaries.entries.reduce(0) {
            $0 + ($1.fieldMap?.byteCount ?? 0) + ($1.ownFieldMap?.byteCount ?? 0) + ($1.residual?.postings.count ?? 0) * 4
        }
    }
}

/// A best list's length and the static key of its last entry.
package struct ListTail: Sendable {
    var count: Int
    var last: StaticKey

    /// The tail of `list` (nil when it is empty), its last entry's rank read from `ranks`.
    init?(of list: [TopEntry], ranks: UnsafeBufferPointer<StaticRank>) {
        guard let last = list.last else { return nil }
        self.count = list.count
        self.last = StaticKey(field: last.field, rank: ranks[Int(last.doc)])
    }

    init(count: Int, last: StaticKey) {
        self.count = count
        self.last = last
    }
}

/// A best-list entry's place in static order without its identifier: field,
/// then higher hint, more sources, shorter title, identifier's first bytes.
struct StaticKey: Sendable {
    var field: UInt8
    var rank: StaticRank

    /// The key as two words that compare, high then low, as keys rank:
    /// field, then the rank's rule bits (hint, sources, title length), then
    /// the identifier's first bytes. The one statement of the static order
    /// (`SearchEngine.staticPrecedes` adds the whole identifier).
    @inline(__always)
    var words: Words {
        Words(high: UInt64(field) << 56 | rank.keyBits, low: rank.identifierPrefix)
    }

    /// `words` as a value that compares, high then low.
    struct Words: Sendable, Comparable {
        var high: UInt64
        var low: UInt64

        static func < (a: Words, b: Words) -> Bool { a.high != b.high ? a.high < b.high : a.low < b.low }
    }

    /// Negative when `self` ranks first, positive when `other` does, zero
    /// when only the whole identifiers can tell.
    @inline(__always)
    func compare(_ other: StaticKey) -> Int {
        let (a, b) = (words, other.words)
        if a.high != b.high { return a.high < b.high ? -1 : 1 }
        if a.low != b.low { return a.low < b.low ? -1 : 1 }
        return 0
    }
}
