import TestSupport
import Testing
@testable import SearchIndex

/// Node indices in the order of the nodes' paths (`TokenTrie+Order`): a
/// reorder keeps every token, and "is this node under that one?" answered
/// by a range agrees with a walk up the trie, also after changes have made
/// new nodes and freed ordered ones.
@Suite struct TrieOrderTests {
    /// Whether `ancestor` is `node` or on its path to the root, by walking up (the reference).
    func walksUp(_ trie: TokenTrie, from node: Int32, to ancestor: Int32) -> Bool {
        var current = node
        while current >= 0 {
            if current == ancestor { return true }
            current = trie.parent(of: current)
        }
        return false
    }

    /// The nodes reachable from the root.
    func liveNodes(_ trie: TokenTrie) -> [Int32] {
        var live: [Int32] = []
        var stack: [Int32] = [TokenTrie.root]
        while let node = stack.popLast() {
            live.append(node)
            stack.append(contentsOf: trie.children(of: node).map(\.node))
        }
        return live
    }

    /// Every token with its postings' documents.
    func postingsByToken(_ trie: TokenTrie) -> [String: [UInt32]] {
        var out: [String: [UInt32]] = [:]
        for node in liveNodes(trie) where !trie[node].postingList.isEmpty {
            out[trie.token(at: node)] = trie[node].postings.map(\.doc)
        }
        return out
    }

    func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    /// A trie of short words over a small alphabet (many splits), some
    /// removed again so that freed nodes lie among the live ones.
    func churnedTrie(seed: UInt64) -> (trie: TokenTrie, words: RandomWords) {
        var words = RandomWords(seed: seed)
        var (trie, list) = words.trie(of: 400, lengths: 1...9)
        for doc in stride(from: 0, to: list.count, by: 3) { trie.remove(doc: UInt32(doc), from: trie.node(ofToken: list[doc])!) }
        return (trie, words)
    }

    @Test(arguments: [1, 2, 3])
    func aReorderKeepsEveryTokenAndNumbersNodesInPathOrder(seed: UInt64) {
        var (trie, _) = churnedTrie(seed: seed)
        let before = postingsByToken(trie)
        let oldLive = liveNodes(trie)
        let oldPaths = Dictionary(uniqueKeysWithValues: oldLive.map { ($0, trie.token(at: $0)) })
        #expect(oldLive.count < trie.nodes.count, "the churn freed nodes")

        let newIndex = trie.reorder()

        #expect(postingsByToken(trie) == before)
        #expect(trie.nodes.count == oldLive.count)
        #expect(trie.orderedLimit == Int32(trie.nodes.count) && trie.unorderedNodeCount == 0)
        for (old, path) in oldPaths { #expect(trie.token(at: newIndex[Int(old)]) == path) }
        #expect(newIndex.filter { $0 >= 0 }.count == oldLive.count)
        // Preorder by scalar: each path sorts after the one before it.
        for node in 1..<Int32(trie.nodes.count) {
            #expect(scalars(trie.token(at: node - 1)).lexicographicallyPrecedes(scalars(trie.token(at: node))))
        }
        // A node's range is itself and its descendants.
        for node in 0..<Int32(trie.nodes.count) {
            let descendants = (0..<Int32(trie.nodes.count)).filter { walksUp(trie, from: $0, to: node) }
            #expect(trie.orderedRange(of: node) == .init(low: UInt32(node), high: UInt32(node) + UInt32(descendants.count)))
        }
    }

    @Test(arguments: [4, 5, 6])
    func ancestryByRangeAgreesWithAWalkUpThroughChanges(seed: UInt64) {
        var (trie, words) = churnedTrie(seed: seed)
        var generator = SeededGenerator(seed: seed)
        _ = trie.reorder()
        var doc: UInt32 = 1_000
        var sawNew = false, sawRetired = false
        for round in 0..<6 {
            // New words: leaves, and splits of ordered edges.
            for _ in 0..<40 {
                trie.insert(words.word(1...10), posting: .init(doc: doc, field: 0))
                doc += 1
            }
            // Removals: ordered and new nodes pruned.
            for _ in 0..<30 {
                let withPostings = liveNodes(trie).filter { !trie[$0].postingList.isEmpty }
                let node = withPostings.randomElement(using: &generator)!
                trie.remove(doc: trie[node].postings[0].doc, from: node)
            }
            sawNew = sawNew || trie.nodes.count > Int(trie.orderedLimit)
            sawRetired = sawRetired || trie.retiredNodes > 0
            let live = liveNodes(trie)
            for ancestor in live {
                for node in live {
                    #expect(
                        trie.isAncestor(ancestor, of: node) == walksUp(trie, from: node, to: ancestor),
                        "round \(round): \(trie.token(at: ancestor)) over \(trie.token(at: node))")
                }
            }
        }
        #expect(sawNew && sawRetired)
    }

