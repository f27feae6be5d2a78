/// The tokens of every document, in flat parallel arrays that the query
/// loop scans without touching `Document` (no copy, no retain, memory read
/// in order):
///
/// ```
///  slot:      0            1          (hole)       2
///  spans:   [0, 3)       [3, 5)                  [9, 12)
///  words:   w  w  w      w  w      ·  ·  ·  ·    w  w  w    best field · place · trie node of the token
///
///  word     bit 31 30 │ 29 ……… 24 │ 23 ……………………………… 0
///               field │ place     │ trie node (below 2^24)
/// ```
///
/// The field rides in the node's word as a posting's does in its slot's
/// (`TokenTrie.Posting`): the scan reads one column for both, and no
/// column of fields apart is kept.
///
/// A token is tested against a query term by its node alone: node indices
/// follow the order of the nodes' paths (`TokenTrie+Order`), so a prefix's
/// tokens are a range of them, with no copy of each token's bytes kept
/// for that test.
///
/// Knowing about where each posting sits lets a delete find it in a few
/// thousand postings and take it out in constant time
/// (`TokenTrie.removePosting`) instead of searching a list that, for a
/// common word, holds most of the index. A place is six bits, bits 10–15
/// of the posting's index: the posting is among the 1,024 indices with
/// those bits in each run of 65,536 (`TokenTrie.position(of:in:place:)`),
/// one window for most lists and a few for the longest, each read in
/// order. Kept in the word's six spare bits, places cost no memory of
/// their own; the price is a limit of 2^24 trie nodes.
///
/// Re-tokenising a document appends its new tokens and leaves a hole where
/// the old ones were; holes are squeezed out (in slot order) once they
/// outweigh the live tokens, so the arrays stay at most twice their content.
package struct TokenArena: Sendable {
    /// Each token's best field, place and trie node in one word (see above).
    package private(set) var words = FlatColumn<UInt32>()
    /// First token of each slot, and how many it has (0: no document).
    package private(set) var starts = FlatColumn<UInt32>()
    package private(set) var counts = FlatColumn<UInt32>()
    private var liveTokens = 0

    /// The tokens of `slot` as indices into the parallel arrays.
    package init() {}

    /// An arena from its parts, as a snapshot saved them (the columns are
    /// usually borrowed from the mapped file: see `FlatColumn`).
    package init(words: FlatColumn<UInt32>, starts: FlatColumn<UInt32>, counts: FlatColumn<UInt32>) {
        self.words = words
        self.starts = starts
        self.counts = counts
        liveTokens = counts.reduce(0) { $0 + Int($1) }
    }

    /// Whether every column is still read from a loaded snapshot (none changed since).
    package var isBorrowed: Bool {
        words.isBorrowed && starts.isBorrowed && counts.isBorrowed
    }

    /// The same arena in memory of its own, each column with room to grow
    /// by an eighth (made in the background after a load: see
    /// `SearchEngine+Tables`).
    /// `copied` is called after each column, with the bytes it was read from.
    package func ownedCopy(_ copied: (UnsafeRawBufferPointer) -> Void = { _ in }) -> TokenArena {
        func copy<T>(_ column: FlatColumn<T>) -> FlatColumn<T> {
            defer { copied(column.borrowedBytes) }
            return column.ownedCopy(capacity: column.count + column.count / 8)
        }
        var arena = self
        arena.words = copy(words)
        arena.starts = copy(starts)
        arena.counts = copy(counts)
        return arena
    }

    @inline(__always) func span(of slot: UInt32) -> Range<Int> {
        guard Int(slot) < starts.count else { return 0..<0 }
        let start = Int(starts[Int(slot)])
        return start..<(start + Int(counts[Int(slot)]))
    }

    /// The word of a token at `node` whose best field is `field` and whose
    /// posting sits at `position` of the node's list.
    @inline(__always) static func word(node: Int32, field: UInt8, position: UInt32) -> UInt32 {
        precondition(UInt32(bitPattern: node) <= nodeMask && field < 4, "a token's word holds a node below 2^24 and a field below 4")
        return UInt32(field) << 30 | UInt32(place(of: position)) << placeShift | UInt32(bitPattern: node)
    }

    static let nodeMask: UInt32 = (1 << 24) - 1
    /// The most nodes a trie may have: every node must fit a token's word.
    package static let nodeLimit = Int(nodeMask) + 1
    private static let placeShift: UInt32 = 24
    private static let placeMask: UInt32 = 0x3F << placeShift

    /// The trie node in a token's word.
    @inline(__always) static func node(of word: UInt32) -> Int32 { Int32(bitPattern: word & nodeMask) }

    /// The best field in a token's word.
    @inline(__always) static func field(of word: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: word >> 30) }

    /// The place in a token's word: bits 10–15 of its posting's index.
    @inline(__always) static func place(inWord word: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: (word & placeMask) >> placeShift) }

    /// The tokens' trie nodes, by token index.
    var nodes: WordPart<Int32> { WordPart(words: words, part: Self.node(of:)) }

    /// The tokens' best fields, by token index.
    var fields: WordPart<UInt8> { WordPart(words: words, part: Self.field(of:)) }

    /// The tokens' places, by token index.
    var places: WordPart<UInt8> { WordPart(words: words, part: Self.place(inWord:)) }

    /// One part of every token's word, read by token index.
    struct WordPart<Part> {
        let words: FlatColumn<UInt32>
        let part: (UInt32) -> Part

        subscript(index: Int) -> Part { part(words[index]) }
        var count: Int { words.count }
        var isBorrowed: Bool { words.isBorrowed }
    }

    /// The trie nodes of `slot`'s tokens.
    func tokenNodes(of slot: UInt32) -> [Int32] { words.elements(in: span(of: slot)).map(Self.node(of:)) }

    /// The best fields of `slot`'s tokens.
    func tokenFields(of slot: UInt32) -> [UInt8] { words.elements(in: span(of: slot)).map(Self.field(of:)) }

    /// Room for `count` tokens in all (a bulk build).
    mutating func reserveCapacity(tokens count: Int) {
        guard count > words.capacity else { return }
        words.reserveCapacity(count)
    }

    /// Replaces the tokens of `slot`. Given as views: a bulk build sets
    /// every slot, and would otherwise make three arrays for each.
    mutating func set(
        slot: UInt32, nodes newNodes: UnsafeBufferPointer<Int32>, fields newFields: UnsafeBufferPointer<UInt8>,
        places newPlaces: UnsafeBufferPointer<UInt32>
    ) {
        precondition(newNodes.count == newFields.count && newFields.count == newPlaces.count)
        clear(slot: slot)
        while starts.count <= Int(slot) {
            starts.append(0)
            counts.append(0)
        }
        starts[Int(slot)] = UInt32(words.count)
        counts[Int(slot)] = UInt32(newNodes.count)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: newNodes.count) { newWords in
            for index in newNodes.indices {
                newWords[index] = Self.word(node: newNodes[index], field: newFields[index], position: newPlaces[index])
            }
            words.append(contentsOf: UnsafeBufferPointer(newWords))
        }
        liveTokens += newNodes.count
    }

    /// Renames every token's node through `newIndex` (from `TokenTrie.reorder()`).
    mutating func renumberNodes(_ newIndex: [Int32]) {
        words.withUnsafeMutableBufferPointer { words in
            newIndex.withUnsafeBufferPointer { newIndex in
                // Holes keep what they held: nothing reads them, and a
                // node they name may be gone.
                for slot in starts.indices where counts[slot] > 0 {
                    let start = Int(starts[slot])
                    for index in start..<(start + Int(counts[slot])) {
                        let word = words[index]
                        words[index] = word & ~Self.nodeMask | UInt32(bitPattern: newIndex[Int(word & Self.nodeMask)])
                    }
                }
            }
        }
    }

    /// What the arena keeps of a posting's index in its node's list (see above).
    @inline(__always) static func place(of position: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: position >> 10 & 0x3F) }

    /// Calls `body` with the words, which it may change (a bulk build's
    /// places: `TokenTrie.appendPostings`), and the span of each of `slots`.
    mutating func withWords(ofSlots slots: [UInt32], _ body: (UnsafeMutablePointer<UInt32>, [Range<Int>]) -> Void) {
        let spans = slots.map { span(of: $0) }
        words.withUnsafeMutableBufferPointer { words in
            if let base = words.baseAddress { body(base, spans) }
        }
    }

    /// `word` with its place set for a posting at `position`.
    @inline(__always) static func word(_ word: UInt32, placedAt position: UInt32) -> UInt32 {
        word & ~placeMask | UInt32(place(of: position)) << placeShift
    }

    /// Notes that `slot`'s posting in `node` now sits at `position`.
    mutating func movePosting(of slot: UInt32, in node: Int32, to position: UInt32) {
        for index in span(of: slot) where Self.node(of: words[index]) == node {
            words[index] = Self.word(words[index], placedAt: position)
            return
        }
        preconditionFailure("slot \(slot) has no token at node \(node)")
    }

    /// Forgets the tokens of `slot`.
    mutating func clear(slot: UInt32) {
        guard Int(slot) < counts.count, counts[Int(slot)] > 0 else { return }
        liveTokens -= Int(counts[Int(slot)])
        counts[Int(slot)] = 0
        starts[Int(slot)] = 0
        if words.count > 4_096, words.count > 2 * liveTokens { compact() }
    }

    private mutating func compact() {
        var packedWords = FlatColumn<UInt32>()
        packedWords.reserveCapacity(liveTokens)
        func move<T>(_ span: Range<Int>, of column: FlatColumn<T>, to packed: inout FlatColumn<T>) {
            column.withUnsafeBufferPointer { packed.append(contentsOf: UnsafeBufferPointer(rebasing: $0[span])) }
        }
        for slot in starts.indices where counts[slot] > 0 {
            let span = span(of: UInt32(slot))
            starts[slot] = UInt32(packedWords.count)
            move(span, of: words, to: &packedWords)
        }
        words = packedWords
    }

    /// The first eight UTF-8 bytes of `text`, big-endian, zero-padded: a
    /// token begins with a term of at most eight bytes exactly when their
    /// heads agree on the term's bytes. (Not kept in the arena: a bulk
    /// insert sorts by them, a document's build finds its repeated tokens
    /// by them, and a highlight tests a token given as text by them.)
    static func head<S: Sequence>(of utf8: S) -> UInt64 where S.Element == UInt8 {
        var value: UInt64 = 0
        var count = 0
        for byte in utf8 {
            if count == 8 { break }
            value = value << 8 | UInt64(byte)
            count += 1
        }
        return count == 0 ? 0 : value << (8 * UInt64(8 - count))
    }

    /// `head(of:)` for a string, reading its UTF-8 storage directly (the
    /// generic path walks an iterator; this runs once per token indexed).
    static func head(of text: String) -> UInt64 {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            var value: UInt64 = 0
            let count = min(bytes.count, 8)
            for index in 0..<count { value = value << 8 | UInt64(bytes[index]) }
            return count == 0 ? 0 : value << (8 * UInt64(8 - count))
        } ?? head(of: text.utf8)
    }
}
