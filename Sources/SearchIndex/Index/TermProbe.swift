import SearchSupport

/// A query term compiled for the scan loop of `SearchEngine+Scan`.
///
/// A token of the arena is tested by its trie node alone. Node indices
/// follow the order of the nodes' paths (`TokenTrie+Order`), so the
/// tokens under each node the term reaches as a prefix are a range of
/// indices; the term's ranges are merged into disjoint segments, each with
/// the best code of the prefixes over it:
///
/// ```
///   term "coz"   locus 6, ordered range 6..<9
///   token "cozo" node 7:  7 − 6 < 9 − 6 → prefix match
///
///   term "stoni" (typos)  segments  [1204, 1210) code 12 · [1210, 1211) code 4 · …
///                         a token: a bit of a coarse filter, then a binary search
/// ```
///
/// A node made since the trie was last put in order lies in no range: it
/// is tested by a walk up the trie (rare: see `SearchEngine.orderTrieIfDue`).
/// Whole-word nodes are compared by node.
///
/// A token given as text (a highlight) is tested on its first eight
/// bytes instead, a mask per prefix node:
///
/// ```
///   term "coz"   bits 63 6f 7a 00 00 00 00 00
///                mask ff ff ff 00 00 00 00 00
///   token "cozo" head 63 6f 7a 6f 00 00 00 00   head & mask == bits → match
/// ```
///
/// A node more than eight bytes deep also needs its whole path compared,
/// done only when the mask test passes.
///
/// A hit is coded in one byte that orders as `TermHit` does:
/// `typos × 8 + (prefix only ? 4 : 0) + field`, lower first.
struct TermProbe: Sendable {
    struct Prefix: Sendable {
        var bits: UInt64
        var mask: UInt64
        var node: Int32
        /// The hit code of a prefix match here, before the field is added.
        var code: UInt8
        var needsWalk: Bool
        /// The node's path when it is longer than eight bytes, for matching
        /// a token given as text (shorter ones are decided by the mask).
        var text: String?
    }

    /// The code of "no hit".
    static let miss: UInt8 = .max

    private(set) var prefixes: [Prefix]
    private(set) var wholeNodes: [Int32]
    private(set) var wholeCodes: [UInt8]
    /// The scalar counts of the whole-word nodes: a token given as text is
    /// looked up in the trie (a walk from the root, a cache miss or two a
    /// level) only when it is as long as one of them. A bit per count below
    /// 64 (a set of them hashed each token a highlight tried), the rest
    /// listed.
    private var wholeDepthBits: UInt64 = 0
    private var deepWholeDepths: [Int32] = []
    /// The whole-word nodes' paths as token heads and lengths in bytes: a
    /// token given as text is a whole-word node's word exactly when its
    /// head and length are the node's, which needs no walk down the trie
    /// to find the token's node. Nil when a path is longer than eight
    /// bytes, or the nodes are more than `wholeHeadsLimit` (each head is
    /// read off the trie when the probe is made).
    private var wholeHeads: [(head: UInt64, length: Int)]?
    static let wholeHeadsLimit = 16
    /// With several prefixes (a term with typos), a bitmap of the first two
    /// bytes they start with: most tokens are turned away by one bit test
    /// instead of a test per prefix. Empty when a prefix is shorter than
    /// two bytes or there are too few prefixes to bother.
    private(set) var leadFilter: [UInt64] = []
    /// With the filter: how many leading bits every prefix tests, and each
    /// prefix's value of them (`prefixes` are sorted by it), so a token
    /// that passes the filter tries only the prefixes that share its lead.
    private var leadShift: UInt64 = 64
    private var leadKeys: [UInt64] = []
    /// A bit for each byte a token given as text can start with and still
    /// match: the first byte of every prefix (all of them when a prefix
    /// is the empty path). A whole-word match only improves a prefix
    /// match, so the whole-word nodes add none.
    private var leadBytes = SIMD4<UInt64>()
    /// A term that reaches one node, without typos, in at most eight bytes:
    /// one mask test per token given as text, and its node (or -1) for a
    /// whole word.
    private var single: (bits: UInt64, mask: UInt64, wholeNode: Int32)?
    /// For a term that reaches one node without typos in at most eight
    /// bytes, the first byte of every token it matches (a caller testing
    /// many tokens turns most away by it before `singleCode`); nil for any
    /// other term.
    var singleLeadByte: UInt8? { single.map { UInt8(truncatingIfNeeded: $0.bits >> 56) } }

