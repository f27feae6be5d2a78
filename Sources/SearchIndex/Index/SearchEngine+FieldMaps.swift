import Foundation

/// Queries whose terms are all broad, answered from per-slot maps instead of
/// probing each candidate's tokens.
///
/// "cozo r" over a million items: each term matches 40–90% of the
/// documents, so the scan would probe hundreds of thousands of token runs,
/// and gathering a broad prefix walks tens of thousands of trie nodes (a
/// cache miss or three each). Instead, the largest subtrees keep a *field
/// map*: for every document slot, the best field of its tokens under the
/// node, or none (four bits a slot: see `FieldMap` for the layout):
///
/// ```
///   slot       0   1   2   3   4   5  …
///   "l"        0   ·   3   1   ·   2  …     0 title … 3 description, · none
///   "le"       ·   ·   3   1   ·   ·  …
/// ```
///
/// A term's *code map* holds its best hit code per slot (`TermProbe`'s
/// coding): its large prefix nodes' field maps and its common whole words'
/// own field maps merged in, its small ones (each whole word's own list of
/// postings, contiguous) walked.
/// The query then makes plain passes over the slots, shared by the cores,
/// instead of a branch per document: add the terms' rule values per slot
/// (a vectorised loop), count those no term missed (the total) and find,
/// by counting passes (also vectorised), a value that `limit` matches
/// reach, and rank only the slots at or below it. Code maps
/// of the last few terms are kept (`TermMatchCache`), so "cozo" is mapped
/// once while "cozo r…" is typed; the scan reads a broad term's code per
/// candidate from its map when the driving term is narrow ("daio h"). A
/// term that its field maps cover but for a few postings ("r", "h") is
/// read from them instead, and no code map is made (`MappedTermCodes`).
/// Field maps are kept for nodes reaching at least one slot in ten,
/// built from their children's maps, cached beside the best lists and kept
/// up to date with them when a document under the node changes
/// (`SearchEngine+TopListUpkeep`). A large node whose postings nearly all
/// lie in one map below it keeps none: it is read as that map and the few
/// other postings, its residual, kept gathered (`subtreeCover`):
///
/// ```
///   "misa" ─┬ "tonve"●  own map     "misa" and "misatonve"'s subtree keep
///           │   └ "s"●              no map: each is "misatonve"'s own map
///           └ "b…"●                 plus a residual ("misatonves", "misab…")
/// ```
extension SearchEngine {
    /// "No token in this subtree" in a field map.
    static let noField: UInt8 = 0xFF

    /// Subtrees with at least this many documents keep a field map.
    ///
    /// One slot in ten: at one in sixteen, a million items kept 117 maps
    /// (58.5 MB); at one in ten, 88 (44 MB). A broad term (`isBroad`: one
    /// slot in sixteen) between the two walks its postings into its code
    /// map instead, once while it is typed (`TermMatchCache`): in runs
    /// made in turn at a million items, keystroke p50 and p99 were those
    /// of one in sixteen, within the machine's noise.
    var fieldMapMinimum: Int { max(fieldMapMinimumDocuments, documents.count / 10) }

    /// The best field of each slot's tokens in `node`'s subtree (see
    /// `FieldMap`: slots past its end have none).
    func fieldMap(ofSubtree node: Int32) -> FieldMap {
        if let cached = topLists.fieldMap(node) { return cached }
        // Made from the maps below it, not from other whole maps made for
        // the purpose (a transient map for each large child that keeps
        // none was the warm's peak, 13 MB above its end at a million items).
        let parts = partsCover(of: node)
        var map = FieldMap(count: documents.count, capacity: documents.capacity)
        map.withUnsafeMutableBytes { bytes in forEachPostingList(of: parts.walked) { Self.markBestFields($0, into: bytes) } }
        for part in parts.maps { map.formMinimum(with: part) }
        if !coverStands(for: node) { topLists.store(fieldMap: map, for: node) }
        return map
    }

    /// Postings a large subtree may leave to be walked before it keeps a
    /// field map of its own (see `keepsFieldMap`).
    ///
    /// Nested subtrees' maps were mostly the same slots: at a million
    /// items, most of the 142 kept were within 16,384 slots of one map
    /// below them (a word's prefixes down to it, a word and its few longer
    /// forms). Such a subtree is read as that map plus its few other
    /// postings (`subtreeCover`).
    var fieldMapWalkLimit: Int { fieldMapMinimum / 4 }

    /// Maps below a subtree that keeps no map may stand for it. One: a
    /// cover of several maps cost a code map a merge of each and a count
    /// a test of each per posting (a shallow prefix over a dozen large
    /// children's maps: 1–1.5 ms at a million items).
    static let coverMapLimit = 1

