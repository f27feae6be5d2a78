import Foundation

/// One entry of a best list: a document and the best field it has in the subtree.
struct TopEntry: Sendable, Hashable {
    var doc: UInt32
    var field: UInt8
}

/// Best lists of large trie subtrees, filled lazily by queries and emptied
/// along the paths that a change touches.
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
final class TopListCache: @unchecked Sendable {
    /// Entries kept per list; a query for up to `capacity / 2` results can be
    /// answered from a list.
    static let capacity = 256

    private let lock = NSLock()
    private var subtreeLists: [Int32: [TopEntry]] = [:]
    private var ownLists: [Int32: [TopEntry]] = [:]
    /// Field maps of the largest subtrees (`SearchEngine+FieldMaps`); derived
    /// like the lists and dropped with them, but never saved in a snapshot.
    private var fieldMaps: [Int32: [UInt8]] = [:]
    /// Whether a node has a list or map of any kind, a bit per node: a
    /// change calls `remove` with every node on its tokens' paths, nearly
    /// none of which has one. A bit test is cheaper than three hash lookups,
    /// and a bitset stays in cache where a byte per node would not (five
    /// million nodes: 640 KB against 5 MB, a miss per test).
    private var listed: [UInt64] = []

    /// Must hold the lock.
    private func markListed(_ node: Int32) {
        let index = Int(node)
        let word = index >> 6
        if word >= listed.count { listed.append(contentsOf: repeatElement(0, count: word + 1 - listed.count)) }
        listed[word] |= 1 << UInt64(index & 63)
    }

    var isEmpty: Bool {
        lock.lock(); defer { lock.unlock() }
        return subtreeLists.isEmpty && ownLists.isEmpty && fieldMaps.isEmpty
    }

    /// Every cached list, for a snapshot.
    var allLists: (subtree: [Int32: [TopEntry]], own: [Int32: [TopEntry]]) {
        lock.lock(); defer { lock.unlock() }
        return (subtreeLists, ownLists)
    }

    /// A cache holding the lists a snapshot saved.
    convenience init(subtree: [Int32: [TopEntry]], own: [Int32: [TopEntry]]) {
        self.init()
        subtreeLists = subtree
        ownLists = own
        for node in subtree.keys { markListed(node) }
        for node in own.keys { markListed(node) }
    }

    func copy() -> TopListCache {
        lock.lock(); defer { lock.unlock() }
        let fresh = TopListCache()
        fresh.subtreeLists = subtreeLists
        fresh.ownLists = ownLists
        fresh.fieldMaps = fieldMaps
        fresh.listed = listed
        return fresh
    }

    func remove(_ nodes: [Int32]) {
        lock.lock(); defer { lock.unlock() }
        for node in nodes where Int(node) >> 6 < listed.count && listed[Int(node) >> 6] & (1 << UInt64(node & 63)) != 0 {
            subtreeLists[node] = nil
            ownLists[node] = nil
            fieldMaps[node] = nil
            listed[Int(node) >> 6] &= ~(1 << UInt64(node & 63))
        }
    }

    func subtree(_ node: Int32) -> [TopEntry]? {
        lock.lock(); defer { lock.unlock() }
        return subtreeLists[node]
    }

    func own(_ node: Int32) -> [TopEntry]? {
        lock.lock(); defer { lock.unlock() }
        return ownLists[node]
    }

    func store(subtree list: [TopEntry], for node: Int32) {
        lock.lock(); defer { lock.unlock() }
        subtreeLists[node] = list
        markListed(node)
    }

    func fieldMap(_ node: Int32) -> [UInt8]? {
        lock.lock(); defer { lock.unlock() }
        return fieldMaps[node]
    }

    func store(fieldMap map: [UInt8], for node: Int32) {
        lock.lock(); defer { lock.unlock() }
        fieldMaps[node] = map
        markListed(node)
    }

    /// Bytes held by field maps (they dominate the cache's size).
    var fieldMapBytes: Int {
        lock.lock(); defer { lock.unlock() }
        return fieldMaps.values.reduce(0) { $0 + $1.count }
    }

    func store(own list: [TopEntry], for node: Int32) {
        lock.lock(); defer { lock.unlock() }
        ownLists[node] = list
        markListed(node)
    }
}