    /// Whether a token given as text whose first byte, folded, is `lead`
    /// can match: when not, `code(of:token:scalars:trie:)` is `miss`.
    @inline(__always)
    func mayMatch(lead: UInt8) -> Bool {
        leadBytes[Int(lead >> 6)] >> UInt64(lead & 63) & 1 != 0
    }

    /// For such a term, the code of a token of `length` bytes whose first
    /// eight, folded, are `head` (`TokenArena.head(of:)`); nil for any
    /// other term. The token matches when it starts with the node's whole
    /// path, and is the node's own word exactly when it is no longer,
    /// which needs no walk down the trie to tell.
    @inline(__always)
    func singleCode(head: UInt64, length: Int) -> UInt8? {
        guard let single else { return nil }
        guard head & single.mask == single.bits else { return Self.miss }
        return single.wholeNode >= 0 && length == single.mask.nonzeroBitCount / 8 ? 0 : 4
    }

    /// Whether every token given as text is decided by the probe alone
    /// (`code(of:token:scalars:trie:)` never reads the trie): it has no
    /// whole-word nodes, or keeps their heads.
    var decidesTextAlone: Bool { wholeNodes.isEmpty || wholeHeads != nil }

    /// The typos and wholeness a hit code says; nil for `miss`.
    @inline(__always)
    static func hit(ofCode code: UInt8) -> (typos: UInt8, whole: Bool)? {
        code == miss ? nil : (code >> 3, (code >> 2) & 1 == 0)
    }

    /// Nodes below this index are ordered (`TokenTrie.orderedLimit` when
    /// the probe was made: the trie does not change under a query).
    private let orderedLimit: Int32
    /// A term that reaches one node, without typos, at any depth: one range
    /// test per token of the arena (`low` and `width` of the node's ordered
    /// range), and its node (or -1) for a whole word.
    private var onlyRange: (low: UInt32, width: UInt32, node: Int32, wholeNode: Int32)?
    /// Otherwise the prefixes' ordered ranges, merged (`TermProbe+Segments`);
    /// none in a probe made for text only (`testsNodes` false).
    /// One object: a highlight copies a probe for each token it tests, and
    /// each array a probe holds is a retain and a release.
    private var segments: Segments?

    /// Whether a term can be probed: few enough nodes to test, and typos a
    /// code can hold.
    static func canProbe(_ matches: TokenTrie.TermMatches) -> Bool {
        matches.prefix.count + matches.whole.count <= EngineTuning.probeNodeLimit
            && matches.prefix.values.allSatisfy({ $0 <= 3 }) && matches.whole.values.allSatisfy({ $0 <= 3 })
    }

    /// `testsNodes` false makes a probe that tests tokens given as text
    /// only (highlights): without the segments that `prefixCode(ofNode:trie:)`
    /// and the scan's tests read, which a term with typos would build for
    /// nothing (a few microseconds of a keystroke that shows results only).
    init?(matches: TokenTrie.TermMatches, trie: TokenTrie, testsNodes: Bool = true) {
        guard Self.canProbe(matches) else { return nil }
        orderedLimit = trie.orderedLimit
        // Heads are read off the trie paths: a term with typos reaches up to
        // thousands of nodes, and building each one's string would cost more
        // than the rest of the query.
        prefixes = matches.prefix.sorted { $0.key < $1.key }.map { node, typos in
            let (head, byteCount) = trie.utf8Head(at: node)
            let length = min(byteCount, 8)
            let mask: UInt64 = length == 0 ? 0 : ~UInt64(0) << (8 * UInt64(8 - length))
            return Prefix(
                bits: head, mask: mask, node: node, code: UInt8(typos) * 8 + 4, needsWalk: byteCount > 8,
                text: byteCount > 8 ? trie.token(at: node) : nil)
        }
        for prefix in prefixes {
            guard prefix.mask != 0 else {
                leadBytes = SIMD4(repeating: ~0)
                break
            }
            let lead = Int(prefix.bits >> 56)
            leadBytes[lead >> 6] |= 1 << UInt64(lead & 63)
        }
        let wholes = matches.whole.sorted { $0.key < $1.key }
        wholeNodes = wholes.map(\.key)
        wholeCodes = wholes.map { UInt8($0.value) * 8 }
        if wholes.count <= Self.wholeHeadsLimit {
            let heads = wholes.map { node, _ in trie.utf8Head(at: node) }
            if heads.allSatisfy({ $0.byteCount <= 8 }) { wholeHeads = heads.map { ($0.head, $0.byteCount) } }
        }
        for (node, _) in wholes {
            let depth = trie.depth(of: node)
            if depth < 64 { wholeDepthBits |= 1 << UInt64(depth) } else { deepWholeDepths.append(depth) }
        }
        if prefixes.count == 1, let only = prefixes.first, only.code == 4, !only.needsWalk,
            wholeNodes.count <= 1, wholeNodes.allSatisfy({ $0 == only.node }), wholeCodes.allSatisfy({ $0 == 0 })
        {
            single = (only.bits, only.mask, wholeNodes.first ?? -1)
        }
        if prefixes.count == 1, let prefix = prefixes.first, prefix.code == 4,
            wholeNodes.count <= 1, wholeNodes.allSatisfy({ $0 == prefix.node }), wholeCodes.allSatisfy({ $0 == 0 })
        {
            let range = trie.orderedRange(of: prefix.node)
            onlyRange = (range.low, range.high &- range.low, prefix.node, wholeNodes.first ?? -1)
        } else if testsNodes {
            // Still in node order: the lead filter below sorts them its own way.
            segments = Segments(prefixes: prefixes.map { ($0.node, $0.code) }, trie: trie)
        }
        if prefixes.count > 2, prefixes.allSatisfy({ $0.mask >> 48 == 0xffff }) {
            leadFilter = [UInt64](repeating: 0, count: 1 << 10)
            for prefix in prefixes {
                let lead = Int(prefix.bits >> 48)
                leadFilter[lead >> 6] |= 1 << UInt64(lead & 63)
            }
            leadShift = UInt64(prefixes.map { $0.mask.trailingZeroBitCount }.max()!)
            prefixes.sort { $0.bits >> leadShift < $1.bits >> leadShift }
            leadKeys = prefixes.map { $0.bits >> leadShift }
        }
    }