    /// Whether `node`'s subtree keeps a field map: it is large, and its
    /// parts (`partsCost`) are more than `coverMapLimit` maps or leave
    /// more than `fieldMapWalkLimit` postings to walk (or it has one already).
    func keepsFieldMap(ofSubtree node: Int32) -> Bool {
        topLists.fieldMap(node) != nil || (trie[node].documentCount >= fieldMapMinimum && !coverStands(for: node))
    }

    /// Whether `node` is large and its parts fit: a cover stands for its map.
    private func coverStands(for node: Int32) -> Bool {
        trie[node].documentCount >= fieldMapMinimum && coverFits(partsCost(of: node))
    }

    /// Whether a subtree's parts are few enough to stand for it.
    private func coverFits(_ cost: (maps: Int, unmapped: Int)) -> Bool {
        cost.maps <= Self.coverMapLimit && cost.unmapped <= fieldMapWalkLimit
    }

    /// The maps and postings that read `node`'s subtree through its parts
    /// (`partsCover`): its own map, or its own postings, and each child's
    /// part (a small one's postings, a large one's map, or, when its own
    /// parts fit, those). Counting stops once they do not fit.
    private func partsCost(of node: Int32) -> (maps: Int, unmapped: Int) {
        let minimum = fieldMapMinimum
        let own = trie[node].postingList.count
        var cost = own >= minimum ? (maps: 1, unmapped: 0) : (maps: 0, unmapped: own)
        for child in trie.children(of: node) where coverFits(cost) {
            let child = child.node
            if trie[child].documentCount < minimum {
                cost.unmapped += trie[child].subtreeCount
            } else if topLists.fieldMap(child) != nil {
                cost.maps += 1
            } else {
                let below = partsCost(of: child)
                if coverFits(below) {
                    cost = (cost.maps + below.maps, cost.unmapped + below.unmapped)
                } else {
                    cost.maps += 1
                }
            }
        }
        return cost
    }

    /// A large subtree read as a field map and postings: its own map if it
    /// keeps one, else the one map among its parts (`coverMapLimit`) and
    /// the postings of the other parts, its residual.
    struct SubtreeCover {
        /// The subtree's map, or the map of the one part that has one.
        var map: FieldMap
        /// The postings of the subtree's lists the map does not hold, one
        /// list after another (a slot may come more than once).
        var residual: [TokenTrie.Posting] = []
    }

    /// `node`'s subtree (at least `fieldMapMinimum` documents) as a map and
    /// postings (see `SubtreeCover`). A subtree that keeps no map keeps
    /// its residual instead, until a change under it: gathered from
    /// hundreds of small lists (each a cache miss or two), it cost a
    /// five-letter keystroke at a million items half a millisecond.
    func subtreeCover(_ node: Int32) -> SubtreeCover {
        if keepsFieldMap(ofSubtree: node) { return SubtreeCover(map: fieldMap(ofSubtree: node)) }
        let parts = partsCover(of: node)
        // Parts that fit are at most one map, and at least one: the other
        // parts hold no more than a quarter of the subtree's postings.
        precondition(parts.maps.count == 1, "a large subtree's cover is one map")
        var cover = SubtreeCover(map: parts.maps[0])
        // Gathered under another minimum (the index grew or shrank), the
        // parts may differ: gathered again.
        if let kept = topLists.residual(node, minimum: fieldMapMinimum) {
            cover.residual = kept
        } else {
            var residual: [TokenTrie.Posting] = []
            forEachPostingList(of: parts.walked) { residual.append(contentsOf: $0) }
            cover.residual = residual
            topLists.store(residual: cover.residual, minimum: fieldMapMinimum, for: node)
        }
        return cover
    }

    /// `node`'s subtree as its own postings (as a map for a word that
    /// keeps one) and each child's part: a small child's subtree walked, a
    /// large one's map, or its parts in turn when it keeps no map.
    private func partsCover(of node: Int32) -> (maps: [FieldMap], walked: [(node: Int32, ownOnly: Bool)]) {
        var maps: [FieldMap] = []
        var walked: [(node: Int32, ownOnly: Bool)] = []
        let minimum = fieldMapMinimum
        func addParts(of node: Int32) {
            let own = trie[node].postingList.count
            if own >= minimum {
                maps.append(fieldMap(ofOwnPostings: node))
            } else if own > 0 {
                walked.append((node, true))
            }
            for child in trie.children(of: node) {
                let child = child.node
                if trie[child].documentCount < minimum {
                    walked.append((child, false))
                } else if keepsFieldMap(ofSubtree: child) {
                    maps.append(fieldMap(ofSubtree: child))
                } else {
                    addParts(of: child)
                }
            }
        }
        addParts(of: node)
        return (maps, walked)
    }

