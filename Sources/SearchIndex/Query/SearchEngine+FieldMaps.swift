import Foundation
import SearchSupport

/// Queries whose terms are all broad ("cozo r" over a large index), answered
/// from per-slot maps instead of probing each candidate's tokens: each
/// would match most documents, and gathering a broad prefix walks much of
/// the trie. The largest subtrees keep a *field map*, the best field of
/// their tokens for every slot (`FieldMap` has the layout):
///
/// ```
///   slot       0   1   2   3   4   5  …
///   "l"        0   ·   3   1   ·   2  …     0 title … 3 description, · none
///   "le"       ·   ·   3   1   ·   ·  …
/// ```
///
/// A term's *code map* (`TermCodeMap`) holds its best hit code per slot,
/// merged from its large nodes' field maps and its small ones' postings; a
/// term its maps cover but for a few postings is read from them instead.
/// The query sums the terms' rule values slot by slot in one vectorised
/// pass shared by the cores, counts the slots no term missed, and keeps
/// each 64-slot block's least sum: the `limit`th least bounds the page, and
/// only blocks at or below it are read again (`keptCandidates`). The last
/// few terms' code maps are kept (`TermMatchCache`) while a query is typed.
/// Field maps are kept, beside the best lists, for nodes reaching one slot
/// in ten, and kept up to date as documents change (`+TopListUpkeep`). A
/// large node whose postings nearly all lie in one map below it keeps none,
/// read as that map plus a residual (`subtreeCover`):
///
/// ```
///   "misa" ─┬ "tonve"●  own map     "misa" and "misatonve"'s subtree keep
///           │   └ "s"●              no map: each is "misatonve"'s own map
///           └ "b…"●                 plus a residual ("misatonves", "misab…")
/// ```
extension SearchEngine {
    /// "No token in this subtree" in a field map.
    static let noField: UInt8 = 0xFF

    /// Subtrees with at least this many documents (one slot in ten) keep a
    /// field map: a term between this and `isBroad` marks its postings into its
    /// code map instead, once while it is typed (`TermMatchCache`).
    var fieldMapMinimum: Int { max(tuning.fieldMapMinimumDocuments, documents.count / 10) }

    /// The best field of each slot's tokens in `node`'s subtree (see
    /// `FieldMap`: slots past its end have none).
    func fieldMap(ofSubtree node: Int32) -> FieldMap {
        if let cached = topLists.fieldMap(node) { return cached }
        // Made from the maps below it, not from a transient map made for
        // each large child that keeps none (the warm's peak memory).
        let parts = partsCover(of: node)
        var map = FieldMap(count: documents.count, capacity: documents.capacity)
        map.withUnsafeMutableBytes { bytes in forEachPostingList(of: parts.walked) { Self.markBestFields($0, into: bytes) } }
        for part in parts.maps { map.formMinimum(with: part) }
        if !coverStands(for: node) { topLists.store(fieldMap: map, for: node) }
        return map
    }

    /// Postings a large subtree may leave to be walked before it keeps a field
    /// map of its own (`keepsFieldMap`): nested subtrees' maps are mostly the
    /// same slots, so one is read as the map below it plus a few postings.
    var fieldMapWalkLimit: Int { fieldMapMinimum / 4 }

    /// Whether `node`'s subtree keeps a field map: it is large, and its
    /// parts (`partsCost`) are more than `EngineTuning.coverMapLimit` maps or leave
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
        cost.maps <= EngineTuning.coverMapLimit && cost.unmapped <= fieldMapWalkLimit
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
    /// keeps one, else the one map among its parts (`EngineTuning.coverMapLimit`) and
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
    /// its residual instead, until a change under it: it is gathered from
    /// hundreds of small lists, each a cache miss or two.
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

