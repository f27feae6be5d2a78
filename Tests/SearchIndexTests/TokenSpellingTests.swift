import Testing
@testable import SearchIndex

/// `TokenTrie.token(at:)` spells a node's path from its depth, writing a
/// buffer of that many scalars: a node whose depth disagrees with its path
/// (a damaged snapshot's) is still spelled, by the checked way, and never
/// written past the buffer.
@Suite struct TokenSpellingTests {
    @Test func wrongDepthsAreSpelledTheCheckedWay() {
        var trie = TokenTrie()
        let tokens = ["hamstonfaldor", "hamstonfa", "北极光", "北极", "zoë", "a"]
        let nodes = tokens.map { trie.insert($0, posting: .init(doc: 1, field: 0)) }
        for (token, node) in zip(tokens, nodes) { #expect(trie.token(at: node) == token) }
        for shift: Int32 in [-3, -1, 1, 5] {
            var damaged = trie.nodes
            for node in nodes { damaged[Int(node)].depth += shift }
            let restored = TokenTrie(restoring: damaged, labels: trie.labels, freeNodes: [], stampCounter: 0)
            for (token, node) in zip(tokens, nodes) {
                #expect(restored.token(at: node) == (Int(damaged[Int(node)].depth) > 0 ? token : ""), "depth off by \(shift)")
            }
        }
    }
}