    /// Calls `body` with each posting list of the walked parts of a cover:
    /// a node's own list, or every list of its subtree.
    private func forEachPostingList(
        of walked: [(node: Int32, ownOnly: Bool)], _ body: (UnsafeBufferPointer<TokenTrie.Posting>) -> Void
    ) {
        for (node, ownOnly) in walked {
            if ownOnly { trie.withPostings(of: node, body) } else { trie.forEachPostingList(under: node, body) }
        }
    }

    /// The same a byte a slot, `noField` for none (for tests and reports).
    func subtreeFieldMap(_ node: Int32) -> [UInt8] { fieldMap(ofSubtree: node).unpacked }

    /// The best field of each slot's tokens that are `node` itself (its own
    /// postings): a whole word's map. Kept for words with at least
    /// `fieldMapMinimum` postings, where marking them into a code map was
    /// most of a keystroke ("misatonve", 420,000 postings at 1M: 0.4 ms
    /// against a vector merge of its map).
    func fieldMap(ofOwnPostings node: Int32) -> FieldMap {
        if let cached = topLists.ownFieldMap(node) { return cached }
        var map = FieldMap(count: documents.count, capacity: documents.capacity)
        map.withUnsafeMutableBytes { bytes in trie.withPostings(of: node) { Self.markBestFields($0, into: bytes) } }
        topLists.store(ownFieldMap: map, for: node)
        return map
    }

    /// The same a byte a slot, `noField` for none (for tests and reports).
    func ownFieldMap(_ node: Int32) -> [UInt8] { fieldMap(ofOwnPostings: node).unpacked }

    /// Lowers each posting's slot of a field map's packed bytes (which
    /// cover every slot a posting names) to the posting's field.
    @inline(__always)
    private static func markBestFields(
        _ postings: UnsafeBufferPointer<TokenTrie.Posting>, into bytes: UnsafeMutableBufferPointer<UInt8>
    ) {
        for posting in postings { FieldMap.lower(Int(posting.doc), to: posting.field, in: bytes) }
    }

    /// A term's part of a slot's rule value (see `searchByFieldMaps`).
    @inline(__always)
    static func rulesValue(of code: UInt8) -> UInt16 {
        UInt16(code >> 3) &* 225 &+ UInt16((code >> 2) & 1) &* 25 &+ UInt16(code & 3)
    }

    /// The term's best hit code in each slot (`TermProbe` coding, or
    /// `TermProbe.miss`), and how many slots it hits.
    func termCodeMap(_ matches: TokenTrie.TermMatches) -> TermCodeMap {
        let (mapped, marked, residuals) = codeMapParts(matches)
        let slotCount = documents.count
        if marked.reduce(0, { $0 + $1.postings }) >= sharedMarkingMinimum, slotCount >= parallelScanMinimum,
            Self.workerCount > 1
        {
            var map = sharedTermCodeMap(mapped: mapped, marked: marked)
            map.codes.withUnsafeMutableBufferPointer { map.hits += Self.mark(residuals, into: $0) }
            return map
        }
        var hits = 0
        let codes = [UInt8](unsafeUninitializedCapacity: slotCount) { buffer, initialized in
            let codes = UnsafeMutableBufferPointer(rebasing: buffer[..<slotCount])
            hits = Self.merge(mapped, into: codes, sharing: slotCount >= parallelScanMinimum)
            initialized = slotCount
            hits += Self.mark(marked, of: trie, into: codes)
            hits += Self.mark(residuals, into: codes)
        }
        return TermCodeMap(codes: codes, hits: hits)
    }

    /// `TermCodeMap.merge`, each half of the slots on a core of its own
    /// when `sharing` (and there are maps to merge). "stonr" at a million
    /// items (one term with typos, its code map made for the count) spent
    /// a third of its 1.1–1.5 ms merging on one core while the other
    /// waited. A/B in one process: "stonr" 930 → 771 µs, "cozo r" 0.84 of
    /// before, "cozo l" 0.86, two-term keystrokes' mean 476 → 454 µs, no
    /// class slower.
    private static func merge(
        _ mapped: [(map: FieldMap, base: UInt8)], into codes: UnsafeMutableBufferPointer<UInt8>, sharing: Bool
    ) -> Int {
        guard sharing, !mapped.isEmpty, workerCount > 1 else { return TermCodeMap.merge(mapped, into: codes) }
        let middle = codes.count / 128 * 64
        var hits = (0, 0)
        withUnsafeMutablePointer(to: &hits) { hitsOut in
            nonisolated(unsafe) let (hitsOut, codes) = (hitsOut, codes)
            ParallelWork.both({
                hitsOut.pointee.0 = TermCodeMap.merge(mapped, into: codes, slots: 0..<middle)
            }, {
                hitsOut.pointee.1 = TermCodeMap.merge(mapped, into: codes, slots: middle..<codes.count)
            })
        }
        return hits.0 + hits.1
    }

