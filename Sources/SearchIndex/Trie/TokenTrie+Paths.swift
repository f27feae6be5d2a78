import SearchSupport
extension TokenTrie {
    /// Reads the nodes on the paths of `tokens` (and the head of each
    /// path's posting list), changing nothing, so that the walks of an
    /// insert that follows find them in the cache.
    ///
    /// A document's insert walks its tokens' paths one token after
    /// another, and each step of a walk waits on misses that only it can
    /// find: its node's children, the child, the child's label. Here the
    /// walks go in rounds, a step of every token a round, and each round
    /// in passes, one for each of those loads: within a pass the loads are
    /// independent (no branch waits on one), so the processor waits for
    /// them together.
    ///
    /// ```
    ///  round k, for every walk still going (its node read in round k - 1,
    ///  the root in the cache):
    ///   pass 1  the middle of its children      (the binary search's first probe)
    ///   pass 2  the child, found                (hot by now)
    ///   pass 3  the child's two lines
    ///   pass 4  the child's label's second unit (the first is the child's scalar)
    ///   pass 5  the edge matched: on to the child, or the token's end (its list's head)
    /// ```
    ///
    /// Returns the nodes the tokens end at (those the trie has a node
    /// for, as `node(ofToken:)` finds them), in no particular order.
    @discardableResult
    func touchPaths(of tokens: [String]) -> [Int32] {
        touchPaths(ofEach: TokenSpellings(tokens)).filter { $0 >= 0 }
    }

    /// `touchPaths` for tokens spelled out already, with each token's node
    /// in the token's place (-1 for a token the trie has no node for): an
    /// insert appends to those without walking down again
    /// (`appendPosting(_:to:)`), and walks the same spellings for the rest.
    func touchPaths(ofEach spellings: TokenSpellings) -> [Int32] {
        let (scalars, starts) = (spellings.scalars, spellings.starts)
        let tokenCount = starts.count - 1
        /// A walk: the token, its node so far, the scalars matched, the child being read.
        struct Walk { var token: Int; var node: Int32; var matched: Int; var child: Int32 }
        var walks: [Walk] = []
        var ends = [Int32](repeating: -1, count: tokenCount)
        walks.reserveCapacity(tokenCount)
        for token in 0..<tokenCount {
            // An empty token (none the tokenizer makes) ends at the root.
            if starts[token] == starts[token + 1] { ends[token] = Self.root; continue }
            walks.append(Walk(token: token, node: Self.root, matched: 0, child: 0))
        }
        var sink: UInt32 = 0
        nodes.withUnsafeBufferPointer { nodes in
            childPool.withUnsafeBufferPointer { pool in
                scalars.withUnsafeBufferPointer { scalars in
                    walks.withUnsafeMutableBufferPointer { walks in
                        var live = walks.count
                        while live > 0 {
                            for walk in walks[..<live] {
                                let (start, count) = (nodes[Int(walk.node)].moreStart, nodes[Int(walk.node)].moreCount)
                                if count > 0 { sink &+= pool[Int(start + count / 2)].scalar }
                            }
                            for index in 0..<live {
                                let walk = walks[index]
                                walks[index].child = child(of: walk.node, scalars[starts[walk.token] + walk.matched]) ?? 0
                            }
                            for walk in walks[..<live] where walk.child != 0 {
                                sink &+= nodes[Int(walk.child)].labelStart &+ nodes[Int(walk.child)].moreStart
                            }
                            for walk in walks[..<live] where walk.child != 0 {
                                let child = Int(walk.child)
                                let (start, count) = (nodes[child].labelStart, nodes[child].labelCount)
                                if count > 1 { sink &+= labels.unit(at: Int(start) + 1) }
                            }
                            var kept = 0
                            for index in 0..<live {
                                var walk = walks[index]
                                guard walk.child != 0 else { continue }
                                let token = UnsafeBufferPointer(
                                    rebasing: scalars[starts[walk.token]..<starts[walk.token + 1]])
                                let step = edgeMatch(walk.child, token, from: walk.matched)
                                // Parted inside the edge: the insert splits it there.
                                guard step == Int(nodes[Int(walk.child)].labelCount) else { continue }
                                guard walk.matched + step < token.count else {
                                    ends[walk.token] = walk.child
                                    continue
                                }
                                walk.node = walk.child
                                walk.matched += step
                                walks[kept] = walk
                                kept += 1
                            }
                            live = kept
                        }
                    }
                }
                // The tokens' nodes: each posting list's head (its count), where the insert appends.
                for node in ends where node >= 0 { sink &+= UInt32(truncatingIfNeeded: nodes[Int(node)].postingList.count) }
            }
        }
        keepValue(sink)
        return ends
    }
}

/// Tokens' scalars one after another in one array, `starts[i]..<starts[i + 1]`
/// the `i`th token's: spelled once for the walks of a document's insert.
struct TokenSpellings {
    private(set) var scalars: [UInt32] = []
    /// Where each token starts, and the end of the last.
    private(set) var starts: [Int] = []

    init(_ tokens: [String]) {
        scalars.reserveCapacity(tokens.count * 8)
        starts.reserveCapacity(tokens.count + 1)
        for token in tokens {
            starts.append(scalars.count)
            for scalar in token.unicodeScalars { scalars.append(scalar.value) }
        }
        starts.append(scalars.count)
    }

    /// Calls `body` with the scalars of the token at `index`.
    func withToken<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try scalars.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[starts[index]..<starts[index + 1]])) }
    }
}
