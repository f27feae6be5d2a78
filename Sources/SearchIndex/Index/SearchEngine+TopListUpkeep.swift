import Foundation

/// Best lists and field maps follow each change in place, instead of being
/// dropped along the paths it touches.
///
/// A one-item insert into a large index passes through dozens of listed
/// nodes: dropping their entries, the next keystroke would build them again.
///
/// A best list is a prefix of its subtree's static order (`staticPrecedes`,
/// a total order): *complete* when it holds every document of the subtree
/// (own list: of the node's postings), *truncated* otherwise. A change keeps
/// it such a prefix:
///
/// ```
///  insert (d, f)   complete  → put in order; past `capacity` the last falls off
///                  truncated → put in order only before the last entry,
///                              which falls off past `capacity`
///  remove d        taken out wherever it is (binary search); a truncated
///                  list left under `capacity / 2` is dropped for the next
///                  query to rebuild, and so is all a node has cached once
///                  it has no documents (its index may go to a new node)
/// ```
///
/// A field map sets the slot to the document's best field under the node
/// (an own field map: of its tokens that are the node), growing to reach a
/// new slot, or to `noField` on removal.
///
/// Most changes pass through a list without entering it. Each summary
/// remembers its lists' `ListTail` (length and the last entry's static
/// key), so that is learned without three cache misses a node.
extension SearchEngine {
    /// Puts the document in `slot` (whose postings were added at
    /// `tokenPlaces` and who was just counted) into the lists and maps of
    /// the listed nodes among `touched`.
    func addToTopLists(
        _ slot: UInt32, touched: [(node: Int32, field: UInt8)], tokenNodes: [Int32], tokenFields: [UInt8], tokenPlaces: [UInt32]
    ) {
        updateTopLists(of: slot, touched: touched) { lists, node, field, summary in
            if summary.subtree != nil {
                // The document was just counted under the node.
                lists.insert(TopEntry(doc: slot, field: field), into: &summary.subtree!, tail: &summary.subtreeTail,
                             completeCount: lists.nodes[Int(node)].documentCount - 1)
            }
            if summary.own != nil, let token = tokenNodes.firstIndex(of: node) {
                // The postings before its own are the ones the list has
                // seen (a batch adds the postings of later documents first).
                lists.insert(TopEntry(doc: slot, field: tokenFields[token]), into: &summary.own!, tail: &summary.ownTail,
                             completeCount: Int(tokenPlaces[token]))
            }
            summary.fieldMap?.lower(Int(slot), to: field)
            summary.residual = nil
            if summary.ownFieldMap != nil, case let own = Self.ownField(of: node, tokenNodes: tokenNodes, tokenFields: tokenFields),
                own != Self.noField
            {
                summary.ownFieldMap!.lower(Int(slot), to: own)
            }
        }
    }

    /// Takes the document in `slot` out of the lists and maps of the listed
    /// nodes among `touched`; called after its documents were uncounted and
    /// before its postings go.
    func removeFromTopLists(_ slot: UInt32, touched: [(node: Int32, field: UInt8)], tokenNodes: [Int32], tokenFields: [UInt8]) {
        updateTopLists(of: slot, touched: touched) { lists, node, field, summary in
            let documentCount = lists.nodes[Int(node)].documentCount
            guard documentCount > 0 else {
                summary = TopListCache.Summary()
                return
            }
            if summary.subtree != nil,
                !lists.remove(TopEntry(doc: slot, field: field), from: &summary.subtree!, tail: &summary.subtreeTail,
                              completeCount: documentCount + 1)
            {
                summary.subtree = nil
            }
            // The posting is still there.
            if summary.own != nil, let token = tokenNodes.firstIndex(of: node),
                !lists.remove(TopEntry(doc: slot, field: tokenFields[token]), from: &summary.own!, tail: &summary.ownTail,
                              completeCount: lists.nodes[Int(node)].postingList.count)
            {
                summary.own = nil
            }
            summary.fieldMap?.clear(Int(slot))
            summary.ownFieldMap?.clear(Int(slot))
            summary.residual = nil
        }
    }

    /// The best field of the document's tokens that are `node` itself, or
    /// `noField`.
    private static func ownField(of node: Int32, tokenNodes: [Int32], tokenFields: [UInt8]) -> UInt8 {
        var best = noField
        for (token, tokenNode) in tokenNodes.enumerated() where tokenNode == node { best = min(best, tokenFields[token]) }
        return best
    }