    /// What a term's code map is made of: the field maps of its large
    /// nodes (a subtree's, or a whole word's own postings'), each with its
    /// base code; its small nodes, whose postings are marked one by one;
    /// and the large subtrees' residuals (postings their maps leave out).
    func codeMapParts(_ matches: TokenTrie.TermMatches) -> (
        mapped: [(map: FieldMap, base: UInt8)], marked: [MarkedList],
        residuals: [(postings: [TokenTrie.Posting], base: UInt8)]
    ) {
        let minimum = fieldMapMinimum
        var mapped: [(map: FieldMap, base: UInt8)] = []
        var marked: [MarkedList] = []
        var residuals: [(postings: [TokenTrie.Posting], base: UInt8)] = []
        for (node, typos) in matches.prefix {
            let base = UInt8(typos) * 8 + 4
            if trie[node].documentCount >= minimum {
                let cover = subtreeCover(node)
                mapped.append((cover.map, base))
                if !cover.residual.isEmpty { residuals.append((cover.residual, base)) }
            } else {
                marked.append(MarkedList(node: node, base: base, whole: false, postings: trie[node].subtreeCount))
            }
        }
        for (node, typos) in matches.whole {
            let base = UInt8(typos) * 8
            if trie[node].postingList.count >= minimum {
                mapped.append((fieldMap(ofOwnPostings: node), base))
            } else {
                marked.append(MarkedList(node: node, base: base, whole: true, postings: trie[node].postingList.count))
            }
        }
        return (mapped, marked, residuals)
    }

    /// A small node whose postings a code map marks one by one: a prefix
    /// node's whole subtree, or a whole word's own list.
    struct MarkedList: Sendable {
        var node: Int32
        var base: UInt8
        var whole: Bool
        /// How many postings (at most, for a subtree).
        var postings: Int
    }

    /// Marks the postings of `lists` into `codes`, keeping the least code a
    /// slot; returns how many slots were a miss before.
    private static func mark(
        _ lists: [MarkedList], of trie: TokenTrie, into codes: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var hits = 0
        for list in lists {
            let mark = { hits &+= Self.mark($0, base: list.base, into: codes) }
            if list.whole { trie.withPostings(of: list.node, mark) } else { trie.forEachPostingList(under: list.node, mark) }
        }
        return hits
    }

    /// Marks `postings` into `codes` with `base`, keeping the least code a
    /// slot; returns how many slots were a miss before.
    @inline(__always)
    private static func mark(
        _ postings: UnsafeBufferPointer<TokenTrie.Posting>, base: UInt8, into codes: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var hits = 0
        for posting in postings {
            let code = base &+ posting.field
            let seen = codes[Int(posting.doc)]
            hits &+= seen == TermProbe.miss ? 1 : 0
            codes[Int(posting.doc)] = code < seen ? code : seen
        }
        return hits
    }

    /// Marks subtrees' residual postings (`SubtreeCover`) into `codes`,
    /// as `mark(_:of:into:)` marks lists.
    private static func mark(
        _ residuals: [(postings: [TokenTrie.Posting], base: UInt8)], into codes: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var hits = 0
        for (postings, base) in residuals {
            hits &+= postings.withUnsafeBufferPointer { mark($0, base: base, into: codes) }
        }
        return hits
    }

    /// `termCodeMap` with its small nodes' postings marked by two cores at
    /// once: their lists dealt into two shares of about equal postings, one
    /// core marking into the map (its large nodes merged first), the other
    /// into a map of its own, then the two merged, least code in each slot,
    /// and their hits counted. A typo term's small nodes are thousands of
    /// lists and up to 175,000 postings at a million items ("ham fordma"),
    /// each a random write: 0.4–0.6 ms on one core. (Both cores walking
    /// every list, each writing only its half of the slots, was slower.)
    private func sharedTermCodeMap(mapped: [(map: FieldMap, base: UInt8)], marked: [MarkedList]) -> TermCodeMap {
        var shares: [[MarkedList]] = [[], []]
        var loads = [0, 0]
        for list in marked.sorted(by: { $0.postings > $1.postings }) {
            let share = loads[0] <= loads[1] ? 0 : 1
            shares[share].append(list)
            loads[share] += list.postings
        }
        let slotCount = documents.count
        var other = [UInt8](unsafeUninitializedCapacity: slotCount) { _, initialized in initialized = slotCount }
        var hits = 0
        let codes = [UInt8](unsafeUninitializedCapacity: slotCount) { buffer, initialized in
            let codes = UnsafeMutableBufferPointer(rebasing: buffer[..<slotCount])
            other.withUnsafeMutableBufferPointer { other in
                nonisolated(unsafe) let targets = [codes, other]
                let maps = mapped
                let trie = self.trie
                let shares = shares
                // Hits are counted once the two maps are merged.
                ParallelWork.both({
                    _ = TermCodeMap.merge(maps, into: targets[0])
                    _ = Self.mark(shares[0], of: trie, into: targets[0])
                }, {
                    targets[1].initialize(repeating: TermProbe.miss)
                    _ = Self.mark(shares[1], of: trie, into: targets[1])
                })
                hits = TermCodeMap.mergeLeast(UnsafeBufferPointer(other), into: codes)
            }
            initialized = slotCount
        }
        return TermCodeMap(codes: codes, hits: hits)
    }