    /// A subtree's posting lists, read as its ordered range while no node
    /// has been made since the reorder (pruned nodes among them) and by a
    /// walk once one has, are those a walk down its child lists finds.
    @Test(arguments: [7, 8])
    func aSubtreesPostingListsAreTheOnesItsChildListsReach(seed: UInt64) {
        var (trie, words) = churnedTrie(seed: seed)
        var generator = SeededGenerator(seed: seed)
        _ = trie.reorder()
        func expectWalkedLists(_ stage: String) {
            for node in liveNodes(trie) {
                var read: [[UInt32]] = []
                trie.forEachPostingList(under: node) { read.append($0.map(\.doc)) }
                var stack: [Int32] = [node]
                var walked: [[UInt32]] = []
                while let current = stack.popLast() {
                    if !trie[current].postingList.isEmpty { walked.append(trie[current].postings.map(\.doc)) }
                    stack.append(contentsOf: trie.children(of: current).map(\.node))
                }
                #expect(read.sorted { $0.lexicographicallyPrecedes($1) } == walked.sorted { $0.lexicographicallyPrecedes($1) },
                        "\(stage): under \(trie.token(at: node))")
            }
        }
        expectWalkedLists("ordered")
        for _ in 0..<30 {
            let withPostings = liveNodes(trie).filter { !trie[$0].postingList.isEmpty }
            let node = withPostings.randomElement(using: &generator)!
            trie.remove(doc: trie[node].postings[0].doc, from: node)
        }
        #expect(trie.retiredNodes > 0 && trie.nodes.count == Int(trie.orderedLimit), "pruned, nothing made")
        expectWalkedLists("pruned")
        for doc in UInt32(5_000)..<5_040 { trie.insert(words.word(1...10), posting: .init(doc: doc, field: 0)) }
        #expect(trie.nodes.count > Int(trie.orderedLimit), "nodes made since the reorder")
        expectWalkedLists("made since")
    }

    /// The arena's probes code each document as a walk up the trie from its
    /// tokens' nodes does, when some nodes were made after the trie was put
    /// in order (tested by a walk) and the rest lie in ranges.
    @Test func probesCodeTokensAtOrderedAndNewNodesAlike() {
        let scan = ScanTests()
        var engine = SearchEngine()
        engine.index(scan.corpus(51, count: 1_200))
        #expect(engine.trie.unorderedNodeCount == 0)
        // New words, a few items at a time: too few nodes for a reorder.
        for batch in 0..<10 {
            engine.index((0..<3).map { item("new/\(batch)-\($0)", title: "quoll\(batch)\($0) kaqu\($0) renzz") })
        }
        #expect(engine.trie.nodes.count > Int(engine.trie.orderedLimit), "nodes made since the order")
        let trie = engine.trie
        var checked = 0, newHits = 0
        let terms = Set(scan.queries(52, count: 150).flatMap { Tokenizer.queryTerms($0) } + ["quoll3", "kaq", "renz", "quol"])
        for term in terms {
            let matches = engine.termMatches.matches(for: term, in: trie)
            guard let probe = TermProbe(matches: matches, trie: trie) else { continue }
            for slot in engine.documents.indices where engine.documents[slot] != nil {
                var expected = TermProbe.miss
                for index in engine.tokens.span(of: UInt32(slot)) {
                    let node = engine.tokens.nodes[index]
                    var code = matches.prefix.filter { walksUp(trie, from: node, to: $0.key) }.map { UInt8($0.value) * 8 + 4 }.min()
                    if code != nil, let typos = matches.whole[node] { code = min(code!, UInt8(typos) * 8) }
                    if let code { expected = min(expected, code + engine.tokens.fields[index]) }
                    if code != nil, node >= trie.orderedLimit { newHits += 1 }
                }
                #expect((probe.bestToken(of: UInt32(slot), in: engine.tokens, trie: trie)?.code ?? TermProbe.miss) == expected,
                        "\(term) in slot \(slot)")
                checked += 1
            }
        }
        #expect(checked > 50_000)
        #expect(newHits > 10)
    }

    /// A change that makes an eighth of the trie's nodes anew puts them in
    /// order again, and what holds node indices follows: the answers, the
    /// best lists, the tokens' places.
    @Test func aLargeChangeReordersAndAnswersStayTheSame() {
        let scan = ScanTests()
        var engine = SearchEngine()
        engine.topListThreshold = 40
        engine.index(scan.corpus(61, count: 1_500))
        // Best lists filled by queries, then kept by the changes below.
        for query in ["k", "ka", "r", "m", "t", "s"] { _ = engine.search(SearchQuery(query, limit: 10, now: referenceNow)) }
        #expect(!engine.topLists.isEmpty)
        let nodesBefore = engine.trie.nodes.count
        var words = RandomWords(seed: 62)
        engine.index((0..<400).map { item("fresh/\($0)", title: "\(words.word(6...9)) ka\(words.word(3...5))") })
        #expect(engine.trie.orderedLimit == Int32(engine.trie.nodes.count), "reordered")
        #expect(engine.trie.nodes.count > nodesBefore)
        var fresh = SearchEngine()
        fresh.topListThreshold = 40
        fresh.index(engine.records.values.map(\.item).sorted { $0.uniqueIdentifier < $1.uniqueIdentifier })
        for query in scan.queries(63, count: 120) + ["k", "ka", "kaa", "fresh", "r", "aab"] {
            let request = SearchQuery(query, limit: 20, now: referenceNow)
            let a = engine.search(request), b = fresh.search(request)
            #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(query)")
            #expect(a.results.map(\.explanation) == b.results.map(\.explanation), "\(query)")
            #expect(a.total == b.total, "\(query) total")
        }
        // Every token's place still says where its posting is.
        for (slot, document) in engine.documents.enumerated() where document != nil {
            for index in engine.tokens.span(of: UInt32(slot)) {
                let postings = engine.trie[engine.tokens.nodes[index]].postings
                let position = postings.firstIndex { $0.doc == UInt32(slot) }
                #expect(position.map { TokenArena.place(of: UInt32($0)) } == engine.tokens.places[index])
            }
        }
        // Best lists kept under their renumbered nodes: every entry has a
        // token in its list's subtree.
        let (subtree, own) = engine.topLists.allLists
        #expect(!subtree.isEmpty)
        for (node, list) in subtree {
            for entry in list {
                #expect(engine.tokens.span(of: entry.doc).contains { walksUp(engine.trie, from: engine.tokens.nodes[$0], to: node) })
            }
        }
        for (node, list) in own {
            for entry in list { #expect(engine.tokens.span(of: entry.doc).contains { engine.tokens.nodes[$0] == node }) }
        }
    }

    /// A bulk build leaves each posting list with room for at most a
    /// thirty-second more postings (its doubling growth left up to half a list
    /// unused), and the lists keep their postings; the next insert still
    /// lands in them.
    @Test func aBulkBuildLeavesItsPostingListsFitted() {
        var engine = SearchEngine()
        engine.index((0..<3_000).map { item("photo/\($0)", title: "Cozo \($0 % 7 == 0 ? "misatonve" : "lens") \($0)") })
        #expect(engine.trie.orderedLimit == Int32(engine.trie.nodes.count), "reordered at the build's end")
        var long = 0
        for node in engine.trie.nodes where node.postingList.count > 8 {
            long += 1
            #expect(node.postingList.capacity <= node.postingList.count + node.postingList.count / 32 + 4)
        }
        #expect(long >= 3)
        let cozo = engine.trie.find("cozo")!
        #expect(Set(engine.trie[cozo].postings.map(\.doc)).count == 3_000)
        engine.index([item("photo/new", title: "Cozo misatonve")])
        #expect(engine.search(SearchQuery("cozo misatonve", limit: 1_000, now: referenceNow)).total == 430)
    }
}