    /// Runs `body` on the summary of each listed node among `touched` (with
    /// its field), giving it plain views of the engine: a method of the
    /// engine called in the loop would copy the engine (a retain per array)
    /// each time.
    private func updateTopLists(
        of slot: UInt32, touched: [(node: Int32, field: UInt8)],
        _ body: (ListUpkeep, Int32, UInt8, inout TopListCache.Summary) -> Void
    ) {
        ranks.withUnsafeBufferPointer { ranks in
        trie.nodes.withUnsafeBufferPointer { nodes in
            let lists = ListUpkeep(ranks: ranks, nodes: nodes, documents: documents, rank: ranks[Int(slot)])
            topLists.update(touched, slot: slot) { node, field, summary in body(lists, node, field, &summary) }
        }}
    }
}

/// Best-list changes for one document, in static order, read through plain
/// views of the engine's ranks, trie nodes and documents.
private struct ListUpkeep {
    let ranks: UnsafeBufferPointer<StaticRank>
    let nodes: UnsafeBufferPointer<TokenTrie.Node>
    let documents: [Document?]
    /// Static rank of the document being changed.
    let rank: StaticRank
    let capacity = TopListCache.capacity

    func precedes(_ a: TopEntry, _ b: TopEntry) -> Bool {
        SearchEngine.staticPrecedes(a, b, ranks: ranks, documents: documents)
    }

    /// Where `entry` goes in `list` (sorted in static order): the first
    /// position whose entry it precedes.
    func position(of entry: TopEntry, in list: [TopEntry]) -> Int {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if precedes(list[mid], entry) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The list's length and last key, read once and remembered in `tail`.
    func tail(of list: [TopEntry], _ tail: inout ListTail?) -> ListTail? {
        if tail == nil { tail = ListTail(of: list, ranks: ranks) }
        return tail
    }

    /// Whether `entry` (of the document being changed) ranks after every entry of
    /// `list`, most often told by the remembered key of its last entry:
    /// each comparison of ranks reads another document's, a cache miss at
    /// a million items, and most changes pass through dozens of lists
    /// without entering them.
    func follows(_ entry: TopEntry, _ list: [TopEntry], tail: inout ListTail?) -> Bool {
        let key = StaticKey(field: entry.field, rank: rank)
        guard let known = self.tail(of: list, &tail) else { return true }
        let order = key.compare(known.last)
        return order != 0 ? order > 0 : precedes(list[list.count - 1], entry)
    }

    /// Puts `entry` in `list`, which held every document of its subtree if
    /// it had `completeCount` entries.
    func insert(_ entry: TopEntry, into list: inout [TopEntry], tail: inout ListTail?, completeCount: Int) {
        if follows(entry, list, tail: &tail) {
            let count = tail?.count ?? 0
            // A truncated list says nothing of what ranks after its last entry.
            if count == completeCount && count < capacity {
                list.append(entry)
                tail = ListTail(count: count + 1, last: StaticKey(field: entry.field, rank: rank))
            }
            return
        }
        // It goes before the last entry (`follows` said so, and read the tail).
        let at = position(of: entry, in: list)
        list.insert(entry, at: at)
        if list.count > capacity {
            list.removeLast()
            // The new last is this document or one whose rank is not at hand.
            tail = at == list.count - 1 ? ListTail(count: list.count, last: StaticKey(field: entry.field, rank: rank)) : nil
        } else {
            tail?.count = list.count
        }
    }

    /// Takes `entry` out of `list`, which held every document of its
    /// subtree if it had `completeCount` entries; false when the list must
    /// be dropped instead (too short to serve, or not what it should be).
    func remove(_ entry: TopEntry, from list: inout [TopEntry], tail: inout ListTail?, completeCount: Int) -> Bool {
        let count = self.tail(of: list, &tail)?.count ?? 0
        if !follows(entry, list, tail: &tail), case let at = position(of: entry, in: list), at < list.count, list[at] == entry {
            list.remove(at: at)
            // The last entry stays unless it was this one: a change that
            // enters and leaves lists need not read another rank to learn
            // where they end.
            if at == list.count { tail = nil } else { tail?.count = list.count }
            return list.count == completeCount - 1 || list.count >= capacity / 2
        }
        // A complete list holds every document: this cannot happen, but a
        // list that is not what it should be is better rebuilt.
        return count != completeCount
    }
}
