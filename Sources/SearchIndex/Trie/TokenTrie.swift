/// The serving structure: a trie over normalised tokens, keyed by Unicode
/// scalar, whose nodes hold the postings of the token that ends there.
///
/// ```
///   root ─ b ─ r ─ e ─ n ─ t●      ● = a token ends here: postings
///                      └─ d ─ a●       [(doc, field), …]
/// ```
///
/// Nodes live in one array and refer to each other by index, so the trie is
/// a value type that copies cheaply until it is changed. Indexing, updating
/// and deleting one document touch only the paths of its tokens; a node left
/// with no postings and no children is unlinked and its slot reused.
/// Each node keeps the number of postings in its subtree, which lets a query
/// pick its most selective term without enumerating anything.
struct TokenTrie: Sendable {
    struct Posting: Sendable, Hashable {
        var doc: UInt32
        var field: UInt8
    }

    struct Child: Sendable {
        var scalar: UInt32
        var node: Int32
    }

    /// One node: 48 bytes, its two lists apart on the heap.
    ///
    /// ```
    ///  parent  scalar  depth  stamp  subtree  documents  firstChild   moreChildren  postings
    ///  Int32   UInt32  Int32  UInt32 UInt32   UInt32     (scalar,node) [Child] ─┐    [Posting] ─┐
    ///                                                                           ▼               ▼
    ///                                                            heap: rest by scalar   heap: postings
    /// ```
    ///
    /// Below the first few letters nearly every node has one child, so the
    /// child of least scalar is kept in the node: a walk down such a path
    /// reads one node a step instead of a node and its child list (two cache
    /// misses a step at a million items), and those nodes allocate no list.
    struct Node: Sendable {
        var parent: Int32
        var scalar: UInt32
        var depth: Int32
        /// Marks nodes already counted for the document being counted.
        var stamp: UInt32 = 0
        private var storedSubtreeCount: UInt32 = 0
        private var storedDocumentCount: UInt32 = 0
        /// The child of least scalar; `node` 0 (the root, never a child) when there is none.
        fileprivate var firstChild = Child(scalar: 0, node: 0)
        /// The other children, sorted by scalar, every one above `firstChild`'s.
        fileprivate var moreChildren: [Child] = []
        /// Postings of the token that ends exactly here.
        var postings: [Posting] = []

        init(parent: Int32, scalar: UInt32, depth: Int32) {
            self.parent = parent
            self.scalar = scalar
            self.depth = depth
        }

        /// A node as a snapshot saved it: `childCount` children sorted by
        /// scalar at `children` (bytes as written, maybe unaligned).
        init(parent: Int32, scalar: UInt32, depth: Int32, children: UnsafeRawPointer, childCount: Int,
             postings: [Posting], subtreeCount: UInt32, documentCount: UInt32, stamp: UInt32) {
            self.init(parent: parent, scalar: scalar, depth: depth)
            if childCount > 0 {
                firstChild = children.loadUnaligned(as: Child.self)
                moreChildren = SnapshotReader.array(from: children + MemoryLayout<Child>.stride, count: childCount - 1)
            }
            self.postings = postings
            storedSubtreeCount = subtreeCount
            storedDocumentCount = documentCount
            self.stamp = stamp
        }

        /// Postings in this node's whole subtree, its own included.
        var subtreeCount: Int {
            get { Int(storedSubtreeCount) }
            set { storedSubtreeCount = UInt32(newValue) }
        }

        /// Distinct documents with a token in this subtree (kept by `countDocument`).
        var documentCount: Int {
            get { Int(storedDocumentCount) }
            set { storedDocumentCount = UInt32(newValue) }
        }

        /// The children, by scalar.
        var children: Children { Children(first: firstChild, more: moreChildren) }
    }

    /// A node's children in scalar order, read without building an array.
    struct Children: RandomAccessCollection, Sendable {
        fileprivate let first: Child
        fileprivate let more: [Child]