    /// The slots of `part` whose value is at most `bound`, in order. Read
    /// 64 at a time, each block's least value found by a vectorised loop,
    /// so a block without one costs no branch a slot: a branch a slot over the
    /// million was most of the last pass of "ham fordma", whose 58
    /// candidates lie far apart.
    @inline(never)
    static func slots<V: RuleSum>(in part: Range<Int>, of values: UnsafeBufferPointer<V>, atMost bound: V) -> [Int32] {
        var found: [Int32] = []
        guard let base = values.baseAddress else { return found }
        let blockSize = 64
        var start = part.lowerBound
        let blocksEnd = part.lowerBound + part.count / blockSize * blockSize
        while start < blocksEnd {
            // A minimum over a fixed count is what the compiler vectorises
            // (a count over a ranged loop stayed a branch a value).
            var least = V.max
            var offset = 0
            while offset < blockSize {
                let value = base[start &+ offset]
                least = value < least ? value : least
                offset &+= 1
            }
            if least <= bound {
                // The block's slots at or below as the bits of a mask, made
                // by vector compares: a branch a slot, taken at random,
                // was most of "cozo l", whose 26,000 results at its bound
                // lie in every other block.
                let block = UnsafeRawPointer(base + start)
                let stride = MemoryLayout<SIMD16<V>>.size
                var mask = Self.lanesAtMost(bound, block)
                mask |= Self.lanesAtMost(bound, block + stride) << 16
                mask |= Self.lanesAtMost(bound, block + 2 * stride) << 32
                mask |= Self.lanesAtMost(bound, block + 3 * stride) << 48
                while mask != 0 {
                    found.append(Int32(start + mask.trailingZeroBitCount))
                    mask &= mask &- 1
                }
            }
            start &+= blockSize
        }
        for index in blocksEnd..<part.upperBound where base[index] <= bound { found.append(Int32(index)) }
        return found
    }

    /// Bit `i` set when the `i`th of the sixteen values at `values` is at
    /// most `bound`. In plain lane arithmetic, which the compiler keeps in
    /// vector registers (a select by a comparison's mask went lane by
    /// lane through the stack): widened, `value - (bound + 1)` wraps to
    /// its top bit exactly when `value <= bound`.
    @inline(__always)
    private static func lanesAtMost<V: RuleSum>(_ bound: V, _ values: UnsafeRawPointer) -> UInt64 {
        let lanes = SIMD16<UInt32>(truncatingIfNeeded: values.loadUnaligned(as: SIMD16<V>.self))
        let atMost = (lanes &- SIMD16(repeating: UInt32(bound) &+ 1)) &>> 31
        let shifts = SIMD16<UInt32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        return UInt64((atMost &<< shifts).wrappedSum())
    }

    /// How many of `values` are at most `bound`, the least of them all, and
    /// the least above `bound` (`.max` if none). Counted in blocks short
    /// enough for a count as wide as the values, which the compiler turns
    /// into vector code: a pass over a million values takes a twentieth
    /// of a millisecond.
    static func countAtMost<V: RuleSum>(
        _ bound: V, in values: UnsafeBufferPointer<V>
    ) -> (count: Int, least: V, leastAbove: V) {
        V.countAtMost(bound, in: values)
    }

    /// Slots a block of `blockLeasts` covers.
    static let leastBlockSize = 64

    /// The least of each `leastBlockSize` values (the last block may be
    /// short), the blocks shared between `workers`.
    static func blockLeasts<V: RuleSum>(of values: UnsafeBufferPointer<V>, workers: Int) -> [V] {
        let size = leastBlockSize
        let blockCount = (values.count + size - 1) / size
        return [V](unsafeUninitializedCapacity: blockCount) { buffer, initialized in
            nonisolated(unsafe) let leasts = buffer
            _ = inParts(of: blockCount, workers: workers) { blocks in
                for block in blocks {
                    let start = block * size
                    var least = V.max
                    if start + size <= values.count {
                        // A fixed count: the form the compiler vectorises.
                        var offset = 0
                        while offset < size {
                            let value = values[start &+ offset]
                            least = value < least ? value : least
                            offset &+= 1
                        }
                    } else {
                        for index in start..<values.count { least = min(least, values[index]) }
                    }
                    leasts[block] = least
                }
            }
            initialized = blockCount
        }
    }

