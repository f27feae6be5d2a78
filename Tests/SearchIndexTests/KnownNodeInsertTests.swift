import Testing
@testable import SearchIndex

/// A one-item insert appends each token whose node the trie already has
/// straight onto that node, counting it on the way up
/// (`TokenTrie.appendPosting`), instead of walking down again. The trie
/// must end up as the walk down would leave it, also when an earlier token
/// of the same document splits the edge above a node found before it.
@Suite struct KnownNodeInsertTests {
    /// Every node's token, counts and postings.
    func contents(_ trie: TokenTrie) -> [String: [Int]] {
        var out: [String: [Int]] = [:]
        var stack: [Int32] = [TokenTrie.root]
        while let node = stack.popLast() {
            let postings = trie[node].postings.flatMap { [Int($0.doc), Int($0.field)] }.sorted()
            out[trie.token(at: node)] = [trie[node].documentCount, trie[node].subtreeCount] + postings
            stack.append(contentsOf: trie.children(of: node).map(\.node))
        }
        return out
    }

    @Test func aSplitAboveAFoundNodeCountsInBoth() {
        let first = item("a/1", title: "Brenda")
        // "bren" splits the edge "brenda" that the pass found whole.
        let second = item("a/2", title: "Bren Brenda")
        var oneByOne = engine([first])
        #expect(oneByOne.trie.find("bren").map { oneByOne.trie.token(at: $0) } == "brenda")
        oneByOne.index([second])
        let together = engine([first, second])
        let expected = contents(together.trie)
        #expect(contents(oneByOne.trie) == expected)
        #expect(expected["bren"]?.prefix(2) == [2, 3])
        #expect(expected["brenda"]?.prefix(2) == [2, 2])
        #expect(oneByOne.ids("brenda") == together.ids("brenda"))
        #expect(Set(oneByOne.ids("bren")) == ["a/1", "a/2"])
    }

    /// Many one-item inserts over a growing trie, each mixing tokens the
    /// trie has with new ones, agree with one bulk build.
    @Test func oneByOneAgreesWithABulkBuild() {
        let words = ["bren", "brenda", "brent", "br", "harbour", "harbor", "harb", "北极", "北极光", "北", "zoë", "zo"]
        let items = (0..<300).map { n in
            item("doc/\(String(format: "%03d", n))", title: "\(words[n % words.count]) \(words[n * 5 % words.count]) w\(n % 17)",
                 keywords: ["\(words[n * 7 % words.count])x\(n % 3)"])
        }
        var oneByOne = SearchEngine()
        for item in items { oneByOne.index([item]) }
        #expect(contents(oneByOne.trie) == contents(engine(items).trie))
    }
}