        var startIndex: Int { 0 }
        var endIndex: Int { first.node == 0 ? 0 : more.count + 1 }
        subscript(position: Int) -> Child { position == 0 ? first : more[position - 1] }
    }

    private(set) var nodes: [Node] = [Node(parent: -1, scalar: 0, depth: 0)]
    private var freeNodes: [Int32] = []
    private var stampCounter: UInt32 = 0

    static let root: Int32 = 0

    init() {}

    /// A trie from its parts, as a snapshot saved them.
    init(restoring nodes: [Node], freeNodes: [Int32], stampCounter: UInt32) {
        self.nodes = nodes
        self.freeNodes = freeNodes
        self.stampCounter = stampCounter
    }

    /// The parts `init(restoring:)` takes.
    var savedParts: (freeNodes: [Int32], stampCounter: UInt32) { (freeNodes, stampCounter) }

    /// Number of distinct tokens stored.
    var tokenCount: Int { nodes.reduce(0) { $0 + ($1.postings.isEmpty ? 0 : 1) } }

    subscript(node: Int32) -> Node { nodes[Int(node)] }

    // Field reads that never copy a whole node (its arrays would be retained
    // and released on the hot paths).
    @inline(__always) func parent(of node: Int32) -> Int32 { nodes[Int(node)].parent }
    @inline(__always) func depth(of node: Int32) -> Int32 { nodes[Int(node)].depth }

    /// The node reached by `scalar` from `node`, if any.
    @inline(__always)
    func child(of node: Int32, _ scalar: UInt32) -> Int32? {
        // Read in place: binding the array to a local would retain and
        // release it on every step of every token insert and lookup.
        nodes.withUnsafeBufferPointer { nodes in
            let first = nodes[Int(node)].firstChild
            if first.scalar == scalar, first.node != 0 { return first.node }
            guard first.node != 0, scalar > first.scalar else { return nil }
            return nodes[Int(node)].moreChildren.withUnsafeBufferPointer { children in
                var low = 0
                var high = children.count
                while low < high {
                    let mid = (low + high) / 2
                    if children[mid].scalar < scalar { low = mid + 1 } else { high = mid }
                }
                if low < children.count, children[low].scalar == scalar { return children[low].node }
                return nil
            }
        }
    }

    /// The node whose path spells `token`, if any.
    func find(_ token: String) -> Int32? {
        var node = Self.root
        for scalar in token.unicodeScalars {
            guard let next = child(of: node, scalar.value) else { return nil }
            node = next
        }
        return node
    }

    /// The first eight UTF-8 bytes of the token at `node` as a token head
    /// (`TokenArena.head`), and its whole length in bytes, read off the path
    /// without building the string.
    func utf8Head(at node: Int32) -> (head: UInt64, byteCount: Int) {
        var byteCount = 0
        var current = node
        while current != Self.root {
            byteCount += UTF8.width(Unicode.Scalar(nodes[Int(current)].scalar)!)
            current = nodes[Int(current)].parent
        }
        // Second walk, last scalar first: each one's bytes end where the
        // next one's begin.
        var head: UInt64 = 0
        var end = byteCount
        current = node
        while current != Self.root {
            let scalar = Unicode.Scalar(nodes[Int(current)].scalar)!
            let start = end - UTF8.width(scalar)
            if start < 8 {
                var position = start
                for byte in UTF8.encode(scalar)! where position < 8 {
                    head |= UInt64(byte) << (8 * UInt64(7 - position))
                    position += 1
                }
            }
            end = start
            current = nodes[Int(current)].parent
        }
        return (head, byteCount)
    }

    /// The token spelled by the path to `node`.
    func token(at node: Int32) -> String {
        var scalars: [Unicode.Scalar] = []
        var current = node
        while current != Self.root {
            scalars.append(Unicode.Scalar(nodes[Int(current)].scalar)!)
            current = nodes[Int(current)].parent
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars.reversed())
        return String(out)
    }

