import Testing
import TestSupport
@testable import SearchIndex

/// The best-list cache keeps its summaries in a table of its own
/// (`TopListCache.SummaryTable`): positions hashed by node, summaries side
/// by side, a removal moving the last summary into the gap. Whatever the
/// order of stores and removals, each node must find its own summary, as
/// a dictionary would.
@Suite struct SummaryTableTests {
    /// A summary that names the value it was stored with.
    func summary(_ value: UInt32) -> TopListCache.Summary {
        var summary = TopListCache.Summary()
        summary.subtree = [TopEntry(doc: value, field: 0)]
        return summary
    }

    func value(_ summary: TopListCache.Summary?) -> UInt32? { summary?.subtree?.first?.doc }

    @Test(arguments: [1, 2, 3])
    func agreesWithADictionaryThroughStoresAndRemovals(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var table = TopListCache.SummaryTable()
        var model: [Int32: UInt32] = [:]
        // Nodes close together, as a path's are, and far apart.
        let nodes: [Int32] = Array(0..<300) + (0..<300).map { 1_000_000 + $0 * 4_099 }
        for step in 0..<20_000 {
            let node = nodes.randomElement(using: &generator)!
            if Int.random(in: 0..<3, using: &generator) == 0 {
                table.remove(node)
                model[node] = nil
            } else {
                table[node, default: summary(0)] = summary(UInt32(step))
                model[node] = UInt32(step)
            }
        }
        #expect(table.entries.count == model.count)
        #expect(Set(table.keys) == Set(model.keys))
        for node in nodes {
            #expect(value(table[node]) == model[node], "node \(node)")
            if let position = table.position(of: node) {
                #expect(table.keys[position] == node)
                #expect(value(table.entries[position]) == model[node])
            } else {
                #expect(model[node] == nil)
            }
        }
    }

    /// A change passes through the cache's lists and field maps in place,
    /// and a summary left empty is dropped (its node no longer listed).
    @Test func updateChangesInPlaceAndDropsEmptiedSummaries() {
        let cache = TopListCache()
        cache.store(subtree: [TopEntry(doc: 1, field: 0)], tail: nil, for: 7)
        cache.store(subtree: [TopEntry(doc: 2, field: 0)], tail: nil, for: 9)
        cache.store(fieldMap: FieldMap(count: 64), for: 9)
        cache.update([(node: 7, field: 0), (node: 8, field: 0), (node: 9, field: 1)], slot: 40) { node, field, summary in
            if node == 7 { summary = TopListCache.Summary() }
            if node == 9 {
                summary.subtree!.append(TopEntry(doc: 40, field: field))
                summary.fieldMap!.lower(40, to: field)
            }
        }
        #expect(cache.subtree(7) == nil)
        #expect(cache.subtree(9) == [TopEntry(doc: 2, field: 0), TopEntry(doc: 40, field: 1)])
        #expect(cache.fieldMap(9)?[40] == 1)
        #expect(Set(cache.allLists.subtree.keys) == [9])
    }
}
