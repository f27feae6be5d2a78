import Foundation
import Testing
@testable import SearchIndex
import TestSupport

/// Best lists made for one query (subtrees too small to keep one) and
/// lists made best field first give what sorting every document of the
/// subtree gives.
@Suite struct TransientTopListTests {
    /// Every document with a token under `node`, with the best field it
    /// has there, in static order: the definition a best list keeps the
    /// head of.
    func sortedDocuments(under node: Int32, in engine: SearchEngine) -> [TopEntry] {
        var best: [UInt32: UInt8] = [:]
        engine.trie.forEachPosting(under: node) { posting in
            best[posting.doc] = min(best[posting.doc] ?? 3, posting.field)
        }
        return best.map { TopEntry(doc: $0.key, field: $0.value) }.sorted(by: engine.staticPrecedes)
    }

    @Test func aTableKeepsEachDocumentOnceWithItsBestField() {
        var generator = SeededGenerator(seed: 5)
        let postings = (0..<3_000).map { _ in
            TokenTrie.Posting(doc: UInt32.random(in: 0..<700, using: &generator), field: UInt8.random(in: 0..<4, using: &generator))
        }
        // Made for fewer postings than it is offered, it grows.
        for madeFor in [postings.count, 10] {
            var table = BestFieldTable(postings: madeFor)
            postings.forEach { table.offer($0) }
            var firstMet: [UInt32] = []
            var best: [UInt32: UInt8] = [:]
            for posting in postings {
                if best[posting.doc] == nil { firstMet.append(posting.doc) }
                best[posting.doc] = min(best[posting.doc] ?? 3, posting.field)
            }
            #expect(table.entries.map(\.doc) == firstMet, "made for \(madeFor)")
            #expect(table.entries.allSatisfy { $0.field == best[$0.doc] }, "made for \(madeFor)")
        }
    }

    /// A kept list (made best field first, past its capacity) and a list
    /// made for one query, of any length, are the head of every document
    /// in static order.
    @Test(arguments: [31, 32])
    func listsAreTheHeadOfEveryDocumentInOrder(seed: UInt64) {
        var engine = engine(TopListTests().corpus(seed, count: 3_000))
        engine.topListThreshold = 10
        engine.warmTopLists()
        var checkedPastCapacity = 0
        for node in engine.trie.nodes.indices.map(Int32.init) where node != TokenTrie.root {
            guard engine.trie[node].documentCount > 0 else { continue }
            let sorted = sortedDocuments(under: node, in: engine)
            for count in [1, 7, 50, TopListCache.capacity] {
                #expect(engine.transientTopList(node, keeping: count) == Array(sorted.prefix(count)), "node \(node), \(count)")
            }
            if engine.trie[node].documentCount > TopListCache.capacity {
                #expect(engine.subtreeTopList(node) == Array(sorted.prefix(TopListCache.capacity)), "node \(node)")
                checkedPastCapacity += 1
            }
        }
        #expect(checkedPastCapacity > 5, "lists past their capacity were checked")
    }

    /// A typo bucket of subtrees below the threshold (no kept lists):
    /// lists made as long as the query can take answer as enumeration
    /// does, and one whose head is all expired sends the query there.
    @Test func listsNotKeptAnswerAsEnumerationDoes() {
        // "karto" reaches "qartox" (titles, the first 300 in identifier
        // order expired) and "kbrtox" (descriptions) with a typo each.
        let titled = (0..<600).map { n in
            item(String(format: "a/%04d", n), title: "qartox", expires: n < 300 ? referenceNow.addingTimeInterval(-60) : nil)
        }
        let described = (0..<600).map { n in item(String(format: "b/%04d", n), title: "plain", description: "kbrtox") }
        let exact = (0..<3).map { n in item("c/\(n)", title: "kartoz") }
        let fresh = (0..<40).map { n in item("d/\(n)", title: "kartox kbrtox") }
        var fast = engine(titled + described + exact + fresh)
        // Above every subtree the term reaches, below their sum.
        fast.topListThreshold = 700
        var slow = fast
        slow.topListThreshold = .max
        fast.warmTopLists()
        #expect(fast.topListReach(fast.termMatches.matches(for: "karto", in: fast.trie), query: SearchQuery("karto")) != nil)
        for query in ["karto", "kartox", "kbrto", "qarto"] {
            for limit in [1, 20, 100] {
                let a = fast.search(SearchQuery(query, limit: limit, now: referenceNow))
                let b = slow.search(SearchQuery(query, limit: limit, now: referenceNow))
                #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(query) limit \(limit)")
                #expect(a.results.map(\.explanation.key) == b.results.map(\.explanation.key), "\(query) limit \(limit)")
                #expect(a.total == b.total, "\(query) limit \(limit) total")
            }
        }
        #expect(fast.topLists.allLists.subtree.keys.allSatisfy { fast.trie[$0].documentCount > 700 }, "no list kept by a query")
    }
}