    /// Room for `count` nodes in all, so a bulk build does not copy the node
    /// array each time it outgrows it.
    mutating func reserveCapacity(nodes count: Int) {
        if count > nodes.capacity { nodes.reserveCapacity(count) }
    }

    /// Adds a posting for `token`, creating its path; returns the token's node.
    @discardableResult
    mutating func insert(_ token: String, posting: Posting) -> Int32 {
        insertPosting(token, posting: posting).node
    }

    /// Adds a posting for `token`, creating its path; returns the token's
    /// node and where the posting sits in that node's list.
    mutating func insertPosting(_ token: String, posting: Posting) -> (node: Int32, position: UInt32) {
        // Every node on the way down gains one posting in its subtree.
        var node = Self.root
        nodes[Int(node)].subtreeCount += 1
        for scalar in token.unicodeScalars {
            if let next = child(of: node, scalar.value) {
                node = next
            } else {
                node = makeChild(of: node, scalar: scalar.value)
            }
            nodes[Int(node)].subtreeCount += 1
        }
        let position = UInt32(nodes[Int(node)].postings.count)
        nodes[Int(node)].postings.append(posting)
        return (node, position)
    }

    /// Adds `postings[i]` for `tokens[i]` (whose heads are `heads[i]`), as
    /// `insertPosting` on each in turn would, and returns each one's node
    /// and position.
    ///
    /// One token at a time, every posting walks from the root, and at a
    /// million items most steps miss the cache (two fifths of a bulk
    /// import). Here the tokens are taken in the order of their first eight
    /// bytes, so each walk starts where it leaves the previous token's path,
    /// and a token repeated in the batch is walked once:
    ///
    /// ```
    ///  walk order   steps taken
    ///  bren         root → b → r → e → n
    ///  brent        n → t
    ///  brent        none: the same node
    ///  brett        back up to e → t → t
    ///  cozo         back up to root → c → o → z → o
    /// ```
    ///
    /// Subtree counts are gathered along the kept path and added once when
    /// a node leaves it. Equal tokens keep the batch's order, so a node's
    /// postings end up in the order `insertPosting` would give them (and a
    /// posting's place counts the batch's postings before it there).
    mutating func insertPostings(_ tokens: [String], heads: [UInt64], postings: [Posting]) -> (nodes: [Int32], places: [UInt32]) {
        precondition(tokens.count == heads.count && heads.count == postings.count)
        // By head, then batch order: equal tokens stay in batch order, and
        // tokens that only differ past their eighth byte may interleave,
        // which costs a few steps of walk, not correctness.
        let order = Self.orderByHead(heads)
        var nodesOut = [Int32](repeating: Self.root, count: tokens.count)
        var placesOut = [UInt32](repeating: 0, count: tokens.count)
        // The previous token's path below the root, with the postings added
        // under each node since it joined the path.
        var path: [(scalar: UInt32, node: Int32, gain: Int)] = []
        var rootGain = 0
        func leave(below depth: Int) {
            while path.count > depth {
                let last = path.removeLast()
                nodes[Int(last.node)].subtreeCount += last.gain
                if path.isEmpty { rootGain += last.gain } else { path[path.count - 1].gain += last.gain }
            }
        }
        for index in order {
            var node = Self.root
            var depth = 0
            var onPath = true
            for scalar in tokens[index].unicodeScalars {
                let value = scalar.value
                if onPath {
                    if depth < path.count, path[depth].scalar == value {
                        node = path[depth].node
                        depth += 1
                        continue
                    }
                    leave(below: depth)
                    onPath = false
                }
                node = child(of: node, value) ?? makeChild(of: node, scalar: value)
                path.append((value, node, 0))
                depth += 1
            }
            if onPath { leave(below: depth) }
            if depth == 0 { rootGain += 1 } else { path[depth - 1].gain += 1 }
            placesOut[index] = UInt32(nodes[Int(node)].postings.count)
            nodesOut[index] = node
            nodes[Int(node)].postings.append(postings[index])
        }
        leave(below: 0)
        nodes[Int(Self.root)].subtreeCount += rootGain
        return (nodesOut, placesOut)
    }

