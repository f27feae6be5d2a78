import Foundation

/// Top-k for short prefixes without enumerating their matches.
///
/// A one-letter prefix over a million items matches most of them; ranking
/// them all for 20 results would be wasted work. For a single term that
/// reaches one trie node without typos, the rules reduce to: whole-word
/// matches (the node's own postings) first, then the rest of the subtree,
/// each in static order (field, sources, title length, identifier), with
/// engaged documents (few) ranked individually and merged in. Both orders
/// come from best lists cached per node (`TopListCache`), so such a query
/// reads a few hundred entries whatever the size of the subtree. When a list
/// cannot prove its part of the answer (too many entries skipped as expired
/// or engaged), the query falls back to full enumeration.
extension SearchEngine {
    /// Static order of two entries of best lists.
    func staticPrecedes(_ a: TopEntry, _ b: TopEntry) -> Bool {
        if a.field != b.field { return a.field < b.field }
        let ra = ranks[Int(a.doc)], rb = ranks[Int(b.doc)]
        if ra.sources != rb.sources { return ra.sources > rb.sources }
        if ra.titleLength != rb.titleLength { return ra.titleLength < rb.titleLength }
        if ra.identifierPrefix != rb.identifierPrefix { return ra.identifierPrefix < rb.identifierPrefix }
        return RankingKey.identifierPrecedes(documents[Int(a.doc)]!.uniqueIdentifier, documents[Int(b.doc)]!.uniqueIdentifier)
    }

    private func best(_ entries: [TopEntry]) -> [TopEntry] {
        let capacity = TopListCache.capacity
        if entries.count <= capacity { return entries.sorted(by: staticPrecedes) }
        // Partial selection: keep a sorted window of the best `capacity`.
        var window = Array(entries.prefix(capacity)).sorted(by: staticPrecedes)
        for entry in entries.dropFirst(capacity) where staticPrecedes(entry, window[capacity - 1]) {
            var low = 0, high = capacity - 1
            while low < high {
                let mid = (low + high) / 2
                if staticPrecedes(entry, window[mid]) { high = mid } else { low = mid + 1 }
            }
            window.removeLast()
            window.insert(entry, at: low)
        }
        return window
    }

    /// The best documents among the node's own postings (whole-word matches).
    func ownTopList(_ node: Int32) -> [TopEntry] {
        if let cached = topLists.own(node) { return cached }
        let list = best(trie[node].postings.map { TopEntry(doc: $0.doc, field: $0.field) })
        topLists.store(own: list, for: node)
        return list
    }

    /// The best documents with a token anywhere in the node's subtree, each
    /// with the best field it has there.
    func subtreeTopList(_ node: Int32) -> [TopEntry] {
        if let cached = topLists.subtree(node) { return cached }
        var fields: [UInt32: UInt8] = [:]
        func offer(_ doc: UInt32, _ field: UInt8) {
            if let seen = fields[doc], seen <= field { return }
            fields[doc] = field
        }
        for posting in trie[node].postings { offer(posting.doc, posting.field) }
        for child in trie[node].children {
            if trie[child.node].documentCount > TopListCache.capacity {
                // A child's best list holds every document that can be in ours.
                for entry in subtreeTopList(child.node) { offer(entry.doc, entry.field) }
            } else {
                trie.forEachPosting(under: child.node) { offer($0.doc, $0.field) }
            }
        }
        let list = best(fields.map { TopEntry(doc: $0.key, field: $0.value) })
        topLists.store(subtree: list, for: node)
        return list
    }

    /// Answers a one-term query from best lists, or nil when it must be enumerated.
    func searchFromTopLists(
        term: String, matches: TokenTrie.TermMatches, query: SearchQuery
    ) -> (total: Int, ranked: [(key: RankingKey, doc: UInt32)])? {
        guard query.domains.isEmpty, query.limit <= TopListCache.capacity / 2,
            matches.prefix.count == 1, let (node, typos) = matches.prefix.first, typos == 0,
            matches.whole.keys.allSatisfy({ $0 == node }),
            trie[node].documentCount > topListThreshold
        else { return nil }
        let limit = query.limit
        let engaged = Set(engagements.keys.compactMap { documentIndex[$0] })
        func usable(_ doc: UInt32) -> Bool {
            !engaged.contains(doc) && documents[Int(doc)]!.isVisible(at: query.now)
        }
        var picked: [(entry: TopEntry, whole: Bool)] = []
        let own = trie[node].postings
        let ownList = ownTopList(node)
        for entry in ownList where picked.count < limit && usable(entry.doc) { picked.append((entry, true)) }
        if picked.count < limit {
            if own.count > ownList.count { return nil }
            let ownDocs = Set(own.map(\.doc))
            let list = subtreeTopList(node)
            for entry in list where picked.count < limit && !ownDocs.contains(entry.doc) && usable(entry.doc) {
                picked.append((entry, false))
            }
            if picked.count < limit && trie[node].documentCount > list.count { return nil }
        }
        var ranked: [(key: RankingKey, doc: UInt32)] = picked.map { pick in
            let document = documents[Int(pick.entry.doc)]!
            return (RankingKey(
                typos: 0, wholeWords: pick.whole ? 1 : 0, fieldScore: Int(pick.entry.field), engagement: 0,
                sources: document.sources.count, titleLength: document.titleLength,
                uniqueIdentifier: document.uniqueIdentifier), pick.entry.doc)
        }
        var evaluator = TermEvaluator(matches: matches)
        for doc in engaged {
            guard let document = documents[Int(doc)], document.isVisible(at: query.now),
                let hit = evaluator.bestHit(in: document, trie: trie)
            else { continue }
            ranked.append((RankingKey(
                typos: Int(hit.typos), wholeWords: hit.whole ? 1 : 0, fieldScore: Int(hit.field),
                engagement: engagementScore(of: document.uniqueIdentifier, at: query.now).score,
                sources: document.sources.count, titleLength: document.titleLength,
                uniqueIdentifier: document.uniqueIdentifier), doc))
        }
        ranked.sort { $0.key < $1.key }
        // Every document in the subtree matches; expired ones do not count.
        var total = trie[node].documentCount
        for doc in expiringDocuments {
            guard let document = documents[Int(doc)], !document.isVisible(at: query.now) else { continue }
            if document.tokenNodes.contains(where: { trie.isAncestor(node, of: $0) }) { total -= 1 }
        }
        return (total, Array(ranked.prefix(limit)))
    }
}

/// The query-independent part of a document's rank, kept beside `documents`
/// so best-list comparisons touch only plain values.
struct StaticRank: Sendable {
    var sources: UInt8 = 0
    var titleLength: UInt32 = 0
    var identifierPrefix: UInt64 = 0
}