    /// The prefixes whose lead bits are the token's (binary search).
    @inline(__always)
    private func prefixesSharingLead(of head: UInt64) -> Range<Int> {
        let key = head >> leadShift
        var low = 0, high = leadKeys.count
        while low < high {
            let middle = (low + high) / 2
            if leadKeys[middle] < key { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < leadKeys.count, leadKeys[end] == key { end += 1 }
        return low..<end
    }

    /// The prefixes a token with `head` may match: every one, or with the
    /// lead filter those sharing its lead; nil when the filter turns it away.
    @inline(__always)
    private func candidatePrefixes(of head: UInt64) -> Range<Int>? {
        guard !leadFilter.isEmpty else { return prefixes.indices }
        let lead = Int(head >> 48)
        if leadFilter[lead >> 6] & (1 << UInt64(lead & 63)) == 0 { return nil }
        return prefixesSharingLead(of: head)
    }

    /// The hit code (field left 0) of the term of the probe at `probe`
    /// against one token given as its UTF-8 bytes and, the same, its
    /// scalars, or `miss`: a caller testing many tokens makes each one's
    /// bytes and scalars once for all its terms.
    ///
    /// The probe and the trie come by address, and are read in place: one
    /// handed over whole would be copied, each of its arrays retained and
    /// released, for every token a highlight tests.
    @inline(__always)
    static func code(
        of probe: UnsafePointer<TermProbe>, token utf8: UnsafeBufferPointer<UInt8>, scalars: UnsafeBufferPointer<UInt32>,
        trie: UnsafePointer<TokenTrie>
    ) -> UInt8 {
        let head = TokenArena.head(of: utf8)
        if let code = probe.pointee.singleCode(head: head, length: utf8.count) { return code }
        // Through the lead filter, as the scan: a term with two typos has
        // hundreds of prefixes, and every token of fifty titles tried
        // each one.
        guard let candidates = probe.pointee.candidatePrefixes(of: head) else { return miss }
        var best = miss
        for index in candidates
        where head & probe.pointee.prefixes[index].mask == probe.pointee.prefixes[index].bits
            && probe.pointee.prefixes[index].code < best
        {
            // A prefix longer than eight bytes: the head alone cannot decide.
            if !probe.pointee.prefixes[index].needsWalk || utf8.starts(withUTF8Of: probe.pointee.prefixes[index].text!) {
                best = probe.pointee.prefixes[index].code
            }
        }
        guard best != miss, probe.pointee.hasWholeNode(atDepth: scalars.count) else { return best }
        // A highlighted token of a term with typos is mostly as long as a
        // whole-word node; its node was found by a walk from the root, a
        // node a scalar, where the heads mostly tell.
        if let code = probe.pointee.improved(best, byWholeHead: head, length: utf8.count) { return code }
        guard let node = trie.pointee.node(ofScalars: scalars) else { return best }
        return probe.pointee.improved(best, byWholeNode: node)
    }

    @inline(__always)
    private func hasWholeNode(atDepth depth: Int) -> Bool {
        depth < 64 ? wholeDepthBits & (1 << UInt64(depth)) != 0 : deepWholeDepths.contains(Int32(depth))
    }

    /// `code` lowered to a whole-word hit's where the token's node is one
    /// of the term's whole-word nodes (which lie below its prefixes, so
    /// only a token that passed a prefix test needs this).
    @inline(__always)
    private func improved(_ code: UInt8, byWholeNode node: Int32) -> UInt8 {
        var code = code
        for (position, whole) in wholeNodes.enumerated() where whole == node { code = min(code, wholeCodes[position]) }
        return code
    }

    /// `code` lowered to a whole-word hit's where the token given as text
    /// (its `head` and `length` in bytes) is a whole-word node's word; nil
    /// when the probe keeps no heads (`wholeHeads`).
    @inline(__always)
    private func improved(_ code: UInt8, byWholeHead head: UInt64, length: Int) -> UInt8? {
        guard let wholeHeads else { return nil }
        var code = code
        for (position, whole) in wholeHeads.enumerated() where whole.length == length && whole.head == head {
            code = min(code, wholeCodes[position])
        }
        return code
    }

    /// The least code of the prefixes the token at `node` lies under, or
    /// `miss` (whole-word codes are added apart: `improved(_:byWholeNode:)`).
    /// Not for a probe made for text only (`testsNodes` false).
    @inline(__always)
    func prefixCode(ofNode node: Int32, trie: TokenTrie) -> UInt8 {
        if let onlyRange {
            if UInt32(bitPattern: node) &- onlyRange.low < onlyRange.width { return 4 }
            return node >= orderedLimit && trie.isAncestor(onlyRange.node, of: node) ? 4 : Self.miss
        }
        let segments = segments.unsafelyUnwrapped
        guard node < orderedLimit else { return segments.unorderedCode(ofNode: node, trie: trie) }
        return segments.code(of: UInt32(bitPattern: node))
    }

    /// The first of `slot`'s tokens with the best hit, and that hit's code.
    func bestToken(of slot: UInt32, in tokens: TokenArena, trie: TokenTrie) -> (code: UInt8, node: Int32)? {
        var best: (code: UInt8, node: Int32)?
        // Read by subscript, not in a closure that would copy the probe and the trie.
        for index in tokens.span(of: slot) {
            let word = tokens.words[index]
            let node = TokenArena.node(of: word)
            var code = prefixCode(ofNode: node, trie: trie)
            guard code != Self.miss else { continue }
            code = improved(code, byWholeNode: node) + TokenArena.field(of: word)
            if best == nil || code < best!.code { best = (code, node) }
        }
        return best
    }

    /// The cost of probing one document, relative to a one-range probe:
    /// a probe with typos also filters and searches.
    var relativeCost: Double { onlyRange != nil ? 1 : 8 }

    /// Whether any token in `span` matches the term: what counting needs
    /// once a document cannot reach the kept results (stops at the first).
    @inline(__always)
    func matchesAny(in span: Range<Int>, words: UnsafeBufferPointer<UInt32>, trie: TokenTrie) -> Bool {
        if let onlyRange {
            for index in span {
                let node = words[index] & TokenArena.nodeMask
                if node &- onlyRange.low < onlyRange.width { return true }
                if node >= orderedLimit, trie.isAncestor(onlyRange.node, of: Int32(bitPattern: node)) { return true }
            }
            return false
        }
        for index in span where prefixCode(ofNode: TokenArena.node(of: words[index]), trie: trie) != Self.miss { return true }
        return false
    }

    /// The best hit code of the term over the tokens in `span`, or `miss`.
    @inline(__always)
    func bestCode(in span: Range<Int>, words: UnsafeBufferPointer<UInt32>, trie: TokenTrie) -> UInt8 {
        if let onlyRange {
            // The common case: one prefix, no typos.
            var best = Self.miss
            for index in span {
                let word = words[index]
                let node = word & TokenArena.nodeMask
                guard node &- onlyRange.low < onlyRange.width
                    || (node >= orderedLimit && trie.isAncestor(onlyRange.node, of: Int32(bitPattern: node)))
                else { continue }
                let code = (Int32(bitPattern: node) == onlyRange.wholeNode ? 0 : 4) + TokenArena.field(of: word)
                if code < best { best = code }
            }
            return best
        }
        var best = Self.miss
        for index in span {
            let node = TokenArena.node(of: words[index])
            let tokenBest = prefixCode(ofNode: node, trie: trie)
            guard tokenBest != Self.miss else { continue }
            best = Swift.min(best, improved(tokenBest, byWholeNode: node) + TokenArena.field(of: words[index]))
        }
        return best
    }
}