    /// Indices of `heads` in ascending order of head, equal heads in index
    /// order. A large batch is radix sorted (16 bits a pass, least
    /// significant first, so each pass keeps the order of the ones before;
    /// a pass where every head has the same digit is skipped): a
    /// comparison sort of a chunk's hundred thousand heads cost a tenth of
    /// a bulk import's inserting.
    static func orderByHead(_ heads: [UInt64]) -> [Int] {
        guard heads.count >= 4_096 else {
            return heads.indices.sorted { (heads[$0], $0) < (heads[$1], $1) }
        }
        var order = [Int](heads.indices)
        var scratch = [Int](repeating: 0, count: heads.count)
        var starts = [Int](repeating: 0, count: 1 << 16)
        heads.withUnsafeBufferPointer { heads in
            for shift in stride(from: UInt64(0), to: 64, by: 16) {
                starts.withUnsafeMutableBufferPointer { starts in
                    for digit in starts.indices { starts[digit] = 0 }
                    for head in heads { starts[Int(truncatingIfNeeded: head >> shift) & 0xFFFF] += 1 }
                    guard !starts.contains(heads.count) else { return }
                    var total = 0
                    for digit in starts.indices {
                        let count = starts[digit]
                        starts[digit] = total
                        total += count
                    }
                    order.withUnsafeBufferPointer { order in
                        scratch.withUnsafeMutableBufferPointer { scratch in
                            for index in order {
                                let digit = Int(truncatingIfNeeded: heads[index] >> shift) & 0xFFFF
                                scratch[starts[digit]] = index
                                starts[digit] += 1
                            }
                        }
                    }
                    swap(&order, &scratch)
                }
            }
        }
        return order
    }

    /// Removes `doc`'s posting from `node` and prunes the path if it is left empty.
    mutating func remove(doc: UInt32, from node: Int32) {
        guard let index = nodes[Int(node)].postings.firstIndex(where: { $0.doc == doc }) else { return }
        removePosting(at: UInt32(index), from: node)
    }

    /// Removes the posting at `position` of `node` in constant time: the
    /// list's last posting moves into the gap (order within a list carries
    /// no meaning). Returns the document whose posting moved, so its owner
    /// can note the new position; prunes the path if it is left empty.
    @discardableResult
    mutating func removePosting(at position: UInt32, from node: Int32) -> UInt32? {
        let last = nodes[Int(node)].postings.count - 1
        var moved: UInt32?
        if Int(position) != last {
            let tail = nodes[Int(node)].postings[last]
            nodes[Int(node)].postings[Int(position)] = tail
            moved = tail.doc
        }
        nodes[Int(node)].postings.removeLast()
        var current = node
        while current >= 0 {
            nodes[Int(current)].subtreeCount -= 1
            current = nodes[Int(current)].parent
        }
        prune(node)
        return moved
    }

    private mutating func makeChild(of parent: Int32, scalar: UInt32) -> Int32 {
        let fresh = Node(parent: parent, scalar: scalar, depth: nodes[Int(parent)].depth + 1)
        let index: Int32
        if let reused = freeNodes.popLast() {
            nodes[Int(reused)] = fresh
            index = reused
        } else {
            nodes.append(fresh)
            index = Int32(nodes.count - 1)
        }
        let child = Child(scalar: scalar, node: index)
        let first = nodes[Int(parent)].firstChild
        if first.node == 0 {
            nodes[Int(parent)].firstChild = child
        } else if scalar < first.scalar {
            nodes[Int(parent)].moreChildren.insert(first, at: 0)
            nodes[Int(parent)].firstChild = child
        } else {
            // In place: a local copy of the list would be copied again on insert.
            let position = nodes[Int(parent)].moreChildren.firstIndex { $0.scalar > scalar } ?? nodes[Int(parent)].moreChildren.count
            nodes[Int(parent)].moreChildren.insert(child, at: position)
        }
        return index
    }