    /// How many of `values` are at most `bound`, and the least above it
    /// (`.max` if none), reading only the blocks whose least value
    /// (`blockLeasts`) is at most `bound`: a block whose least is above
    /// it holds no value at most `bound`, and its least is its least
    /// above.
    static func countAtMost<V: RuleSum>(
        _ bound: V, in values: UnsafeBufferPointer<V>, blockLeasts: UnsafeBufferPointer<V>
    ) -> (count: Int, leastAbove: V) {
        var leastAbove = countAtMost(bound, in: blockLeasts).leastAbove
        var count = 0
        for block in slots(in: 0..<blockLeasts.count, of: blockLeasts, atMost: bound) {
            let start = Int(block) * leastBlockSize
            for index in start..<min(values.count, start + leastBlockSize) {
                let value = values[index]
                if value <= bound { count += 1 } else { leastAbove = min(leastAbove, value) }
            }
        }
        return (count, leastAbove)
    }

    /// Whether a term reaches one slot in sixteen (roughly: nested typo
    /// nodes count twice) in an index large enough for code maps: probing
    /// its token runs would cost more than reading its code map.
    func isBroad(_ matches: TokenTrie.TermMatches) -> Bool {
        guard documents.count >= fieldMapQueryMinimumSlots,
            matches.prefix.values.allSatisfy({ $0 <= 3 }), matches.whole.values.allSatisfy({ $0 <= 3 })
        else { return false }
        let reach = matches.prefix.keys.reduce(0) { $0 + trie[$1].documentCount }
            + matches.whole.keys.reduce(0) { $0 + trie[$1].postingList.count }
        return reach * 16 >= documents.count
    }

    /// Answers a query of several broad terms from code maps, or nil when a
    /// term is narrow enough for the scan to be cheaper (it then probes only
    /// that term's documents).
    func searchByFieldMaps(terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery) -> SearchResponse? {
        let slotCount = documents.count
        guard scanEnabled, terms.count >= 2, terms.count <= 8, query.domains.isEmpty,
            slotCount > 0, slotCount >= fieldMapQueryMinimumSlots
        else { return nil }
        guard matches.allSatisfy({ isBroad($0) }) else { return nil }

        let termCodes = terms.indices.map { self.termCodes(of: terms[$0], matches: matches[$0]) }
        let now = query.now.timeIntervalSinceReferenceDate
        let limit = max(0, query.limit)
        // Two terms' sums fit a byte (`RuleSum`): half the bytes to pass
        // over, twice the slots to a vector operation.
        let kept = terms.count == 2
            ? keptCandidates(UInt8.self, termCodes: termCodes, now: now, limit: limit)
            : keptCandidates(UInt16.self, termCodes: termCodes, now: now, limit: limit)
        let probes = matches.compactMap { TermProbe(matches: $0, trie: trie) }
        return response(
            from: kept, terms: terms, matches: matches, probes: probes.count == terms.count ? probes : nil, query: query)
    }

    /// A term's codes as a pass over the slots reads them.
    enum TermCodes {
        /// Its code map.
        case map([UInt8])
        /// Its field maps, read a run of slots at a time.
        case mapped(MappedTermCodes)
    }

    /// How a pass reads `term`'s codes: a code map a keystroke made is
    /// read; a term that its field maps alone cover is read from them
    /// (`mappedTermCodes`); any other term's code map is made, and kept
    /// for the next keystrokes.
    func termCodes(of term: String, matches: TokenTrie.TermMatches) -> TermCodes {
        if let known = termMatches.knownCodeMap(for: term) { return .map(known.codes) }
        if let mapped = mappedTermCodes(matches) { return .mapped(mapped) }
        return .map(termMatches.codeMap(for: term) { termCodeMap(matches) }.codes)
    }

