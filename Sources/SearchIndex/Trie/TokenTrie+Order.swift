/// Node indices in the order of the nodes' paths, so that "is this token
/// under that prefix?" is one range test on the token's node index.
///
/// `reorder()` renumbers the live nodes in preorder, children by scalar:
/// the order of their paths. The tokens starting with a prefix are then
/// one run of indices, its locus's subtree, kept for each node in
/// `orderedRanges`:
///
/// ```
///  index  path          ordered range
///  0      (root)        0..<7
///  1      "b"           1..<5
///  2      "bre"         2..<5      "bre" ⊐ "bren", "brenda", "brent"
///  3      "brenda"      3..<4
///  4      "brent"       4..<5
///  5      "c"           5..<7
///  6      "coz"         6..<7
/// ```
///
/// The scan tests a token of a candidate document against a query term
/// this way (`TermProbe`) instead of comparing the token's first bytes,
/// which the token arena would have to keep for it (8 bytes a token), for
/// a test that also needs a walk up the trie past 8 bytes.
///
/// Changes keep the ranges true without renumbering. The indices below
/// `orderedLimit` are the ordered ones; a node made since takes an index
/// at or above it, so no ordered range contains it, and a test of such a
/// token walks up the trie instead. A split node's subtree is the lower
/// node's, so it takes that node's range; a new leaf's range is empty. A
/// pruned ordered index is never reused (it lies inside its ancestors'
/// ranges): it waits for the next `reorder()`, which a change makes once
/// the unordered nodes are worth it (`SearchEngine.orderTrieIfDue`).
extension TokenTrie {
    /// The ordered node indices of a subtree, `low..<high` (empty for a
    /// subtree made since the last reorder).
    package struct OrderedRange: Sendable, Equatable {
        package var low: UInt32 = 0
        package var high: UInt32 = 0

        package init(low: UInt32 = 0, high: UInt32 = 0) {
            self.low = low
            self.high = high
        }
    }

    /// The ordered range of `node`'s subtree.
    @inline(__always)
    func orderedRange(of node: Int32) -> OrderedRange { orderedRanges[Int(node)] }

    /// Whether the ordered node `node` lies in the subtree of `ancestor`
    /// (or is it).
    @inline(__always)
    func isOrdered(_ node: Int32, under ancestor: Int32) -> Bool {
        orderedRanges.withUnsafeBufferPointer { ranges in
            let range = ranges[Int(ancestor)]
            return UInt32(bitPattern: node) &- range.low < range.high &- range.low
        }
    }

    /// Nodes made, and ordered indices freed, since the last `reorder()`:
    /// what another one would put in order.
    var unorderedNodeCount: Int { nodes.count - Int(orderedLimit) + retiredNodes }

    /// Renumbers the live nodes in the order of their paths and sets their
    /// ordered ranges; freed nodes are dropped. Returns each old index's
    /// new one (-1 for a freed node), for whatever else holds node indices.
    mutating func reorder() -> [Int32] {
        var newIndex = [Int32](repeating: -1, count: nodes.count)
        var liveCount = 0
        var stack: [Int32] = [Self.root]
        while let node = stack.popLast() {
            newIndex[Int(node)] = Int32(liveCount)
            liveCount += 1
            pushChildren(of: node, onto: &stack)
        }
        // The nodes are permuted where they lie, not copied into a new
        // array: a second array of nodes on top of the build's end would
        // set its peak. Each node keeps its child list (relinked in place,
        // not copied) and
        // its posting list is fitted on the way (mostly a bulk build's
        // end, when the lists have their final size).
        var ordered = takeNodes()
        newIndex.withUnsafeBufferPointer { newIndex in
            Self.permute(&ordered, to: newIndex)
            ordered.removeLast(ordered.count - liveCount)
            for index in ordered.indices {
                ordered[index].relink(newIndex)
                ordered[index].fitPostingList()
            }
        }
        // A subtree's size, summed from the last node back: each node's
        // children come after it.
        var sizes = [UInt32](repeating: 1, count: ordered.count)
        for index in ordered.indices.dropFirst().reversed() { sizes[Int(ordered[index].parent)] += sizes[index] }
        let ranges = ordered.indices.map { OrderedRange(low: UInt32($0), high: UInt32($0) + sizes[$0]) }
        // Consumed, so that the trie's array is the only one: relinking
        // the child pool below writes each node's run start, and a second
        // reference would copy every node.
        adoptOrderedNodes(consume ordered, ranges: ranges)
        newIndex.withUnsafeBufferPointer { compactChildPool(renaming: $0) }
        return newIndex
    }

    /// Moves each node of `nodes` to the index `newIndex` gives it, in
    /// place, following each cycle of the permutation; a freed node (-1)
    /// is overwritten or left past the live ones.
    ///
    /// ```
    ///  carry ← nodes[s];  to = newIndex[s]:  swap(carry, nodes[to]), and on
    ///  from the node that was at `to`, until a place whose node has moved
    ///  already (the cycle's start) or was freed takes the carried one
    /// ```
    private static func permute(_ nodes: inout [Node], to newIndex: UnsafeBufferPointer<Int32>) {
        var moved = [Bool](repeating: false, count: nodes.count)
        for start in nodes.indices where newIndex[start] >= 0 && !moved[start] {
            var carried = Node(parent: -1, scalar: 0, depth: 0)
            swap(&carried, &nodes[start])
            var from = start
            while true {
                moved[from] = true
                let to = Int(newIndex[from])
                if to == from || moved[to] || newIndex[to] < 0 {
                    nodes[to] = carried
                    break
                }
                swap(&carried, &nodes[to])
                from = to
            }
        }
    }
}