    /// The best field of each slot's tokens that are `node` itself (its own
    /// postings): a whole word's map, kept for words with at least
    /// `fieldMapMinimum` postings, merged in one vector pass, not marked.
    func fieldMap(ofOwnPostings node: Int32) -> FieldMap {
        if let cached = topLists.ownFieldMap(node) { return cached }
        var map = FieldMap(count: documents.count, capacity: documents.capacity)
        map.withUnsafeMutableBytes { bytes in trie.withPostings(of: node) { Self.markBestFields($0, into: bytes) } }
        topLists.store(ownFieldMap: map, for: node)
        return map
    }

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
        if marked.reduce(0, { $0 + $1.postings }) >= tuning.sharedMarkingMinimum, slotCount >= tuning.parallelScanMinimum,
            Self.workerCount > 1
        {
            var (codes, hits) = sharedTermCodes(mapped: mapped, marked: marked)
            codes.withUnsafeMutableBufferPointer { hits += Self.mark(residuals, into: $0) }
            return .made(codes: codes, hits: hits)
        }
        var hits = 0
        let codes = [UInt8](unsafeUninitializedCapacity: slotCount) { buffer, initialized in
            let codes = UnsafeMutableBufferPointer(rebasing: buffer[..<slotCount])
            hits = Self.merge(mapped, into: codes, sharing: slotCount >= tuning.parallelScanMinimum)
            initialized = slotCount
            hits += Self.mark(marked, of: trie, into: codes)
            hits += Self.mark(residuals, into: codes)
        }
        return .made(codes: codes, hits: hits)
    }

    /// `TermCodeMap.merge`, each half of the slots on a core of its own when
    /// `sharing` (a typo term's code map is mostly merging).
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

    /// `termCodeMap` with its small nodes' postings (a typo term's can be
    /// thousands of lists) marked by two cores at once: one into the map, the
    /// other into a borrowed one (`SlotScratch`: all `miss`, nothing to clear),
    /// then the two merged and counted, half the slots a core, the borrowed
    /// map put back clean as it is read.
    private func sharedTermCodes(mapped: [(map: FieldMap, base: UInt8)], marked: [MarkedList]) -> (codes: [UInt8], hits: Int) {
        var shares: [[MarkedList]] = [[], []]
        var loads = [0, 0]
        for list in marked.sorted(by: { $0.postings > $1.postings }) {
            let share = loads[0] <= loads[1] ? 0 : 1
            shares[share].append(list)
            loads[share] += list.postings
        }
        let slotCount = documents.count
        var hits = 0
        let codes = [UInt8](unsafeUninitializedCapacity: slotCount) { buffer, initialized in
            let codes = UnsafeMutableBufferPointer(rebasing: buffer[..<slotCount])
            Self.slotScratch.withMaps(slots: slotCount) { scratch, _ in
                let other = UnsafeMutableBufferPointer(rebasing: scratch[..<slotCount])
                nonisolated(unsafe) let targets = [codes, other]
                let maps = mapped
                let trie = self.trie
                let shares = shares
                // Hits are counted once the two maps are merged.
                ParallelWork.both({
                    _ = TermCodeMap.merge(maps, into: targets[0])
                    _ = Self.mark(shares[0], of: trie, into: targets[0])
                }, {
                    _ = Self.mark(shares[1], of: trie, into: targets[1])
                })
                hits = Self.inParts(of: slotCount, workers: Self.workerCount, alignedTo: 64) { part in
                    TermCodeMap.takeLeast(from: targets[1], into: targets[0], slots: part)
                }.reduce(0, +)
            }
            initialized = slotCount
        }
        return (codes, hits)
    }

    /// What the passes over every slot read and bound: rule sums
    /// (`RuleSum`), and those sums with the slots' rank tiers below them.
    typealias SlotValue = FixedWidthInteger & UnsignedInteger & SIMDScalar

    /// The slots of `part` whose value is at most `bound` (every value, and
    /// `bound`, below 2³¹), in order. Read 64 at a time, each block's least
    /// value found by a vectorised loop, so a block without one costs no
    /// branch a slot (few candidates lie far apart).
    @inline(never)
    static func slots<V: SlotValue>(in part: Range<Int>, of values: UnsafeBufferPointer<V>, atMost bound: V) -> [Int32] {
        var found: [Int32] = []
        guard let base = values.baseAddress else { return found }
        let blockSize = leastBlockSize
        var start = part.lowerBound
        let blocksEnd = part.lowerBound + part.count / blockSize * blockSize
        while start < blocksEnd {
            if least(ofBlockAt: base + start) <= bound {
                // The block's slots at or below as the bits of a mask, made
                // by vector compares, not a branch a slot taken at random.
                var mask = Self.maskOfBlock(at: base + start, atMost: bound)
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

    /// The least of the 64 values at `values`: a minimum over a fixed
    /// count, the form the compiler vectorises (a count over a ranged loop
    /// stayed a branch a value).
    @inline(__always)
    private static func least<V: SlotValue>(ofBlockAt values: UnsafePointer<V>) -> V {
        var least = V.max
        var offset = 0
        while offset < 64 {
            let value = values[offset]
            least = value < least ? value : least
            offset &+= 1
        }
        return least
    }

    /// Bit `i` set when the `i`th of the 64 values at `values` is at most
    /// `bound`, by vector compares.
    @inline(__always)
    private static func maskOfBlock<V: SlotValue>(at values: UnsafePointer<V>, atMost bound: V) -> UInt64 {
        let block = UnsafeRawPointer(values)
        let stride = MemoryLayout<SIMD16<V>>.size
        return lanesAtMost(bound, block) | lanesAtMost(bound, block + stride) << 16
            | lanesAtMost(bound, block + 2 * stride) << 32 | lanesAtMost(bound, block + 3 * stride) << 48
    }

    /// Bit `i` set when the `i`th of the sixteen values at `values` is at
    /// most `bound`. In plain lane arithmetic, which the compiler keeps in
    /// vector registers: widened, `value - (bound + 1)` wraps to its top
    /// bit exactly when `value <= bound`.
    @inline(__always)
    private static func lanesAtMost<V: SlotValue>(_ bound: V, _ values: UnsafeRawPointer) -> UInt64 {
        let lanes = SIMD16<UInt32>(truncatingIfNeeded: values.loadUnaligned(as: SIMD16<V>.self))
        let atMost = (lanes &- SIMD16(repeating: UInt32(bound) &+ 1)) &>> 31
        let shifts = SIMD16<UInt32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        return UInt64((atMost &<< shifts).wrappedSum())
    }

    /// How many of `values` are at most `bound`, the least of them all, and
    /// the least above `bound` (`.max` if none). Counted in blocks short
    /// enough for a count as wide as the values, which the compiler turns
    /// into vector code.
    static func countAtMost<V: RuleSum>(
        _ bound: V, in values: UnsafeBufferPointer<V>
    ) -> (count: Int, least: V, leastAbove: V) {
        V.countAtMost(bound, in: values)
    }

    /// Slots a block of block leasts covers (the 64 bits of a block's mask).
    static let leastBlockSize = 64

    /// Writes the least of each block of `leastBlockSize` values of
    /// `blocks` (the last block of `values` may be short) into `leasts`,
    /// a value a block.
    static func writeBlockLeasts<V: SlotValue>(
        of values: UnsafeBufferPointer<V>, blocks: Range<Int>, into leasts: UnsafeMutableBufferPointer<V>
    ) {
        let size = leastBlockSize
        for block in blocks {
            let start = block * size
            if start + size <= values.count {
                leasts[block] = least(ofBlockAt: values.baseAddress! + start)
            } else {
                leasts[block] = values[start...].min() ?? V.max
            }
        }
    }

    /// A bound that at least `limit` of the values whose block leasts are
    /// `blockLeasts` reach, below `missed`: the `limit`th least of the
    /// blocks' leasts (each block at or below it holds a value at or
    /// below it), or `missed - 1` when fewer blocks hold a value below
    /// `missed`. Nothing above it can be among the `limit` least, and
    /// the values at or below it lie in about `limit` blocks.
    static func bound<V: SlotValue>(reachedBy limit: Int, blockLeasts: UnsafeBufferPointer<V>, missed: V) -> V {
        guard limit > 0 else { return missed - 1 }
        if V.bitWidth == 8 { return byteBound(reachedBy: limit, blockLeasts: blockLeasts, missed: missed) }
        // The `limit` least so far, the greatest on top: most blocks are
        // turned away by one compare with it.
        var heap: [V] = []
        heap.reserveCapacity(limit)
        for least in blockLeasts where least < missed {
            if heap.count < limit {
                heap.append(least)
                var child = heap.count - 1
                while child > 0, heap[(child - 1) / 2] < heap[child] {
                    heap.swapAt(child, (child - 1) / 2)
                    child = (child - 1) / 2
                }
            } else if least < heap[0] {
                heap[0] = least
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var greatest = parent
                    if left < heap.count, heap[greatest] < heap[left] { greatest = left }
                    if right < heap.count, heap[greatest] < heap[right] { greatest = right }
                    if greatest == parent { break }
                    heap.swapAt(parent, greatest)
                    parent = greatest
                }
            }
        }
        return heap.count == limit ? heap[0] : missed - 1
    }

    /// `bound(reachedBy:blockLeasts:missed:)` for byte values (two terms'
    /// sums): counted by value and added up from the least, not a heap. Four
    /// tables in turn: blocks mostly share one least, and one table's counts
    /// would be a chain of stores and loads.
    private static func byteBound<V: SlotValue>(reachedBy limit: Int, blockLeasts: UnsafeBufferPointer<V>, missed: V) -> V {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * 256) { counts in
            counts.initialize(repeating: 0)
            var index = 0
            let fours = blockLeasts.count / 4 * 4
            while index < fours {
                counts[Int(blockLeasts[index])] &+= 1
                counts[256 &+ Int(blockLeasts[index &+ 1])] &+= 1
                counts[512 &+ Int(blockLeasts[index &+ 2])] &+= 1
                counts[768 &+ Int(blockLeasts[index &+ 3])] &+= 1
                index &+= 4
            }
            while index < blockLeasts.count {
                counts[Int(blockLeasts[index])] &+= 1
                index &+= 1
            }
            var reached = 0
            for value in 0..<Int(missed) {
                reached += Int(counts[value] + counts[256 + value] + counts[512 + value] + counts[768 + value])
                if reached >= limit { return V(truncatingIfNeeded: value) }
            }
            return missed - 1
        }
    }

    /// Whether a term reaches one slot in sixteen (roughly: nested typo
    /// nodes count twice) in an index large enough for code maps: probing
    /// its token runs would cost more than reading its code map.
    func isBroad(_ matches: TokenTrie.TermMatches) -> Bool {
        reach(of: matches).map(isBroad(reach:)) ?? false
    }

    private func isBroad(reach: Int) -> Bool { reach * 16 >= documents.count }

    /// The slots a term reaches (roughly: nested typo nodes count twice),
    /// or nil when the index is too small for code maps or the term has
    /// more typos than a code can hold.
    private func reach(of matches: TokenTrie.TermMatches) -> Int? {
        guard documents.count >= tuning.fieldMapQueryMinimumSlots,
            matches.prefix.values.allSatisfy({ $0 <= 3 }), matches.whole.values.allSatisfy({ $0 <= 3 })
        else { return nil }
        return matches.prefix.keys.reduce(0) { $0 + trie[$1].documentCount }
            + matches.whole.keys.reduce(0) { $0 + trie[$1].postingList.count }
    }

    /// Whether a term is read from a code map in `searchByFieldMaps` (see
    /// `EngineTuning.fieldMapQueryShare`).
    private func answersFromCodeMaps(_ matches: TokenTrie.TermMatches) -> Bool {
        guard let reach = reach(of: matches) else { return false }
        let (slots, share) = (documents.count, EngineTuning.fieldMapQueryShare)
        return isBroad(reach: reach) || (reach * share >= slots && matches.estimatedPostings(in: trie) * share >= slots)
    }

    /// Whether `searchByFieldMaps` answers: two to eight terms, no filter,
    /// a large index, and every term broad enough that the scan would be
    /// dearer (it probes only the narrowest term's documents): see
    /// `EngineTuning.fieldMapQueryShare`.
    func fieldMapsMayAnswer(terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery) -> Bool {
        let slotCount = documents.count
        guard tuning.scanEnabled, terms.count >= 2, terms.count <= 8, !query.restricts,
            slotCount > 0, slotCount >= tuning.fieldMapQueryMinimumSlots
        else { return false }
        return matches.allSatisfy { answersFromCodeMaps($0) }
    }

    /// Answers a query of several broad terms from code maps; the caller
    /// has planned it (`fieldMapsMayAnswer`).
    func searchByFieldMaps(terms: [String], matches: [TokenTrie.TermMatches], query: SearchQuery) -> SearchResponse? {
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

    /// How a pass reads `term`'s codes: a code map a keystroke made is
    /// read; a term that its field maps alone cover is read from them
    /// (`mappedTermCodes`); any other term's code map is made, and kept
    /// for the next keystrokes.
    func termCodes(of term: String, matches: TokenTrie.TermMatches) -> TermCodeMap {
        if let known = termMatches.knownCodeMap(for: term) { return known }
        if let mapped = mappedTermCodes(matches) { return mapped }
        return termMatches.codeMap(for: term) { termCodeMap(matches) }
    }

    /// The term's field maps, when they hold nearly every hit it has: at most
    /// `EngineTuning.mappedTermMapLimit` maps and `mappedTermExtraLimit`
    /// postings beside them. Nil for any other term, whose code map is made.
    func mappedTermCodes(_ matches: TokenTrie.TermMatches) -> TermCodeMap? {
        let parts = codeMapParts(matches)
        guard !parts.mapped.isEmpty, parts.mapped.count <= EngineTuning.mappedTermMapLimit else { return nil }
        var extras: [(slot: Int, code: UInt8)] = []
        func addExtras(_ postings: UnsafeBufferPointer<TokenTrie.Posting>, base: UInt8) -> Bool {
            guard extras.count + postings.count <= EngineTuning.mappedTermExtraLimit else { return false }
            for posting in postings { extras.append((Int(posting.doc), base + posting.field)) }
            return true
        }
        for residual in parts.residuals {
            guard residual.postings.withUnsafeBufferPointer({ addExtras($0, base: residual.base) }) else { return nil }
        }
        for list in parts.marked {
            // A subtree's count bounds its postings: none is walked past the limit.
            guard list.postings <= EngineTuning.mappedTermExtraLimit - extras.count else { return nil }
            var fits = true
            if list.whole {
                fits = trie.withPostings(of: list.node) { addExtras($0, base: list.base) }
            } else {
                trie.forEachPostingList(under: list.node) { fits = fits && addExtras($0, base: list.base) }
            }
            guard fits else { return nil }
        }
        return .mapped(maps: parts.mapped, postings: extras)
    }

    /// The best `limit` slots without views of a query whose terms' codes
    /// are `termCodes`, those with views among them, and the count of
    /// matches: each slot's rule values summed as `V` (`RuleSum`).
    ///
    /// One pass over the slots, shared by the cores, sums them, counts the
    /// matches and keeps each block's least sum; the `limit`th least bounds
    /// the results and only blocks at or below it are read again. When many
    /// are (a broad query's matches sharing their least rule values), their
    /// sums are bounded again with the rank tiers below them (`tieredBlocks`).
    // Specialised for both widths, as are the steps: left generic, every
    // slot's sum would be a call through the protocol.
    @_specialize(where V == UInt8)
    @_specialize(where V == UInt16)
    private func keptCandidates<V: RuleSum>(
        _: V.Type, termCodes: [TermCodeMap], now: Double, limit: Int
    ) -> ResultCollector {
        let slotCount = documents.count
        let blockCount = (slotCount + Self.leastBlockSize - 1) / Self.leastBlockSize
        // Left uninitialised: the first term's pass writes every slot, and
        // the pass every block's least (zeroing would be a pass of its own).
        var sums = [V](unsafeUninitializedCapacity: slotCount) { _, initialized in initialized = slotCount }
        var blockLeasts = [V](unsafeUninitializedCapacity: blockCount) { _, initialized in initialized = blockCount }
        let workers = slotCount >= tuning.parallelScanMinimum ? Self.workerCount : 1
        var kept = ResultCollector(limit: limit)
        sums.withUnsafeMutableBufferPointer { sums in
        blockLeasts.withUnsafeMutableBufferPointer { leasts in
            kept.total = sumRuleValues(of: termCodes, into: sums, leasts: leasts, workers: workers)
            kept.total -= dropExpired(at: now, from: sums, leasts: leasts)
            guard limit > 0 else { return }
            keepBest(of: UnsafeBufferPointer(sums), leasts: UnsafeBufferPointer(leasts), workers: workers, into: &kept)
        }}
        return kept
    }

    /// Sums each slot's rule values over the terms into `sums`, writes each
    /// block's least into `leasts`, and returns the slots that every term matched.
    ///
    /// A chunk at a time, term by term, each a plain loop over bytes
    /// (vectorised); then the chunk's matches counted and its finished
    /// blocks' leasts found, while the chunk is in the first cache. (Each
    /// term over a whole part, then a count, goes through every slot's sums
    /// three times.) Parts start on a block's edge: each block's least is
    /// one part's to write.
    @_specialize(where V == UInt8)
    @_specialize(where V == UInt16)
    private func sumRuleValues<V: RuleSum>(
        of termCodes: [TermCodeMap], into sumsBuffer: UnsafeMutableBufferPointer<V>,
        leasts leastsBuffer: UnsafeMutableBufferPointer<V>, workers: Int
    ) -> Int {
        nonisolated(unsafe) let (sums, leasts) = (sumsBuffer, leastsBuffer)
        let (slotCount, blockSize, missed) = (sums.count, Self.leastBlockSize, V.missed)
        let chunkSize = max(1, tuning.rulesChunkSize)
        // The code maps' bytes, held by `termCodes` until the query is done.
        let mapBases = termCodes.map { codes -> UnsafePointer<UInt8>? in
            guard case .made(let map, _) = codes else { return nil }
            return map.withUnsafeBufferPointer { $0.baseAddress }
        }
        let totals = termCodes.withUnsafeBufferPointer { termCodes in
            Self.inParts(of: slotCount, workers: workers, alignedTo: blockSize) { part -> Int in
                // A mapped term's codes for one chunk.
                let run = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
                defer { run.deallocate() }
                var total = 0
                var nextBlock = part.lowerBound / blockSize
                var chunkStart = part.lowerBound
                while chunkStart < part.upperBound {
                    let chunk = chunkStart..<min(part.upperBound, chunkStart + chunkSize)
                    let target = sums.baseAddress! + chunk.lowerBound
                    for index in termCodes.indices {
                        // `codes[0]` is the chunk's first slot's.
                        let codes: UnsafePointer<UInt8>
                        switch termCodes[index] {
                        case .made:
                            // A made map has a byte for every slot, and there are some.
                            codes = mapBases[index]! + chunk.lowerBound
                        case .mapped:
                            termCodes[index].fill(chunk, into: run)
                            codes = UnsafePointer(run.baseAddress!)
                        }
                        if index == 0 {
                            for offset in 0..<chunk.count { target[offset] = V.part(ofCode: codes[offset]) }
                        } else {
                            for offset in 0..<chunk.count { target[offset] = V.adding(V.part(ofCode: codes[offset]), to: target[offset]) }
                        }
                    }
                    total += Self.countAtMost(missed - 1, in: UnsafeBufferPointer(rebasing: sums[chunk])).count
                    // The part's last block may be short only at the end of the slots.
                    let finished = chunk.upperBound == part.upperBound
                        ? (part.upperBound + blockSize - 1) / blockSize : chunk.upperBound / blockSize
                    Self.writeBlockLeasts(of: UnsafeBufferPointer(sums), blocks: nextBlock..<finished, into: leasts)
                    nextBlock = max(nextBlock, finished)
                    chunkStart = chunk.upperBound
                }
                return total
            }
        }
        return totals.reduce(0, +)
    }

    /// Sets the sums of slots expired at `now` past every bound and returns
    /// how many of them were matches. Only an expired slot that held its
    /// block's least can raise it; each such block is read again once,
    /// after them all (a block of many expired slots was read again for each).
    @_specialize(where V == UInt8)
    @_specialize(where V == UInt16)
    private func dropExpired<V: RuleSum>(
        at now: Double, from sums: UnsafeMutableBufferPointer<V>, leasts: UnsafeMutableBufferPointer<V>
    ) -> Int {
        let blockSize = Self.leastBlockSize
        var dropped = 0
        var raisedBlocks: Set<Int> = []
        for slot in expiringDocuments.lazy.map(Int.init) where expirations[slot] <= now {
            if sums[slot] < V.missed { dropped += 1 }
            if sums[slot] == leasts[slot / blockSize] { raisedBlocks.insert(slot / blockSize) }
            sums[slot] = .max
        }
        for block in raisedBlocks {
            Self.writeBlockLeasts(of: UnsafeBufferPointer(sums), blocks: block..<(block + 1), into: leasts)
        }
        return dropped
    }

    /// Offers `kept` the slots at or below the `limit`th least block sum:
    /// the blocks holding such a sum (about `limit` of them, unless many
    /// share the bound), else those blocks bounded again with their slots'
    /// rank tiers (`tieredBlocks`) and the engaged slots that bound passes over.
    @_specialize(where V == UInt8)
    @_specialize(where V == UInt16)
    private func keepBest<V: RuleSum>(
        of sums: UnsafeBufferPointer<V>, leasts: UnsafeBufferPointer<V>, workers: Int, into kept: inout ResultCollector
    ) {
        let (slotCount, blockSize, limit) = (sums.count, Self.leastBlockSize, kept.limit)
        let bound = Self.bound(reachedBy: limit, blockLeasts: leasts, missed: V.missed)
        let blocks = Self.slots(in: 0..<leasts.count, of: leasts, atMost: bound)
        let documentsView = documents
        ranks.withUnsafeBufferPointer { ranks in
        rankTiers.withUnsafeBufferPointer { tiers in
        engagedSlots.withUnsafeBufferPointer { engagedSlots in
            let precedes = Self.packedOrder(ranks: ranks, documents: documentsView)
            /// Offers `slot` (a match at or below the bound) to `kept`.
            @inline(__always)
            func offer(_ slot: Int, to kept: inout ResultCollector) {
                let ruleBits = V.ruleBits(of: sums[slot])
                if engagedSlots[slot] {
                    kept.engaged.append(PackedCandidate(key: ruleBits | ranks[slot].keyBits, doc: UInt32(slot)))
                } else if !kept.isFull
                    || !Self.isBeaten(ruleBits: ruleBits, slot: slot, worst: kept.heap[0], tiers: tiers, ranks: ranks)
                {
                    kept.offer(PackedCandidate(key: ruleBits | ranks[slot].keyBits, doc: UInt32(slot)), precedes: precedes)
                }
            }
            let blockWorkers = blocks.count * blockSize >= tuning.parallelScanMinimum ? workers : 1
            if blocks.count <= EngineTuning.tierRefinementRatio * limit || tiers.count < slotCount {
                // Each listed block's slots at or below the bound, as bits.
                let parts = Self.inParts(of: blocks.count, workers: blockWorkers) { part -> ResultCollector in
                    var kept = ResultCollector(limit: limit)
                    for block in blocks[part].lazy.map(Int.init) {
                        var mask = Self.mask(ofBlock: block, in: sums, atMost: bound)
                        while mask != 0 {
                            offer(block * blockSize + mask.trailingZeroBitCount, to: &kept)
                            mask &= mask &- 1
                        }
                    }
                    return kept
                }
                // Parts kept no totals (counted above): only their best are merged.
                for part in parts { kept.absorb(part, precedes: precedes) }
                return
            }
            let tiered = Self.tieredBlocks(blocks, sums: sums, tiers: tiers, limit: limit, workers: blockWorkers)
            for block in tiered.blocks.lazy.map(Int.init) {
                for slot in (block * blockSize)..<min(slotCount, (block + 1) * blockSize)
                where V.tiered(sums[slot], tier: tiers[slot]) <= tiered.bound {
                    offer(slot, to: &kept)
                }
            }
            // A slot with views ranks by its engagement before its tier:
            // one with the bound's rule values, whatever its tier, may be
            // among the results.
            for slot in engagedDocuments().lazy.map(Int.init)
            where slot < slotCount && engagedSlots[slot] && V.Tiered(sums[slot]) <= tiered.bound >> 8
                && V.tiered(sums[slot], tier: tiers[slot]) > tiered.bound
            {
                kept.engaged.append(PackedCandidate(key: V.ruleBits(of: sums[slot]) | ranks[slot].keyBits, doc: UInt32(slot)))
            }
        }}}
    }

    /// Bit `i` set when slot `64 × block + i` has a value at or below
    /// `bound` (values and bound below 2³¹).
    @inline(__always)
    static func mask<V: SlotValue>(ofBlock block: Int, in values: UnsafeBufferPointer<V>, atMost bound: V) -> UInt64 {
        let start = block * leastBlockSize
        guard start + leastBlockSize <= values.count else {
            var mask: UInt64 = 0
            for slot in start..<values.count where values[slot] <= bound { mask |= 1 << UInt64(slot - start) }
            return mask
        }
        return maskOfBlock(at: values.baseAddress! + start, atMost: bound)
    }

    /// Of `blocks` (more than `limit`, each holding a match), those whose
    /// least tiered sum (`RuleSum.tiered`) is at or below `bound`, the `limit`th
    /// least of those leasts: at least `limit` slots lie at or below it,
    /// and any slot without views above it ranks after them all.
    static func tieredBlocks<V: RuleSum>(
        _ blocks: [Int32], sums: UnsafeBufferPointer<V>, tiers: UnsafeBufferPointer<UInt8>, limit: Int, workers: Int
    ) -> (blocks: [Int32], bound: V.Tiered) {
        let blockSize = leastBlockSize
        let leasts = [V.Tiered](unsafeUninitializedCapacity: blocks.count) { buffer, initialized in
            nonisolated(unsafe) let leasts = buffer
            _ = inParts(of: blocks.count, workers: workers) { part in
                for position in part {
                    let start = Int(blocks[position]) * blockSize
                    var least = V.Tiered.max
                    if start + blockSize <= sums.count {
                        // A fixed count: the form the compiler vectorises.
                        var offset = 0
                        while offset < blockSize {
                            let value = V.tiered(sums[start &+ offset], tier: tiers[start &+ offset])
                            least = value < least ? value : least
                            offset &+= 1
                        }
                    } else {
                        for slot in start..<sums.count { least = min(least, V.tiered(sums[slot], tier: tiers[slot])) }
                    }
                    leasts[position] = least
                }
            }
            initialized = blocks.count
        }
        return leasts.withUnsafeBufferPointer { leasts in
            let bound = Self.bound(reachedBy: limit, blockLeasts: leasts, missed: V.tiered(V.missed, tier: 0))
            return (slots(in: 0..<leasts.count, of: leasts, atMost: bound).map { blocks[Int($0)] }, bound)
        }
    }
}