    private mutating func prune(_ start: Int32) {
        var node = start
        while node != Self.root, nodes[Int(node)].subtreeCount == 0 {
            let parent = nodes[Int(node)].parent
            let scalar = nodes[Int(node)].scalar
            if nodes[Int(parent)].firstChild.scalar == scalar {
                nodes[Int(parent)].firstChild = nodes[Int(parent)].moreChildren.isEmpty
                    ? Child(scalar: 0, node: 0) : nodes[Int(parent)].moreChildren.removeFirst()
            } else {
                nodes[Int(parent)].moreChildren.removeAll { $0.scalar == scalar }
            }
            nodes[Int(node)] = Node(parent: -1, scalar: 0, depth: 0)
            freeNodes.append(node)
            node = parent
        }
    }

    /// Adds `delta` (±1) to the distinct-document count of every node on the
    /// paths of one document's token nodes, each node once; returns those
    /// nodes, each with the best (least) of `fields` among the document's
    /// tokens under it. The paths are walked best field first, so the first
    /// token to reach a node is its best one and the walk can still stop at
    /// the first node already counted.
    @discardableResult
    mutating func countDocument(tokenNodes: [Int32], fields: [UInt8], delta: Int) -> [(node: Int32, field: UInt8)] {
        stampCounter &+= 1
        if stampCounter == 0 { stampCounter = 1 }
        var touched: [(node: Int32, field: UInt8)] = []
        touched.reserveCapacity(tokenNodes.count * 2)
        // A pass per field value (a handful), not a sort: this runs once per
        // document indexed.
        for field in 0...(fields.max() ?? 0) {
            for token in tokenNodes.indices where fields[token] == field {
                var node = tokenNodes[token]
                while node >= 0, nodes[Int(node)].stamp != stampCounter {
                    nodes[Int(node)].stamp = stampCounter
                    nodes[Int(node)].documentCount += delta
                    touched.append((node, field))
                    node = nodes[Int(node)].parent
                }
            }
        }
        return touched
    }

    /// Calls `body` with every posting in `node`'s subtree.
    func forEachPosting(under node: Int32, _ body: (Posting) -> Void) {
        forEachPostingList(under: node) { postings in
            for posting in postings { body(posting) }
        }
    }

    /// Calls `body` with the posting list of every node in the subtree of
    /// `node`, in place: a broad prefix visits hundreds of thousands of
    /// postings, and a call (or a retained array) per posting would cost
    /// more than the work done with it.
    func forEachPostingList(under node: Int32, _ body: (UnsafeBufferPointer<Posting>) -> Void) {
        var stack: [Int32] = [node]
        nodes.withUnsafeBufferPointer { nodes in
            while let current = stack.popLast() {
                nodes[Int(current)].postings.withUnsafeBufferPointer { postings in
                    if !postings.isEmpty { body(postings) }
                }
                let first = nodes[Int(current)].firstChild
                if first.node != 0 { stack.append(first.node) }
                nodes[Int(current)].moreChildren.withUnsafeBufferPointer { children in
                    for child in children { stack.append(child.node) }
                }
            }
        }
    }

    /// Calls `body` with the posting list of `node` alone, in place.
    func withPostings<R>(of node: Int32, _ body: (UnsafeBufferPointer<Posting>) -> R) -> R {
        nodes.withUnsafeBufferPointer { nodes in nodes[Int(node)].postings.withUnsafeBufferPointer(body) }
    }

    /// Whether `ancestor` is `node` or lies on its path to the root.
    @inline(__always) func isAncestor(_ ancestor: Int32, of node: Int32) -> Bool {
        let targetDepth = depth(of: ancestor)
        var current = node
        while depth(of: current) > targetDepth { current = parent(of: current) }
        return current == ancestor
    }
}