    /// The term's field maps, when they hold nearly every hit it has:
    /// each large node it reaches is read from one map (its subtree's,
    /// or its own postings' for a whole word), at most
    /// `MappedTermCodes.mapLimit` of them, and the postings beside them
    /// (small nodes, covers' residuals) are at most
    /// `MappedTermCodes.extraLimit`. Nil for any other term, whose code
    /// map has postings to mark.
    func mappedTermCodes(_ matches: TokenTrie.TermMatches) -> MappedTermCodes? {
        let parts = codeMapParts(matches)
        guard !parts.mapped.isEmpty, parts.mapped.count <= MappedTermCodes.mapLimit else { return nil }
        var extras: [(slot: Int, code: UInt8)] = []
        func addExtras(_ postings: UnsafeBufferPointer<TokenTrie.Posting>, base: UInt8) -> Bool {
            guard extras.count + postings.count <= MappedTermCodes.extraLimit else { return false }
            for posting in postings { extras.append((Int(posting.doc), base + posting.field)) }
            return true
        }
        for residual in parts.residuals {
            guard residual.postings.withUnsafeBufferPointer({ addExtras($0, base: residual.base) }) else { return nil }
        }
        for list in parts.marked {
            // A subtree's count bounds its postings: none is walked past the limit.
            guard list.postings <= MappedTermCodes.extraLimit - extras.count else { return nil }
            var fits = true
            if list.whole {
                fits = trie.withPostings(of: list.node) { addExtras($0, base: list.base) }
            } else {
                trie.forEachPostingList(under: list.node) { fits = fits && addExtras($0, base: list.base) }
            }
            guard fits else { return nil }
        }
        return MappedTermCodes(maps: parts.mapped, postings: extras)
    }

