/// The serving structure: a path-compressed trie (radix tree) over
/// normalised tokens, keyed by Unicode scalar, whose nodes hold the
/// postings of the token that ends there.
///
/// ```
///   root ─ "bren" ─ "t"●        ● = a token ends here: postings
///               └── "da"●           [(doc, field), …]
/// ```
///
/// A node's edge from its parent is labelled with one or more scalars (a
/// range of the shared `labels` pool); a node exists only where a token
/// ends or two tokens part, not one for every scalar of every distinct
/// token tail, whose single-child chains every walk (insert, count, typo
/// search) would step through a cache miss a scalar.
///
/// A prefix that ends inside an edge reaches the node below the edge (its
/// *locus*): the tokens starting with the prefix are exactly that node's
/// subtree, so lists, counts and matches kept by node still answer it.
/// Splitting an edge keeps the lower node's index (everything kept by
/// node index stays valid) and puts a new node above it.
///
/// Nodes live in one array and refer to each other by index, so the trie is
/// a value type that copies cheaply until it is changed. Indexing, updating
/// and deleting one document touch only the paths of its tokens; a node left
/// with no postings and no children is unlinked and its slot reused (its
/// parent is not merged back into a longer edge: node indices stay put).
/// Each node keeps the number of postings in its subtree, which lets a query
/// pick its most selective term without enumerating anything.
package struct TokenTrie: Sendable {
    /// One document's occurrence of a token: its slot and the best field
    /// the token occurs in, in one 32-bit word.
    ///
    /// ```
    ///  bit 31 30 │ 29 ……………………………………… 0
    ///      field │ slot (below 2^30)
    /// ```
    ///
    /// Two fields' worth of bits, since a field is one of four ranks; a
    /// posting of a slot and a byte took eight bytes with its padding, and
    /// posting lists are the largest thing the trie holds, read end to end
    /// by counts, best lists and field maps.
    package struct Posting: Sendable, Hashable, BitwiseCopyable {
        private var bits: UInt32

        /// Slots a posting can name: the documents array would need
        /// gigabytes of memory long before it reached this many.
        static let slotLimit: UInt32 = 1 << 30

        init(doc: UInt32, field: UInt8) {
            precondition(doc < Self.slotLimit && field < 4, "a posting holds a slot below 2^30 and a field below 4")
            bits = UInt32(field) << 30 | doc
        }

        var doc: UInt32 { bits & (Self.slotLimit - 1) }
        var field: UInt8 { UInt8(truncatingIfNeeded: bits >> 30) }
    }

    package struct Child: Sendable, BitwiseCopyable {
        var scalar: UInt32
        var node: Int32
    }

    /// One node: 56 bytes, its posting list apart on the heap, its edge
    /// label in the trie's `labels` pool, its other children in the trie's
    /// `childPool`, its ordered range in `orderedRanges`.
    ///
    /// ```
    ///  parent  scalar  depth  stamp  subtree  documents  label        firstChild    more          postingList
    ///  Int32   UInt32  Int32  UInt32 UInt32   UInt32     start,count  (scalar,node) start,count   FlatColumn ─┐
    ///                                                                               │                         ▼
    ///                                                          childPool: the rest by scalar   heap, or the loaded
    ///                                                                                          snapshot's mapping
    /// ```
    ///
    /// (The ordered range lives apart: in the node, 64 bytes, every node of
    /// a large array straddled two cache lines, where at 56 bytes six in
    /// eight do, and every walk reads nodes.)
    ///
    /// `scalar` is the label's first (what the parent's child list is keyed
    /// by); `depth` counts the scalars of the whole path, label included.
    ///
    /// Below the first few letters nearly every node has one child, so the
    /// child of least scalar is kept in the node: a walk down such a path
    /// reads one node a step instead of a node and its child list (two cache
    /// misses a step at a million items), and those nodes allocate no list.
    package struct Node: Sendable {
        package var parent: Int32
        package var scalar: UInt32
        package var depth: Int32
        /// Marks nodes already counted for the document being counted.
        package var stamp: UInt32 = 0
        private var storedSubtreeCount: UInt32 = 0
        private var storedDocumentCount: UInt32 = 0
        /// The edge from the parent: `labelCount` scalars of `labels` from `labelStart`.
        var labelStart: UInt32 = 0
        package var labelCount: UInt32 = 0
        /// The child of least scalar; `node` 0 (the root, never a child) when there is none.
        fileprivate var firstChild = Child(scalar: 0, node: 0)
        /// The other children, sorted by scalar, every one above
        /// `firstChild`'s: `moreCount` of the trie's `childPool` from `moreStart`.
        fileprivate(set) var moreStart: UInt32 = 0
        fileprivate(set) var moreCount: UInt32 = 0
        /// Postings of the token that ends exactly here.
        package var postingList = FlatColumn<Posting>()
        /// The postings, copied (for tests and reports: the engine reads `postingList`).
        var postings: [Posting] { Array(postingList) }

        /// Postings in this node's whole subtree, its own included.
        package var subtreeCount: Int {
            get { Int(storedSubtreeCount) }
            set { storedSubtreeCount = UInt32(newValue) }
        }

        /// Distinct documents with a token in this subtree (kept by `countDocument`).
        package var documentCount: Int {
            get { Int(storedDocumentCount) }
            set { storedDocumentCount = UInt32(newValue) }
        }

        /// The pool range of the children after the first.
        fileprivate var moreRange: Range<Int> { Int(moreStart)..<(Int(moreStart) + Int(moreCount)) }

        /// How many children it has.
        package var childCount: Int { firstChild.node == 0 ? 0 : Int(moreCount) + 1 }

        /// Gives the posting list the room of `fittedCapacity`, where it had more.
        mutating func fitPostingList() {
            let count = postingList.count
            guard count > 8, !postingList.isBorrowed, postingList.capacity > Self.fittedCapacity(count) + 4 else { return }
            postingList = postingList.ownedCopy(capacity: Self.fittedCapacity(count))
        }

        /// Room for a built list of `count`: a thirty-second more for a long one
        /// spares the first inserts after a build a copy of their largest lists.
        static func fittedCapacity(_ count: Int) -> Int { count > 8 ? count + count / 32 : count }

        /// Points the node's links (parent, first child) at their new
        /// indices (the other children are the pool's: `compactChildPool(renaming:)`).
        mutating func relink(_ newIndex: UnsafeBufferPointer<Int32>) {
            if parent >= 0 { parent = newIndex[Int(parent)] }
            if firstChild.node != 0 { firstChild.node = newIndex[Int(firstChild.node)] }
        }
    }

    /// A node's children in scalar order, read without building an array.
    package struct Children: RandomAccessCollection, Sendable {
        fileprivate let first: Child
        fileprivate let more: ArraySlice<Child>

        package var startIndex: Int { 0 }
        package var endIndex: Int { first.node == 0 ? 0 : more.count + 1 }
        package subscript(position: Int) -> Child { position == 0 ? first : more[more.startIndex + position - 1] }
    }

    /// The children of `node`, by scalar.
    package func children(of node: Int32) -> Children {
        // Field by field: a copy of the whole node would retain and release
        // its posting list (a typo walk asks this of every node it enters).
        Children(first: nodes[Int(node)].firstChild, more: childPool[nodes[Int(node)].moreRange])
    }

    /// Every node's children after its first, each node's a run of this pool
    /// (`Node.moreStart`, `moreCount`): an array of its own each would cost a
    /// header and the allocator's rounding on top of 8 bytes a child. A run
    /// that grows moves to the end; places no run uses are left until they
    /// make half the pool, which is then rewritten (`reorder()` too).
    private(set) var childPool: [Child] = []
    /// Places of `childPool` no run uses.
    private(set) var unusedChildPlaces = 0

    package internal(set) var nodes: [Node] = [Node(parent: -1, scalar: 0, depth: 0)]
    /// Each node's ordered range (`TokenTrie+Order`), parallel to `nodes`.
    package private(set) var orderedRanges: [OrderedRange] = [OrderedRange(low: 0, high: 1)]
    /// Every node's edge label, each a range of this pool. A split edge's
    /// two nodes share its range; a pruned node's range is left unused
    /// until those make half the pool, which is then rewritten (a snapshot
    /// writes only the ranges in use). One byte a scalar while the labels
    /// are mostly ASCII, else two (`LabelPool`).
    private(set) var labels = LabelPool()
    /// Scalars of `labels` no node uses.
    private(set) var unusedLabelScalars = 0
    /// Free node indices to reuse, all at or above `orderedLimit` (an
    /// ordered index freed is not reused until the next `reorder()`).
    private var freeNodes: [Int32] = []
    private var stampCounter: UInt32 = 0
    /// Nodes below this index are in the order of their paths, as of the
    /// last `reorder()`; those at or above it were made since (see
    /// `TokenTrie+Order`).
    private(set) var orderedLimit: Int32 = 1
    /// Ordered indices freed since the last `reorder()`.
    private(set) var retiredNodes = 0

    static let root: Int32 = 0

    init() {}

    /// A trie from its parts, as a snapshot saved them.
    package init(
        restoring nodes: [Node], childPool: [Child] = [], labels: LabelPool, freeNodes: [Int32], stampCounter: UInt32,
        orderedRanges: [OrderedRange]? = nil, orderedLimit: Int32 = 1, retiredNodes: Int = 0
    ) {
        self.nodes = nodes
        self.childPool = childPool
        self.orderedRanges = orderedRanges
            ?? [OrderedRange(low: 0, high: 1)] + repeatElement(OrderedRange(), count: max(0, nodes.count - 1))
        self.labels = labels
        self.freeNodes = freeNodes
        self.stampCounter = stampCounter
        self.orderedLimit = orderedLimit
        self.retiredNodes = retiredNodes
        postingsBorrowed = nodes.contains { $0.postingList.isBorrowed }
    }

    /// Whether some posting lists are still read from a loaded snapshot
    /// (`FlatColumn`). The first change to any list copies them all: one
    /// pause, not a common word's list copied by each of the first inserts.
    private var postingsBorrowed = false

    /// Room for a loaded posting list to grow: a long one loaded full would be
    /// copied whole by the first insert that adds to it.
    static func postingCapacity(_ count: Int) -> Int {
        count >= 1_024 ? count + count / 8 : count
    }

    /// A loaded node's posting list: `count` postings at `start`, borrowed
    /// when there is a `lender` (else copied, with room to grow).
    package static func loadedPostings(at start: UnsafeRawPointer, count: Int, lender: (AnyObject & Sendable)?) -> FlatColumn<Posting> {
        FlatColumn(at: start, count: count, lender: lender, capacity: postingCapacity(count))
    }

    /// Copies of the borrowed posting lists, by node (nil where a list is
    /// not borrowed), made in the background after a load. `copied` is
    /// called at the end with the span of the bytes they were read from.
    package func ownedPostingCopies(_ copied: (UnsafeRawBufferPointer) -> Void = { _ in }) -> [FlatColumn<Posting>?] {
        guard postingsBorrowed else { return [] }
        var low = UInt.max, high: UInt = 0
        let copies = nodes.map { node -> FlatColumn<Posting>? in
            guard node.postingList.isBorrowed else { return nil }
            let bytes = node.postingList.borrowedBytes
            if let base = bytes.baseAddress, !bytes.isEmpty {
                low = min(low, UInt(bitPattern: base))
                high = max(high, UInt(bitPattern: base) + UInt(bytes.count))
            }
            return node.postingList.ownedCopy(capacity: Self.postingCapacity(node.postingList.count))
        }
        if low < high { copied(UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: low), count: Int(high - low))) }
        return copies
    }

    /// Takes `copies` (from `ownedPostingCopies()`) in place of the borrowed
    /// lists, when no list has changed since.
    mutating func adoptPostings(_ copies: [FlatColumn<Posting>?]) {
        guard postingsBorrowed, copies.count == nodes.count else { return }
        for index in nodes.indices {
            if let copy = copies[index] { nodes[index].postingList = copy }
        }
        postingsBorrowed = false
    }

    mutating func ownPostings() {
        guard postingsBorrowed else { return }
        adoptPostings(ownedPostingCopies())
    }

    /// Every node's children after its first, one node after another: a
    /// snapshot's column.
    package var childrenInNodeOrder: [Child] { nodes.indices.flatMap { children(of: Int32($0)) } }

    /// Every node's postings, one node after another, and each node's
    /// count: a snapshot's columns.
    package var postingsInNodeOrder: (counts: [UInt32], postings: FlatColumn<Posting>) {
        var postings = FlatColumn<Posting>()
        postings.reserveCapacity(nodes.reduce(0) { $0 + $1.postingList.count })
        for node in nodes { node.postingList.withUnsafeBufferPointer { postings.append(contentsOf: $0) } }
        return (nodes.map { UInt32($0.postingList.count) }, postings)
    }

    /// The parts `init(restoring:)` takes.
    package var savedParts: (freeNodes: [Int32], stampCounter: UInt32, orderedLimit: Int32, retiredNodes: Int) {
        (freeNodes, stampCounter, orderedLimit, retiredNodes)
    }

    /// Number of distinct tokens stored.
    var tokenCount: Int { nodes.reduce(0) { $0 + ($1.postingList.isEmpty ? 0 : 1) } }

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
            return childPool.withUnsafeBufferPointer { pool in
                let children = UnsafeBufferPointer(rebasing: pool[nodes[Int(node)].moreRange])
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

    /// Calls `body` with the scalars of `text`, from a buffer on the stack.
    @inline(__always)
    static func withScalars<R>(of text: String, _ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: max(text.utf8.count, 1)) { buffer in
            var count = 0
            for scalar in text.unicodeScalars {
                buffer[count] = scalar.value
                count += 1
            }
            return try body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The locus of `pattern`: the node whose subtree holds exactly the
    /// tokens that start with it (the node itself when a path spells it,
    /// else the node below the edge it ends inside), if any token does.
    func locus(of pattern: UnsafeBufferPointer<UInt32>) -> Int32? {
        var node = Self.root
        var matched = 0
        while matched < pattern.count {
            guard let next = child(of: node, pattern[matched]) else { return nil }
            let step = edgeMatch(next, pattern, from: matched)
            // Parted from the pattern inside the edge: no token starts with it.
            if step < Int(nodes[Int(next)].labelCount), matched + step < pattern.count { return nil }
            matched += step
            node = next
        }
        return node
    }

    /// How many scalars of the edge into `node` follow `scalars` from
    /// `offset` on (the first did: the child was found by it). Fewer than
    /// the edge holds where the two part or `scalars` ends.
    @inline(__always)
    func edgeMatch(_ node: Int32, _ scalars: UnsafeBufferPointer<UInt32>, from offset: Int) -> Int {
        let start = Int(nodes[Int(node)].labelStart), count = Int(nodes[Int(node)].labelCount)
        return labels.matchLength(start: start, count: count, of: scalars, from: offset)
    }

    /// The locus of `prefix` (see `locus(of:)`): every token below it
    /// starts with `prefix`, and every token that does is below it.
    func find(_ prefix: String) -> Int32? {
        Self.withScalars(of: prefix) { locus(of: $0) }
    }

    /// The node whose path spells `token` exactly, if there is one (as
    /// there is for every token in the trie).
    func node(ofToken token: String) -> Int32? {
        Self.withScalars(of: token) { node(ofScalars: $0) }
    }

    /// `node(ofToken:)` for a token given as its scalars.
    func node(ofScalars scalars: UnsafeBufferPointer<UInt32>) -> Int32? {
        guard let node = locus(of: scalars), Int(nodes[Int(node)].depth) == scalars.count else { return nil }
        return node
    }

    /// Every node's label in node order, one after another (what a
    /// snapshot keeps: the pool less the ranges no node uses).
    package var labelsInUse: [UInt32] {
        let total = nodes.reduce(0) { $0 + Int($1.labelCount) }
        guard total > 0 else { return [] }
        var values = [UInt32](repeating: 0, count: total)
        values.withUnsafeMutableBufferPointer { values in
            var end = 0
            for node in nodes {
                labels.copyValues(start: Int(node.labelStart), count: Int(node.labelCount), to: values.baseAddress! + end)
                end += Int(node.labelCount)
            }
        }
        return values
    }

    /// The scalars of the edge into `node`.
    func label(of node: Int32) -> [UInt32] {
        let start = Int(nodes[Int(node)].labelStart)
        return labels.values(in: start..<(start + Int(nodes[Int(node)].labelCount)))
    }

    /// The first eight UTF-8 bytes of the path to `node` as a token head
    /// (`TokenArena.head`), and its whole length in bytes, read off the path
    /// without building the string.
    func utf8Head(at node: Int32) -> (head: UInt64, byteCount: Int) {
        guard node != Self.root else { return (0, 0) }
        var (head, byteCount) = utf8Head(at: nodes[Int(node)].parent)
        let start = Int(nodes[Int(node)].labelStart)
        for position in start..<(start + Int(nodes[Int(node)].labelCount)) {
            let value = labels[position]
            let scalar = Unicode.Scalar(value)!
            if byteCount >= 8 {
                byteCount += UTF8.width(scalar)
                continue
            }
            for byte in UTF8.encode(scalar)! {
                if byteCount < 8 { head |= UInt64(byte) << (8 * UInt64(7 - byteCount)) }
                byteCount += 1
            }
        }
        return (head, byteCount)
    }

    /// The token spelled by the path to `node`: the labels laid out from the
    /// node up and encoded once (typo terms' nodes are spelled every keystroke).
    func token(at node: Int32) -> String {
        let count = Int(depth(of: node))
        guard count > 0 else { return "" }
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count) { scalars in
            var end = count
            var current = node
            while current != Self.root {
                let start = Int(nodes[Int(current)].labelStart)
                let length = Int(nodes[Int(current)].labelCount)
                // The buffer is written unchecked: a path longer than the
                // depth says (only a damaged snapshot could hold one) is
                // spelled the checked way.
                guard length <= end else { return tokenReadUpward(at: node) }
                end -= length
                labels.copyValues(start: start, count: length, to: scalars.baseAddress! + end)
                current = nodes[Int(current)].parent
            }
            guard end == 0 else { return tokenReadUpward(at: node) }
            var byteCount = 0
            for value in scalars { byteCount += value < 0x80 ? 1 : UTF8.width(Unicode.Scalar(value)!) }
            return String(unsafeUninitializedCapacity: byteCount) { bytes in
                var written = 0
                for value in scalars {
                    if value < 0x80 {
                        bytes[written] = UInt8(truncatingIfNeeded: value)
                        written += 1
                    } else {
                        for byte in UTF8.encode(Unicode.Scalar(value)!)! {
                            bytes[written] = byte
                            written += 1
                        }
                    }
                }
                return written
            }
        }
    }

    /// `token(at:)` with every access checked: the labels read from the
    /// node up, then spelled from the root.
    private func tokenReadUpward(at node: Int32) -> String {
        var upward: [[UInt32]] = []
        var current = node
        while current != Self.root {
            upward.append(label(of: current))
            current = nodes[Int(current)].parent
        }
        var out = String.UnicodeScalarView()
        for label in upward.reversed() {
            for value in label { out.append(Unicode.Scalar(value)!) }
        }
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
        Self.withScalars(of: token) { insertPosting(scalars: $0, posting: posting) }
    }

    /// `insertPosting` for a token given as its scalars.
    mutating func insertPosting(scalars: UnsafeBufferPointer<UInt32>, posting: Posting) -> (node: Int32, position: UInt32) {
        ownPostings()
        let node = makePath(scalars)
        return (node, appendToList(posting, of: node))
    }

    /// `insertPosting` for a token whose node `touchPaths(ofEach:)` found: the
    /// posting goes on its list, counted up the parent links, without a walk down.
    mutating func appendPosting(_ posting: Posting, to node: Int32) -> UInt32 {
        ownPostings()
        countPostings(upFrom: node, by: 1)
        return appendToList(posting, of: node)
    }

    /// Appends `posting` to `node`'s list; returns its position there.
    private mutating func appendToList(_ posting: Posting, of node: Int32) -> UInt32 {
        let position = UInt32(nodes[Int(node)].postingList.count)
        nodes[Int(node)].postingList.append(posting)
        return position
    }

    /// Adds `delta` to the subtree count of `node` and of every node above
    /// it, through the node buffer (not an array access a node).
    private mutating func countPostings(upFrom node: Int32, by delta: Int) {
        nodes.withUnsafeMutableBufferPointer { nodes in
            var current = node
            while current >= 0 {
                nodes[Int(current)].subtreeCount += delta
                current = nodes[Int(current)].parent
            }
        }
    }

    /// The node that ends `scalars`, made if missing (splitting the edge it
    /// would end inside, or adding a leaf for its rest), with one more
    /// posting counted in every node on the way.
    ///
    /// ```
    ///  before        insert "brent"         insert "bre"
    ///  root─"brenda"  root─"bren"─"da"●      root─"bre"●─"n"─"da"●
    ///                            └─"t"●                      └─"t"●
    /// ```
    private mutating func makePath(_ scalars: UnsafeBufferPointer<UInt32>, countingBelow shared: Int = .max) -> Int32 {
        // With `shared` (a batch counting its documents), each node deeper
        // than `shared` scalars also counts one more distinct document.
        var node = Self.root
        nodes[Int(node)].subtreeCount += 1
        if shared < 0 { nodes[Int(node)].documentCount += 1 }
        var matched = 0
        while matched < scalars.count {
            guard let next = child(of: node, scalars[matched]) else {
                node = makeLeaf(under: node, label: UnsafeBufferPointer(rebasing: scalars[matched...]))
                nodes[Int(node)].subtreeCount += 1
                nodes[Int(node)].documentCount += shared < scalars.count ? 1 : 0
                return node
            }
            let step = edgeMatch(next, scalars, from: matched)
            node = step < Int(nodes[Int(next)].labelCount) ? split(next, after: step) : next
            nodes[Int(node)].subtreeCount += 1
            matched += step
            if matched > shared { nodes[Int(node)].documentCount += 1 }
        }
        return node
    }

    /// Adds `postings[i]` for `tokens[i]` (whose heads are `heads[i]`), as
    /// `insertPosting` on each in turn would, and returns each one's node
    /// and position.
    ///
    /// The tokens are taken in byte order, so consecutive walks share their
    /// path and find it in the cache; equal tokens keep the batch's order, so
    /// a node's postings end up in the order `insertPosting` would give them.
    ///
    /// `countingDocuments` also counts each posting's document in every node
    /// on its path, once a node (`countDocument`, for documents no node has
    /// counted yet). In byte order a node has counted a document exactly when
    /// the document's previous token shares the node's whole path, so a
    /// token counts it in the nodes deeper than the scalars they share, on
    /// the walk the insert makes anyway.
    ///
    /// ```
    ///  a document's tokens, in order       nodes that count it
    ///  "bren"    (the first)               every node on its path, the root too
    ///  "brenda"  (shares 4 with "bren")    those deeper than 4 scalars: "brenda"
    ///  "brent"   (shares 4 with "brenda")  "brent"
    /// ```
    ///
    /// `listing: false` walks and counts only: the postings are listed later
    /// (`appendPostings(ofSlots:in:)`), and every place returned is 0.
    mutating func insertPostings(
        _ tokens: [String], heads: [UInt64], postings: [Posting], countingDocuments: Bool = false, listing: Bool = true
    ) -> (nodes: [Int32], places: [UInt32]) {
        ownPostings()
        precondition(tokens.count == heads.count && heads.count == postings.count)
        let (order, repeats) = Self.byteOrder(tokens, heads: heads)
        // Read in insert order in a loop of their own: one after another,
        // the processor overlaps their misses (the walk below waits on each).
        var orderedTokens: [String] = []
        var orderedHeads: [UInt64] = []
        var orderedPostings: [Posting] = []
        orderedTokens.reserveCapacity(order.count)
        orderedHeads.reserveCapacity(order.count)
        orderedPostings.reserveCapacity(order.count)
        for index in order {
            orderedTokens.append(tokens[index])
            orderedHeads.append(heads[index])
            orderedPostings.append(postings[index])
        }
        var previousOfDocument = countingDocuments ? DocumentTokens(postings) : nil
        // Each token's node, by its place in insert order.
        var walked = [Int32](repeating: Self.root, count: order.count)
        for position in order.indices {
            // Scalars shared with the document's previous token (-1: none), or uncounted.
            var shared = Int.max
            if countingDocuments {
                let head = orderedHeads[position]
                let before = previousOfDocument!.exchange(orderedPostings[position].doc, position, head: head)
                if before.index < 0 {
                    shared = -1
                } else if before.head != head {
                    shared = Self.sharedScalarCount(head, before.head)
                } else {
                    shared = Self.sharedScalarCount(orderedTokens[Int(before.index)], orderedTokens[position])
                }
            }
            if repeats[position] {
                // A repeated token: its path is walked once, counted again.
                var current = walked[position - 1]
                walked[position] = current
                while current >= 0 {
                    nodes[Int(current)].subtreeCount += 1
                    if Int(nodes[Int(current)].depth) > shared { nodes[Int(current)].documentCount += 1 }
                    current = nodes[Int(current)].parent
                }
            } else {
                walked[position] = Self.withScalars(of: orderedTokens[position]) { makePath($0, countingBelow: shared) }
            }
        }
        // Each node's list length read in a loop of its own, where their misses
        // overlap; then each node's run of postings appended at once.
        var nodesOut = [Int32](repeating: Self.root, count: tokens.count)
        var placesOut = [UInt32](repeating: 0, count: tokens.count)
        guard listing else {
            for (position, index) in order.enumerated() { nodesOut[index] = walked[position] }
            return (nodesOut, placesOut)
        }
        var place: UInt32 = 0
        for (position, index) in order.enumerated() {
            place = repeats[position] ? place + 1 : UInt32(nodes[Int(walked[position])].postingList.count)
            nodesOut[index] = walked[position]
            placesOut[index] = place
        }
        orderedPostings.withUnsafeBufferPointer { orderedPostings in
            var start = 0
            while start < order.count {
                var end = start + 1
                while end < order.count, repeats[end] { end += 1 }
                nodes[Int(walked[start])].postingList.append(contentsOf: UnsafeBufferPointer(rebasing: orderedPostings[start..<end]))
                start = end
            }
        }
        return (nodesOut, placesOut)
    }

    /// Each document's latest token in a batch (its place in insert order and its head), by
    /// slot: an array over the batch's span of slots (a bulk import's are
    /// consecutive), a table when they lie far apart.
    private struct DocumentTokens {
        typealias Latest = (index: Int32, head: UInt64)
        private var first: UInt32 = 0
        private var latest: [Latest] = []
        private var table: [UInt32: Latest] = [:]
        private let usesTable: Bool

        init(_ postings: [Posting]) {
            let low = postings.lazy.map(\.doc).min() ?? 0, high = postings.lazy.map(\.doc).max() ?? 0
            usesTable = Int(high - low) > 4 * postings.count + 4_096
            if !usesTable {
                first = low
                latest = [Latest](repeating: (-1, 0), count: Int(high - low) + 1)
            }
        }

        /// The document's token before the one at `index` (index -1: none); `index` is its latest from now on.
        mutating func exchange(_ doc: UInt32, _ index: Int, head: UInt64) -> Latest {
            if usesTable { return table.updateValue((Int32(index), head), forKey: doc) ?? (-1, 0) }
            let before = latest[Int(doc - first)]
            latest[Int(doc - first)] = (Int32(index), head)
            return before
        }
    }

    /// The batch's insert order: by head (`orderByHead`), equal heads by
    /// the rest of their bytes, equal tokens in batch order; and, for each
    /// place in that order, whether its token is the one before it again.
    static func byteOrder(_ tokens: [String], heads: [UInt64]) -> (order: [Int], repeats: [Bool]) {
        var order = orderByHead(heads)
        var repeats = [Bool](repeating: false, count: order.count)
        var position = 1
        while position < order.count {
            guard heads[order[position]] == heads[order[position - 1]] else {
                position += 1
                continue
            }
            // A run of equal heads: most are one token repeated, or already in order.
            var end = position + 1
            while end < order.count, heads[order[end]] == heads[order[position]] { end += 1 }
            let start = position - 1
            var sorted = true
            // Equality first: a string's own test (two words for a short
            // one) is far cheaper than reading its bytes.
            for place in position..<end {
                if tokens[order[place - 1]] == tokens[order[place]] {
                    repeats[place] = true
                } else if compareBytes(tokens[order[place - 1]], tokens[order[place]]) > 0 {
                    sorted = false
                    break
                }
            }
            if !sorted {
                // Equal tokens keep their batch order.
                let run = order[start..<end].sorted {
                    if tokens[$0] == tokens[$1] { return $0 < $1 }
                    return compareBytes(tokens[$0], tokens[$1]) < 0
                }
                order.replaceSubrange(start..<end, with: run)
                for place in position..<end { repeats[place] = tokens[order[place - 1]] == tokens[order[place]] }
            }
            position = end + 1
        }
        return (order, repeats)
    }

    /// The order of two strings' UTF-8 bytes: negative, zero or positive.
    static func compareBytes(_ a: String, _ b: String) -> Int {
        withUTF8(a) { a in
            withUTF8(b) { b in
                let shared = sharedByteCount(a, b)
                return shared < min(a.count, b.count) ? Int(a[shared]) - Int(b[shared]) : a.count - b.count
            }
        }
    }

    /// How many whole scalars two strings start with alike.
    static func sharedScalarCount(_ a: String, _ b: String) -> Int {
        withUTF8(a) { a in
            withUTF8(b) { b in
                let bytes = sharedByteCount(a, b)
                // Scalars are counted by their first bytes; one the strings
                // part inside (at a continuation byte) is not shared.
                var scalars = 0
                for byte in a[..<bytes] where byte & 0xC0 != 0x80 { scalars += 1 }
                if bytes < min(a.count, b.count), a[bytes] & 0xC0 == 0x80 { scalars -= 1 }
                return scalars
            }
        }
    }

    private static func sharedByteCount(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let shorter = min(a.count, b.count)
        var count = 0
        while count < shorter, a[count] == b[count] { count += 1 }
        return count
    }

    /// How many whole scalars two tokens with different heads (first
    /// eight bytes, big-endian, zero after a short token's end) start with
    /// alike: read off the heads, without the tokens' bytes.
    static func sharedScalarCount(_ a: UInt64, _ b: UInt64) -> Int {
        let bytes = (a ^ b).leadingZeroBitCount / 8
        var scalars = 0
        for index in 0..<bytes where Self.byte(index, of: a) & 0xC0 != 0x80 { scalars += 1 }
        if bytes < 8, Self.byte(bytes, of: a) & 0xC0 == 0x80 { scalars -= 1 }
        return scalars
    }

    @inline(__always) private static func byte(_ index: Int, of head: UInt64) -> UInt8 {
        UInt8(truncatingIfNeeded: head >> UInt64(56 - 8 * index))
    }

    private static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// Indices of `heads` in ascending order of head, equal heads in index
    /// order: a large batch radix sorted, 16 bits a pass from the least
    /// significant (a pass where every head has the same digit is skipped).
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
        guard let index = nodes[Int(node)].postingList.firstIndex(where: { $0.doc == doc }) else { return }
        removePosting(at: UInt32(index), from: node)
    }

    /// Where `doc`'s posting sits in `node`'s list, given bits 10–15 of that
    /// position (`place`, what the token arena keeps): among the 1,024
    /// positions with those bits in each run of 65,536, the one holding it.
    func position(of doc: UInt32, in node: Int32, place: UInt8) -> UInt32 {
        withPostings(of: node) { postings in
            var start = Int(place) << 10
            while start < postings.count {
                for position in start..<min(start + 1_024, postings.count) where postings[position].doc == doc {
                    return UInt32(position)
                }
                start += 1 << 16
            }
            preconditionFailure("document \(doc) has no posting in node \(node)")
        }
    }

    /// Removes the posting at `position` of `node` in constant time: the
    /// list's last posting moves into the gap (order within a list carries
    /// no meaning). Returns the document whose posting moved, so its owner
    /// can note the new position; prunes the path if it is left empty.
    @discardableResult
    mutating func removePosting(at position: UInt32, from node: Int32) -> UInt32? {
        ownPostings()
        let last = nodes[Int(node)].postingList.count - 1
        var moved: UInt32?
        if Int(position) != last {
            let tail = nodes[Int(node)].postingList[last]
            nodes[Int(node)].postingList[Int(position)] = tail
            moved = tail.doc
        }
        nodes[Int(node)].postingList.removeLast()
        countPostings(upFrom: node, by: -1)
        prune(node)
        return moved
    }

    /// Puts `fresh` in a free slot, else at the end; returns its index.
    private mutating func allocate(_ fresh: Node) -> Int32 {
        if let reused = freeNodes.popLast() {
            nodes[Int(reused)] = fresh
            orderedRanges[Int(reused)] = OrderedRange()
            return reused
        }
        // A token's word in the arena holds its node in 24 bits (`TokenArena`).
        precondition(nodes.count < TokenArena.nodeLimit, "a trie holds at most \(TokenArena.nodeLimit) nodes")
        nodes.append(fresh)
        orderedRanges.append(OrderedRange())
        return Int32(nodes.count - 1)
    }

    /// A new leaf below `parent` whose edge spells `label` (not empty).
    private mutating func makeLeaf(under parent: Int32, label: UnsafeBufferPointer<UInt32>) -> Int32 {
        var fresh = Node(parent: parent, scalar: label[0], depth: nodes[Int(parent)].depth + Int32(label.count))
        fresh.labelStart = UInt32(labels.count)
        fresh.labelCount = UInt32(label.count)
        labels.append(contentsOf: label)
        let index = allocate(fresh)
        let child = Child(scalar: label[0], node: index)
        let first = nodes[Int(parent)].firstChild
        if first.node == 0 {
            nodes[Int(parent)].firstChild = child
        } else if child.scalar < first.scalar {
            insertMoreChild(first, at: 0, of: parent)
            nodes[Int(parent)].firstChild = child
        } else {
            let range = nodes[Int(parent)].moreRange
            let position = childPool[range].firstIndex { $0.scalar > child.scalar } ?? range.upperBound
            insertMoreChild(child, at: position - range.lowerBound, of: parent)
        }
        return index
    }

    /// Puts `child` at `position` of `parent`'s run in the pool: in place
    /// when the run ends the pool, else the run moved to the end with it.
    private mutating func insertMoreChild(_ child: Child, at position: Int, of parent: Int32) {
        let range = nodes[Int(parent)].moreRange
        if range.isEmpty || range.upperBound == childPool.count {
            let start = range.isEmpty ? childPool.count : range.lowerBound
            childPool.insert(child, at: start + position)
            nodes[Int(parent)].moreStart = UInt32(start)
        } else {
            // Copied out first: a slice of the pool appended to it would
            // copy the whole pool (the slice holds its storage).
            var run = Array(childPool[range])
            run.insert(child, at: position)
            let start = childPool.count
            childPool.append(contentsOf: run)
            unusedChildPlaces += range.count
            nodes[Int(parent)].moreStart = UInt32(start)
        }
        precondition(childPool.count <= Int(UInt32.max), "the trie's child pool holds fewer than 2^32 children")
        nodes[Int(parent)].moreCount += 1
    }

    /// Takes the child at `position` out of `parent`'s run (its last place
    /// left unused).
    private mutating func removeMoreChild(at position: Int, of parent: Int32) {
        let range = nodes[Int(parent)].moreRange
        childPool.withUnsafeMutableBufferPointer { pool in
            for index in (range.lowerBound + position)..<(range.upperBound - 1) { pool[index] = pool[index + 1] }
        }
        nodes[Int(parent)].moreCount -= 1
        if nodes[Int(parent)].moreCount == 0 { nodes[Int(parent)].moreStart = 0 }
        unusedChildPlaces += 1
        if unusedChildPlaces > 4_096, unusedChildPlaces > childPool.count / 2 { compactChildPool() }
    }

    /// Rewrites the pool with the runs in use only, in node order; after
    /// `reorder()`'s permutation, each child named by its `newIndex`.
    mutating func compactChildPool(renaming newIndex: UnsafeBufferPointer<Int32>? = nil) {
        var compacted: [Child] = []
        compacted.reserveCapacity(childPool.count - unusedChildPlaces)
        for index in nodes.indices where nodes[index].moreCount > 0 {
            let range = nodes[index].moreRange
            nodes[index].moreStart = UInt32(compacted.count)
            if let newIndex {
                for child in childPool[range] { compacted.append(Child(scalar: child.scalar, node: newIndex[Int(child.node)])) }
            } else {
                compacted.append(contentsOf: childPool[range])
            }
        }
        childPool = compacted
        unusedChildPlaces = 0
    }

    /// Splits the edge into `node` after its first `count` scalars: a new
    /// node takes the edge's head and the parent's link, with `node` (index
    /// unchanged, holding the edge's rest) its only child. The new node's
    /// subtree is `node`'s, so it starts with `node`'s counts.
    private mutating func split(_ node: Int32, after count: Int) -> Int32 {
        let lower = nodes[Int(node)]
        var upper = Node(parent: lower.parent, scalar: lower.scalar, depth: lower.depth - Int32(Int(lower.labelCount) - count))
        upper.labelStart = lower.labelStart
        upper.labelCount = UInt32(count)
        upper.subtreeCount = lower.subtreeCount
        upper.documentCount = lower.documentCount
        upper.stamp = lower.stamp
        let restStart = lower.labelStart + UInt32(count)
        upper.firstChild = Child(scalar: labels[Int(restStart)], node: node)
        let index = allocate(upper)
        // Its subtree is `node`'s, ordered nodes included.
        orderedRanges[Int(index)] = orderedRanges[Int(node)]
        let parent = Int(lower.parent)
        if nodes[parent].firstChild.node == node {
            nodes[parent].firstChild.node = index
        } else {
            let position = childPool[nodes[parent].moreRange].firstIndex { $0.node == node }!
            childPool[position].node = index
        }
        nodes[Int(node)].parent = index
        nodes[Int(node)].labelStart = restStart
        nodes[Int(node)].labelCount -= UInt32(count)
        nodes[Int(node)].scalar = labels[Int(restStart)]
        return index
    }

    private mutating func prune(_ start: Int32) {
        var node = start
        while node != Self.root, nodes[Int(node)].subtreeCount == 0 {
            let parent = nodes[Int(node)].parent
            let scalar = nodes[Int(node)].scalar
            if nodes[Int(parent)].firstChild.scalar == scalar {
                if nodes[Int(parent)].moreCount == 0 {
                    nodes[Int(parent)].firstChild = Child(scalar: 0, node: 0)
                } else {
                    nodes[Int(parent)].firstChild = childPool[Int(nodes[Int(parent)].moreStart)]
                    removeMoreChild(at: 0, of: parent)
                }
            } else {
                let range = nodes[Int(parent)].moreRange
                if let position = childPool[range].firstIndex(where: { $0.scalar == scalar }) {
                    removeMoreChild(at: position - range.lowerBound, of: parent)
                }
            }
            unusedLabelScalars += Int(nodes[Int(node)].labelCount)
            nodes[Int(node)] = Node(parent: -1, scalar: 0, depth: 0)
            // An ordered index stays unused: reused, it would lie inside
            // the ordered ranges of nodes its new path is not under.
            if node >= orderedLimit { freeNodes.append(node) } else { retiredNodes += 1 }
            node = parent
        }
        if unusedLabelScalars > 4_096, unusedLabelScalars > labels.count / 2 { compactLabels() }
    }

    /// Rewrites the label pool with only the labels in use, node by node
    /// (a long session of updates would otherwise grow it without end).
    private mutating func compactLabels() {
        var compacted = LabelPool()
        compacted.reserveCapacity(labels.count - unusedLabelScalars)
        for index in nodes.indices where nodes[index].labelCount > 0 {
            let start = Int(nodes[index].labelStart)
            nodes[index].labelStart = UInt32(compacted.count)
            compacted.append(contentsOf: labels.values(in: start..<(start + Int(nodes[index].labelCount))))
        }
        labels = compacted
        unusedLabelScalars = 0
    }

    /// Pushes `node`'s children onto `stack`, the one of least scalar
    /// last (popped first), read in place.
    func pushChildren(of node: Int32, onto stack: inout [Int32]) {
        nodes.withUnsafeBufferPointer { nodes in
            childPool.withUnsafeBufferPointer { pool in
                for child in pool[nodes[Int(node)].moreRange].reversed() { stack.append(child.node) }
            }
            let first = nodes[Int(node)].firstChild
            if first.node != 0 { stack.append(first.node) }
        }
    }

    /// The nodes, taken out of the trie (left with none until
    /// `adoptOrderedNodes`): held only there, each node can be moved out
    /// with its lists and changed in place.
    mutating func takeNodes() -> [Node] {
        defer { nodes = [] }
        return nodes
    }

    /// Takes `ordered`, every live node in the order of its path with its
    /// links set, and their ordered ranges, in place of the nodes (`reorder()`).
    mutating func adoptOrderedNodes(_ ordered: [Node], ranges: [OrderedRange]) {
        precondition(ordered.count == ranges.count)
        nodes = ordered
        orderedRanges = ranges
        orderedLimit = Int32(ordered.count)
        freeNodes = []
        retiredNodes = 0
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
        // document indexed. Through the buffer: an array access a node
        // checked the array's uniqueness and bounds again.
        let stamp = stampCounter
        nodes.withUnsafeMutableBufferPointer { nodes in
            for field in 0...(fields.max() ?? 0) {
                for token in tokenNodes.indices where fields[token] == field {
                    var node = tokenNodes[token]
                    while node >= 0, nodes[Int(node)].stamp != stamp {
                        nodes[Int(node)].stamp = stamp
                        nodes[Int(node)].documentCount += delta
                        touched.append((node, field))
                        node = nodes[Int(node)].parent
                    }
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
    /// `node`, in place (a call per posting would cost more than its work).
    /// With no node made since the last `reorder()`, the subtree is the
    /// node's ordered range, read in index order, not walked.
    func forEachPostingList(under node: Int32, _ body: (UnsafeBufferPointer<Posting>) -> Void) {
        if allNodesOrdered {
            let range = orderedRange(of: node)
            return forEachPostingList(inNodes: Int(range.low)..<Int(range.high), body)
        }
        var stack: [Int32] = [node]
        nodes.withUnsafeBufferPointer { nodes in
            while let current = stack.popLast() {
                nodes[Int(current)].postingList.withUnsafeBufferPointer { postings in
                    if !postings.isEmpty { body(postings) }
                }
                let first = nodes[Int(current)].firstChild
                if first.node != 0 { stack.append(first.node) }
                childPool.withUnsafeBufferPointer { pool in
                    for child in pool[nodes[Int(current)].moreRange] { stack.append(child.node) }
                }
            }
        }
    }

    /// Whether every node lies in its subtree's ordered range (no node made
    /// since the last `reorder()`): then a subtree's lists are a run of
    /// node indices (`orderedRange(of:)`, `forEachPostingList(inNodes:_:)`).
    var allNodesOrdered: Bool { nodes.count == Int(orderedLimit) }

    /// Calls `body` with each non-empty posting list of the nodes at
    /// `indices`, in place (a run of an ordered range, or one node).
    func forEachPostingList(inNodes indices: Range<Int>, _ body: (UnsafeBufferPointer<Posting>) -> Void) {
        nodes.withUnsafeBufferPointer { nodes in
            for index in indices {
                nodes[index].postingList.withUnsafeBufferPointer { postings in
                    if !postings.isEmpty { body(postings) }
                }
            }
        }
    }

    /// Calls `body` with the posting list of `node` alone, in place.
    func withPostings<R>(of node: Int32, _ body: (UnsafeBufferPointer<Posting>) -> R) -> R {
        nodes.withUnsafeBufferPointer { nodes in nodes[Int(node)].postingList.withUnsafeBufferPointer(body) }
    }

    /// The nodes of `matched` with no ancestor among them (a term's matches
    /// are their subtrees): each node's path up checked against the set.
    func topmost(of matched: [Int32: Int]) -> [Int32] {
        matched.keys.filter { node in
            var ancestor = nodes[Int(node)].parent
            while ancestor > Self.root {
                if matched[ancestor] != nil { return false }
                ancestor = nodes[Int(ancestor)].parent
            }
            return true
        }
    }

    /// Whether `ancestor` is `node` or lies on its path to the root: for
    /// an ordered `node`, one range test (`TokenTrie+Order`), else a walk up.
    @inline(__always) func isAncestor(_ ancestor: Int32, of node: Int32) -> Bool {
        if node < orderedLimit { return isOrdered(node, under: ancestor) }
        let targetDepth = depth(of: ancestor)
        var current = node
        while depth(of: current) > targetDepth { current = parent(of: current) }
        return current == ancestor
    }
}

// The node initialisers delegate to the memberwise one: assigning each
// property, the compiler copied the node (a retain and release of its lists).
extension TokenTrie.Node {
    init(parent: Int32, scalar: UInt32, depth: Int32) {
        self.init(parent: parent, scalar: scalar, depth: depth, stamp: 0)
    }

    /// A node as a snapshot saved it: `childCount` children sorted by
    /// scalar at `children` (bytes as written, maybe unaligned), those
    /// after the first at `moreStart` of the trie's child pool.
    package init(parent: Int32, scalar: UInt32, depth: Int32, labelStart: UInt32, labelCount: UInt32,
         children: UnsafeRawPointer, childCount: Int, moreStart: Int,
         postings: FlatColumn<TokenTrie.Posting>, subtreeCount: UInt32, documentCount: UInt32, stamp: UInt32) {
        self.init(
            parent: parent, scalar: scalar, depth: depth, stamp: stamp, storedSubtreeCount: subtreeCount,
            storedDocumentCount: documentCount, labelStart: labelStart, labelCount: labelCount,
            firstChild: childCount > 0 ? children.loadUnaligned(as: TokenTrie.Child.self) : TokenTrie.Child(scalar: 0, node: 0),
            moreStart: childCount > 1 ? UInt32(moreStart) : 0, moreCount: UInt32(max(0, childCount - 1)),
            postingList: postings)
    }
}
