extension SearchEngine {
    /// Where this engine's memory is (see `MemoryUsage`). Walks every
    /// node, document and record: for reports, not for a keystroke.
    public func memoryUsage() -> MemoryUsage {
        var borrowed = 0
        func bytes<T>(_ column: FlatColumn<T>) -> Int {
            let size = column.count * MemoryLayout<T>.stride
            if column.isBorrowed { borrowed += size; return 0 }
            return size
        }
        let arena = bytes(tokens.words)
            + bytes(tokens.starts) + bytes(tokens.counts)
        var postings = 0
        for node in trie.nodes {
            postings += bytes(node.postingList)
        }
        let childLists = trie.childPool.count * MemoryLayout<TokenTrie.Child>.stride
        let trieBytes = trie.nodes.count * (MemoryLayout<TokenTrie.Node>.stride + MemoryLayout<TokenTrie.OrderedRange>.stride)
            + trie.labels.memoryBytes + childLists
        // Sets are shared between a record and its document: each counted once.
        var seen = Set<ObjectIdentifier>()
        var sets = 0
        func count(_ set: AttributeSet?) {
            guard let packed = set?.packed else { return }
            borrowed += packed.windowBytes
            guard seen.insert(ObjectIdentifier(packed.storage)).inserted else { return }
            let footprint = packed.footprint
            sets += footprint.owned
            borrowed += footprint.borrowed
            // The dictionary that coded it, once: part of the sets' bytes.
            if let dictionary = packed.dictionary, seen.insert(ObjectIdentifier(dictionary)).inserted {
                sets += dictionary.memoryBytes
            }
        }
        for document in documents { count(document?.attributes) }
        // A held record's set is its document's, counted above.
        for record in recordTable.values { count(record.item.attributeSet) }
        for activity in activities.values { count(activity.contentAttributeSet) }
        let slotColumns = ranks.count * MemoryLayout<StaticRank>.stride + rankTiers.count + expirations.count * 8
            + engagedSlots.count
        let parts = [
            MemoryUsage.Part(name: "tokenArena", bytes: arena),
            MemoryUsage.Part(name: "attributeSets", bytes: sets),
            MemoryUsage.Part(name: "fieldMaps", bytes: topLists.fieldMapBytes),
            MemoryUsage.Part(name: "records", bytes: recordTable.memoryBytes),
            MemoryUsage.Part(name: "postings", bytes: postings),
            MemoryUsage.Part(name: "documents", bytes: documents.count * MemoryLayout<Document?>.stride),
            MemoryUsage.Part(name: "trie", bytes: trieBytes),
            MemoryUsage.Part(name: "bestLists", bytes: topLists.listBytes),
            MemoryUsage.Part(name: "identifierMap", bytes: slotTable.memoryBytes),
            MemoryUsage.Part(name: "exactNames", bytes: exactNames.memoryBytes),
            MemoryUsage.Part(name: "slotColumns", bytes: slotColumns),
        ]
        return MemoryUsage(parts: parts.sorted { $0.bytes > $1.bytes }, borrowed: borrowed)
    }
}