    /// The best `limit` slots without views of a query whose terms' codes
    /// are `termCodes`, those with views among them, and the count of
    /// matches: each slot's rule values summed as `V` (`RuleSum`).
    // Specialised for both widths: the closures below were left generic,
    // every slot's sum a call through the protocol (three times slower).
    @_specialize(where V == UInt8)
    @_specialize(where V == UInt16)
    private func keptCandidates<V: RuleSum>(
        _: V.Type, termCodes: [TermCodes], now: Double, limit: Int
    ) -> KeptCandidates {
        let slotCount = documents.count
        // Each slot's rule values as one number that orders as they do
        // (`RuleSum`). Left uninitialised: the first term's pass writes
        // every slot (the zeroing was a pass of its own, a twentieth of a
        // broad query).
        var rules = [V](unsafeUninitializedCapacity: slotCount) { _, initialized in initialized = slotCount }
        let missed = V.missed
        let workers = slotCount >= parallelScanMinimum ? Self.workerCount : 1
        /// Runs `body` on every part of the slots, in parallel, each with its own result.
        func eachPart<R>(_ body: (Range<Int>) -> R) -> [R] { Self.inParts(of: slotCount, workers: workers, body) }
        let documentsView = documents
        var kept = KeptCandidates(limit: limit)
        let chunkSize = max(1, rulesChunkSize)
        rules.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let rules = buffer
            // The code maps' bytes, held by `termCodes` until the query is done.
            let mapBases = termCodes.map { codes -> UnsafePointer<UInt8>? in
                guard case .map(let map) = codes else { return nil }
                return map.withUnsafeBufferPointer { $0.baseAddress }
            }
            // A chunk at a time, term by term, each a plain loop over bytes
            // (vectorised); then the chunk's total, its least value and how
            // many have it, read while the chunk is in the first cache.
            // (Each term over a whole part, then a count, went through the
            // megabytes of sums three times: 0.2 ms of "tinra berma".)
            let firsts = termCodes.withUnsafeBufferPointer { termCodes in
                eachPart { part -> (total: Int, least: V, atLeast: Int) in
                    // A mapped term's codes for one chunk.
                    let run = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
                    defer { run.deallocate() }
                    var total = 0, least = V.max, atLeast = 0
                    var chunkStart = part.lowerBound
                    while chunkStart < part.upperBound {
                        let chunk = chunkStart..<min(part.upperBound, chunkStart + chunkSize)
                        let target = rules.baseAddress! + chunk.lowerBound
                        for index in termCodes.indices {
                            // `codes[0]` is the chunk's first slot's.
                            let codes: UnsafePointer<UInt8>
                            switch termCodes[index] {
                            case .map:
                                // A code map has a byte for every slot, and there are some.
                                codes = mapBases[index]! + chunk.lowerBound
                            case .mapped(let mapped):
                                mapped.fill(chunk, into: run)
                                codes = UnsafePointer(run.baseAddress!)
                            }
                            if index == 0 {
                                for offset in 0..<chunk.count { target[offset] = V.part(ofCode: codes[offset]) }
                            } else {
                                for offset in 0..<chunk.count { target[offset] = V.adding(V.part(ofCode: codes[offset]), to: target[offset]) }
                            }
                        }
                        let sums = UnsafeBufferPointer(rebasing: rules[chunk])
                        let counted = Self.countAtMost(missed - 1, in: sums)
                        total += counted.count
                        if counted.least <= least, counted.least < missed {
                            let count = Self.countAtMost(counted.least, in: sums).count
                            atLeast = counted.least == least ? atLeast + count : count
                            least = counted.least
                        }
                        chunkStart = chunk.upperBound
                    }
                    return (total, least, atLeast)
                }
            }
            kept.total = firsts.reduce(0) { $0 + $1.total }
            // The least value and how many slots have it, unless an expired
            // slot was one of them and the last.
            var leastCount: (least: V, count: Int)? = firsts.reduce(nil) { known, part in
                guard part.least < missed else { return known }
                guard let known, known.least <= part.least else { return (part.least, part.atLeast) }
                return known.least == part.least ? (known.least, known.count + part.atLeast) : known
            }
            for slot in expiringDocuments where expirations[Int(slot)] <= now {
                if rules[Int(slot)] < missed { kept.total -= 1 }
                if let known = leastCount, rules[Int(slot)] == known.least {
                    leastCount = known.count > 1 ? (known.least, known.count - 1) : nil
                }
                rules[Int(slot)] = .max
            }
            guard limit > 0 else { return }
            // A `bound` that at least `limit` matches reach (or every match):
            // nothing above it can be among the results. The least value
            // first (a pass over every slot, counted eight at a time); when
            // fewer than `limit` have it, the next values, one by one up
            // to `exactRounds`, then in growing steps: a bound above the
            // tightest only makes the last pass offer more slots, each
            // turned away by its rules. (A histogram of the values, one
            // increment a slot, was half of "ham fordma".) Those rounds
            // read the least value of each block of slots first and only
            // the blocks at or below the bound: fewer than `limit` of
            // them, where a pass over every slot each round was a
            // millisecond of "midali ae" (twelve rounds).
            let exactRounds = 32
            var bound: V
            var reached: Int
            var next: V
            if let known = leastCount, known.count >= limit {
                // As many as wanted share the least value ("cozo l": 26,000):
                // no pass over the sums to count them.
                (bound, reached, next) = (known.least, known.count, missed)
            } else {
                bound = firsts.map(\.least).min() ?? .max
                guard bound < missed else { return }
                let counts = eachPart { [bound] part in
                    Self.countAtMost(bound, in: UnsafeBufferPointer(rebasing: rules[part]))
                }
                reached = counts.reduce(0) { $0 + $1.count }
                next = counts.map(\.leastAbove).min() ?? .max
            }
            if reached < limit, next < missed {
                let blockLeasts = Self.blockLeasts(of: UnsafeBufferPointer(rules), workers: workers)
                var step = 1
                var round = 0
                while true {
                    round += 1
                    if round <= exactRounds {
                        bound = next
                    } else {
                        step = step < 0x4000 ? step * 2 : step
                        bound = V(min(max(Int(next), Int(bound) + step), Int(missed) - 1))
                    }
                    let counted = blockLeasts.withUnsafeBufferPointer {
                        Self.countAtMost(bound, in: UnsafeBufferPointer(rules), blockLeasts: $0)
                    }
                    reached = counted.count
                    next = counted.leastAbove
                    guard reached < limit, next < missed else { break }
                }
            }
            guard reached > 0 else { return }
            ranks.withUnsafeBufferPointer { ranks in
            rankTiers.withUnsafeBufferPointer { tiers in
            engagedSlots.withUnsafeBufferPointer { engagedSlots in
                let precedes = Self.packedOrder(ranks: ranks, documents: documentsView)
                let collected = eachPart { [bound] part -> KeptCandidates in
                    var kept = KeptCandidates(limit: limit)
                    for slot in Self.slots(in: part, of: UnsafeBufferPointer(rules), atMost: bound).lazy.map(Int.init) {
                        let ruleBits = V.ruleBits(of: rules[slot])
                        if engagedSlots[slot] {
                            let rank = ranks[slot]
                            kept.engaged.append(PackedCandidate(
                                key: ruleBits | rank.keyBits, doc: UInt32(slot)))
                            continue
                        }
                        // A broad query has hundreds of thousands of matches at
                        // its bound ("cozo l"): most are turned away by their
                        // tier, without their rank (whose loads were two
                        // thirds of this pass).
                        if kept.isFull,
                            Self.isBeaten(ruleBits: ruleBits, slot: slot, worst: kept.heap[0], tiers: tiers, ranks: ranks)
                        {
                            continue
                        }
                        let rank = ranks[slot]
                        kept.offer(PackedCandidate(
                            key: ruleBits | rank.keyBits, doc: UInt32(slot)),
                            precedes: precedes)
                    }
                    return kept
                }
                // Parts kept no totals (counted above): only their best are merged.
                for part in collected { kept.absorb(part, precedes: precedes) }
            }}}
        }
        return kept
    }
}
