import Foundation
import SearchSupport

/// Top-k for short prefixes without enumerating their matches.
///
/// A one-letter prefix over a million items matches most of them; ranking
/// them all for 20 results would be wasted work. For a single term that
/// reaches one trie node without typos, the rules reduce to: whole-word
/// matches (the node's own postings) first, then the rest of the subtree,
/// each in static order (field, sources, title length, identifier), with
/// engaged documents (few) ranked individually and merged in. Both orders
/// come from best lists cached per node (`TopListCache`), so such a query
/// reads a few hundred entries whatever the size of the subtree. When a list
/// cannot prove its part of the answer (too many entries skipped as expired
/// or engaged), the query falls back to full enumeration.
extension SearchEngine {
    /// Static order of two entries of best lists.
    func staticPrecedes(_ a: TopEntry, _ b: TopEntry) -> Bool {
        ranks.withUnsafeBufferPointer { Self.staticPrecedes(a, b, ranks: $0, documents: documents) }
    }

    /// Static order of two entries of best lists, read through a view of the ranks.
    @inline(__always)
    static func staticPrecedes(_ a: TopEntry, _ b: TopEntry, ranks: UnsafeBufferPointer<StaticRank>, documents: [Document?]) -> Bool {
        // Fields differ most often, and tell without reading either rank.
        if a.field != b.field { return a.field < b.field }
        let order = StaticKey(field: a.field, rank: ranks[Int(a.doc)]).compare(StaticKey(field: b.field, rank: ranks[Int(b.doc)]))
        if order != 0 { return order < 0 }
        return RankingKey.identifierPrecedes(documents[Int(a.doc)]!.uniqueIdentifier, documents[Int(b.doc)]!.uniqueIdentifier)
    }

    /// The first `capacity` of `entries` (a kept list's length unless a
    /// query asks for fewer) in static order.
    ///
    /// Each entry's key is read once into its two words (`StaticKey.words`),
    /// so sorting and the window's binary searches compare words instead
    /// of reading two documents' ranks a comparison.
    private func best(_ entries: [TopEntry], capacity: Int = TopListCache.capacity) -> [TopEntry] {
        return ranks.withUnsafeBufferPointer { ranks in
            documents.withUnsafeBufferPointer { documents in
                func keyed(_ entry: TopEntry) -> KeyedEntry { KeyedEntry(entry, rank: ranks[Int(entry.doc)]) }
                func precedes(_ a: KeyedEntry, _ b: KeyedEntry) -> Bool {
                    if a.high != b.high { return a.high < b.high }
                    if a.low != b.low { return a.low < b.low }
                    return RankingKey.identifierPrecedes(documents[Int(a.entry.doc)]!.uniqueIdentifier,
                                                         documents[Int(b.entry.doc)]!.uniqueIdentifier)
                }
                if entries.count <= capacity { return entries.map(keyed).sorted(by: precedes).map(\.entry) }
                // Partial selection: keep a sorted window of the best
                // `capacity`, offered a field at a time, best first (the
                // field leads the order): once the window is full, a worse
                // field than its last is passed over whole, without reading
                // a rank. (The entries are read once a field rather than
                // copied in field order: a root's child has hundreds of
                // thousands in the warm.)
                var window: [KeyedEntry] = []
                window.reserveCapacity(capacity)
                for field in 0..<UInt8(4) {
                    if window.count == capacity, field > window[capacity - 1].entry.field { break }
                    for entry in entries where entry.field == field {
                        let candidate = keyed(entry)
                        guard window.count == capacity else {
                            window.append(candidate)
                            if window.count == capacity { window.sort(by: precedes) }
                            continue
                        }
                        guard precedes(candidate, window[capacity - 1]) else { continue }
                        var low = 0, high = capacity - 1
                        while low < high {
                            let mid = (low + high) / 2
                            if precedes(candidate, window[mid]) { high = mid } else { low = mid + 1 }
                        }
                        window.removeLast()
                        window.insert(candidate, at: low)
                    }
                }
                return window.map(\.entry)
            }
        }
    }

    /// The length of a best list and its last entry's static key.
    package func listTail(_ list: [TopEntry]) -> ListTail? {
        ranks.withUnsafeBufferPointer { ListTail(of: list, ranks: $0) }
    }

    /// The best documents among the node's own postings (whole-word matches).
    func ownTopList(_ node: Int32) -> [TopEntry] {
        if let cached = topLists.own(node) { return cached }
        let list = best(trie[node].postingList.map(TopEntry.init))
        topLists.store(own: list, tail: listTail(list), for: node)
        return list
    }

    /// The best documents with a token anywhere in the node's subtree, each
    /// with the best field it has there.
    func subtreeTopList(_ node: Int32) -> [TopEntry] {
        var byteMap: [UInt8] = []
        return subtreeTopList(node, byteMap: &byteMap)
    }

    /// The best `count` documents of a subtree whose list is not kept (of
    /// at most `topListThreshold` documents), for one query's bucket.
    ///
    /// Unlike `subtreeTopList`, which makes its children's lists first, the
    /// subtree's postings go once through a table of their own size
    /// (`BestFieldTable`), and the window is as long as the query can take.
    func transientTopList(_ node: Int32, keeping count: Int) -> [TopEntry] {
        var table = BestFieldTable(postings: trie[node].subtreeCount)
        trie.forEachPostingList(under: node) { postings in
            for posting in postings { table.offer(posting) }
        }
        return best(table.entries, capacity: max(count, 1))
    }

    /// `byteMap`: a byte a slot, every one `noField`, and left so (empty
    /// until a subtree large enough needs it; a map in use serves every
    /// subtree after it).
    ///
    /// Only the lists of subtrees above `topListThreshold` are kept: a smaller
    /// one answers no query alone, and the few that merge one make it again.
    private func subtreeTopList(_ node: Int32, byteMap: inout [UInt8]) -> [TopEntry] {
        if let cached = topLists.subtree(node) { return cached }
        // A child's best list holds every document of its subtree that can
        // be in ours; smaller children are walked. Lists first, so the
        // recursion is done before this node gathers anything.
        var childLists: [[TopEntry]] = []
        var walked: [Int32] = []
        var offered = trie[node].postingList.count
        for child in trie.children(of: node) {
            if trie[child.node].documentCount > TopListCache.capacity {
                childLists.append(subtreeTopList(child.node, byteMap: &byteMap))
                offered += TopListCache.capacity
            } else {
                walked.append(child.node)
                offered += trie[child.node].subtreeCount
            }
        }
        if byteMap.isEmpty, offered >= EngineTuning.bestFieldByteMapMinimum {
            byteMap = [UInt8](repeating: Self.noField, count: documents.count)
        }
        let list = best(bestFields(node, childLists: childLists, walked: walked, offered: offered, byteMap: &byteMap))
        if trie[node].documentCount > topListThreshold { topLists.store(subtree: list, tail: listTail(list), for: node) }
        return list
    }

    /// Each document among the postings of `node`, the entries of
    /// `childLists` and the postings under `walked`, with its best field:
    /// told apart in `byteMap` (a byte a slot, all `noField`, left so) when
    /// there is one, else in a table sized for the `offered` postings and
    /// entries (`BestFieldTable`).
    private func bestFields(
        _ node: Int32, childLists: [[TopEntry]], walked: [Int32], offered: Int, byteMap: inout [UInt8]
    ) -> [TopEntry] {
        var entries: [TopEntry] = []
        if !byteMap.isEmpty {
            byteMap.withUnsafeMutableBufferPointer { bestField in
                func offer(_ doc: UInt32, _ field: UInt8) {
                    let seen = bestField[Int(doc)]
                    if seen == Self.noField { entries.append(TopEntry(doc: doc, field: field)) }
                    if field < seen { bestField[Int(doc)] = field }
                }
                gather(node, childLists: childLists, walked: walked, offer)
                for index in entries.indices {
                    entries[index].field = bestField[Int(entries[index].doc)]
                    bestField[Int(entries[index].doc)] = Self.noField
                }
            }
        } else {
            var table = BestFieldTable(postings: offered)
            gather(node, childLists: childLists, walked: walked) { doc, field in
                table.offer(TokenTrie.Posting(doc: doc, field: field))
            }
            entries = table.entries
        }
        return entries
    }

    private func gather(_ node: Int32, childLists: [[TopEntry]], walked: [Int32], _ offer: (UInt32, UInt8) -> Void) {
        trie.withPostings(of: node) { postings in
            for posting in postings { offer(posting.doc, posting.field) }
        }
        for list in childLists {
            for entry in list { offer(entry.doc, entry.field) }
        }
        for child in walked {
            trie.forEachPostingList(under: child) { postings in
                for posting in postings { offer(posting.doc, posting.field) }
            }
        }
    }

    /// Fills the best lists (and field maps, common words' own ones too) of
    /// every large subtree now, so that no keystroke pays for the first
    /// computation (after a bulk load, say).
    public func warmTopLists() {
        let mapsServe = documents.count >= tuning.fieldMapQueryMinimumSlots
        // Subtrees under different first scalars share no list or map: the
        // cores warm them apart, largest first, dealt out in turn.
        let starts = trie.children(of: TokenTrie.root).map(\.node)
            .filter { trie[$0].documentCount > topListThreshold }
            .sorted { trie[$0].documentCount > trie[$1].documentCount }
        // The maps a query borrows to gather many candidates, made now
        // rather than by the first such query.
        if documents.count > tuning.sortedGatherLimit { Self.slotScratch.prepare(slots: documents.count) }
        let workers = min(Self.workerCount, starts.count)
        guard workers > 1 else { return warm(from: starts, mapsServe: mapsServe) }
        let engine = self
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let share = stride(from: worker, to: starts.count, by: workers).map { starts[$0] }
            engine.warm(from: share, mapsServe: mapsServe)
        }
        Allocator.returnFreePages()
    }

    /// Fills the lists and maps of `starts` and of every large subtree below them.
    private func warm(from starts: [Int32], mapsServe: Bool) {
        var stack = starts
        // One map for every list this thread makes: a hash table a node
        // would be much of warming, in hashing and growing.
        var byteMap = [UInt8](repeating: Self.noField, count: documents.count)
        var warmed = 0
        while let node = stack.popLast() {
            // Lists and maps made for the moment are freed into each core's
            // allocator arena: given back every 64 nodes, not at the warm's peak.
            warmed += 1
            if warmed % 64 == 0 { Allocator.returnFreePages() }
            _ = subtreeTopList(node, byteMap: &byteMap)
            if trie[node].postingList.count > TopListCache.capacity { _ = ownTopList(node) }
            // A large subtree keeps its map, or else its cover's residual.
            if mapsServe, trie[node].documentCount >= fieldMapMinimum { _ = subtreeCover(node) }
            if mapsServe, trie[node].postingList.count >= fieldMapMinimum { _ = fieldMap(ofOwnPostings: node) }
            for child in trie.children(of: node) where trie[child.node].documentCount > topListThreshold {
                stack.append(child.node)
            }
        }
    }

    /// Answers a one-term query from best lists, or nil when it must be enumerated.
    ///
    /// Matches fall into buckets in rank order: (0 typos, whole word), (0,
    /// prefix), (1, whole), (1, prefix), … Each bucket's documents come from
    /// the best lists of its nodes, merged in static order, a bucket opened
    /// only when the ones before are used up; a list that runs out before
    /// proving its part sends the query back to enumeration. The count
    /// (`matchCount`) is the caller's, which has checked `topListReach`.
    func rankFromTopLists(matches: TokenTrie.TermMatches, query: SearchQuery) -> [RankedSlot]? {
        let limit = query.limit
        let engaged = engagedDocuments()
        var seen = Set<UInt32>()
        var ranked: [RankedSlot] = []
        // Grown by appends, the list was copied six times on its way to 50,
        // each copy a retain of every identifier in it.
        ranked.reserveCapacity(limit + engaged.count)

        let expiry = expiryTest(at: query.now)

        /// Takes from `lists` (each sorted, each complete or not) in merged
        /// static order; false when a truncated list ran out first. Chosen by
        /// rank first; only the chosen documents are read (`gather`), together.
        func take(_ lists: [(entries: [TopEntry], complete: Bool)], typos: Int, whole: Bool) -> Bool {
            let wanted = limit - ranked.count
            if lists.count > 1 { readRanks(ofHeadsOf: lists, wanted: wanted) }
            // A document can come twice only from a second list (or from
            // a bucket before this one): one list alone needs no set.
            let dedupes = lists.count > 1 || !ranked.isEmpty
            if dedupes && seen.isEmpty { seen = Set(ranked.lazy.map { $0.doc }) }
            var chosen: [TopEntry] = []
            chosen.reserveCapacity(wanted)
            var cursors = [Int](repeating: 0, count: lists.count)
            while chosen.count < wanted {
                var best: Int?
                for (i, list) in lists.enumerated() {
                    guard cursors[i] < list.entries.count else {
                        // A list that ran out (its entries expired, engaged
                        // or taken already) without holding its whole
                        // subtree can prove nothing more: the rest of that
                        // subtree may rank before every other list's next.
                        if !list.complete { return false }
                        continue
                    }
                    if best == nil || staticPrecedes(list.entries[cursors[i]], lists[best!].entries[cursors[best!]]) { best = i }
                }
                // Every list is exhausted, and complete: all they hold is given.
                guard let i = best else { break }
                let entry = lists[i].entries[cursors[i]]
                cursors[i] += 1
                if dedupes, !seen.insert(entry.doc).inserted { continue }
                if engaged.contains(entry.doc) || !expiry.isUnexpired(entry.doc) { continue }
                chosen.append(entry)
            }
            gather(chosen.map(\.doc))
            for entry in chosen { ranked.append(rankedSlot(entry, typos: typos, whole: whole)) }
            return true
        }

        // Found without a set or a filtered dictionary of each bucket.
        let bound = max(matches.prefix.values.max() ?? 0, matches.whole.values.max() ?? 0)
        for typos in 0...bound where ranked.count < limit {
            guard take(wholeLists(matches, typos: typos), typos: typos, whole: true) else { return nil }
            if ranked.count >= limit { break }
            // The whole bucket is used up: all its documents are in `seen`.
            // A list not kept is made as long as this bucket can take, with
            // room for as many skipped (expired, engaged, taken already).
            let keeping = 2 * (limit - ranked.count)
            guard take(prefixLists(matches, typos: typos, keeping: keeping), typos: typos, whole: false) else { return nil }
        }
        appendEngaged(engaged, matching: matches, expiry: expiry, now: query.now, to: &ranked)
        // Taken bucket by bucket, each in static order, the list is in rank
        // order already; only engaged documents join out of order.
        if !engaged.isEmpty { ranked.sort { $0.key < $1.key } }
        // Cut in place, not copied by `Array(prefix(limit))`.
        if ranked.count > limit { ranked.removeLast(ranked.count - limit) }
        return ranked
    }

    /// A best list's entry as a ranked slot of a one-term query. The
    /// document is read in place: a copy retains every string it holds.
    private func rankedSlot(_ entry: TopEntry, typos: Int, whole: Bool) -> RankedSlot {
        documents.withUnsafeBufferPointer { documents in
            documents.withDocument(at: Int(entry.doc)) { document in
                RankedSlot(key: RankingKey(
                    typos: typos, wholeWords: whole ? 1 : 0, fieldScore: Int(entry.field), engagement: 0,
                    rankingHint: ranks[Int(entry.doc)].rankingHint, sources: document.sourceCount, titleLength: document.titleLength,
                    uniqueIdentifier: document.uniqueIdentifier), doc: entry.doc)
            }.unsafelyUnwrapped
        }
    }

    /// The own lists of the whole words matched with `typos`, and whether
    /// each holds every posting of its word.
    private func wholeLists(_ matches: TokenTrie.TermMatches, typos: Int) -> [(entries: [TopEntry], complete: Bool)] {
        matches.whole.compactMap { $0.value == typos ? $0.key : nil }.sorted().map { node in
            let list = ownTopList(node)
            return (list, list.count == trie[node].postingList.count)
        }
    }

    /// The subtree lists of the prefixes matched with `typos` (one made for
    /// the query, `keeping` long, where none is kept), and whether each
    /// holds every document of its subtree.
    private func prefixLists(
        _ matches: TokenTrie.TermMatches, typos: Int, keeping: Int
    ) -> [(entries: [TopEntry], complete: Bool)] {
        matches.prefix.compactMap { $0.value == typos ? $0.key : nil }.sorted().map { node in
            let list = trie[node].documentCount > topListThreshold
                ? subtreeTopList(node)
                : topLists.subtree(node) ?? transientTopList(node, keeping: keeping)
            return (list, list.count == trie[node].documentCount)
        }
    }

    /// Ranks each unexpired engaged document the term matches by its full
    /// key, engagement included, after `ranked` (which the caller sorts).
    private func appendEngaged(
        _ engaged: Set<UInt32>, matching matches: TokenTrie.TermMatches, expiry: ExpiryTest, now: Date,
        to ranked: inout [RankedSlot]
    ) {
        guard !engaged.isEmpty else { return }
        var evaluator = TermEvaluator(matches: matches)
        // Read together, as `take` reads the documents it chooses: the
        // results read every ranked document's slot and set.
        gather(Array(engaged))
        for doc in engaged {
            guard let document = documents[Int(doc)], expiry.isUnexpired(doc),
                let hit = evaluator.bestHit(slot: doc, tokens: tokens, trie: trie)
            else { continue }
            ranked.append(RankedSlot(key: RankingKey(
                typos: Int(hit.typos), wholeWords: hit.whole ? 1 : 0, fieldScore: Int(hit.field),
                engagement: engagementScore(of: document.uniqueIdentifier, at: now).score,
                rankingHint: ranks[Int(doc)].rankingHint, sources: document.sourceCount, titleLength: document.titleLength,
                uniqueIdentifier: document.uniqueIdentifier), doc: doc))
        }
    }

    /// Reads the ranks of the entries `rankFromTopLists` may compare when
    /// it merges several lists (at most `wanted` of each, `4 × wanted` in
    /// all), together, so that their cache misses overlap.
    private func readRanks(ofHeadsOf lists: [(entries: [TopEntry], complete: Bool)], wanted: Int) {
        var sink: UInt32 = 0
        ranks.withUnsafeBufferPointer { ranks in
            var left = 4 * wanted
            for list in lists where left > 0 {
                for entry in list.entries.prefix(min(wanted, left)) { sink &+= ranks[Int(entry.doc)].titleLength }
                left -= min(list.entries.count, wanted, left)
            }
        }
        keepValue(sink)
    }

    /// A one-term query answered from best lists (`rankFromTopLists`), or
    /// nil when a list ran out before the page was full; the caller has
    /// planned it (`topListReach`).
    ///
    /// A count that marks many postings one by one (a typo term's) runs on
    /// the other core while this one ranks and makes the results, then joins
    /// the marking run by run (`SharedMarking`).
    func searchFromTopLists(term: String, matches: TokenTrie.TermMatches, query: SearchQuery) -> SearchResponse? {
        // A space typed after the term ends it: a second term is coming,
        // which will want this one's code map.
        let ended = query.text.last?.isWhitespace ?? false
        func results() -> [SearchResult]? {
            guard let ranked = rankFromTopLists(matches: matches, query: query) else { return nil }
            // Node tests only for the matched tokens an explanation names.
            // The ranked documents' slots and sets were read together as
            // they were ranked (`rankFromTopLists`): no second `gather`.
            let probes = TermProbe(matches: matches, trie: trie, testsNodes: query.explainsMatches).map { [$0] }
            return self.results(ranked[...], terms: [term], matches: [matches], probes: probes, query: query)
        }
        let plan = countPlan(matches, of: term, mapsBroadTerm: ended)
        func count() -> Int { matchCount(matches, of: term, plan: plan, now: query.now) }
        if ParallelWork.workerCount > 1, plan.markedPostings >= tuning.sharedCountMarkingMinimum,
            case .marked(let base)? = plan.counting,
            let marking = sharedMarking(of: matches, roots: plan.roots, outside: base)
        {
            // This thread joins the marking once its results are made,
            // when enough of it is left (`EngineTuning.joiningRuns`).
            let cover = base.map(subtreeCover)
            var answer: [SearchResult]?
            withUnsafeMutablePointer(to: &answer) { answerOut in
                nonisolated(unsafe) let answerOut = answerOut
                ParallelWork.both(
                    {
                        answerOut.pointee = results()
                        // No results from the lists: the query is enumerated, and counts again.
                        if answerOut.pointee != nil, marking.runsLeft >= EngineTuning.joiningRuns {
                            mark(marking, thread: 0, outside: cover)
                        }
                    },
                    { mark(marking, thread: 1, outside: cover) })
            }
            guard let answer else { return nil }
            let total = matchCount(
                matches, of: term, plan: plan, now: query.now, premarked: mergedBits(marking, outside: cover))
            return SearchResponse(query: query.text, total: total, results: answer)
        }
        guard ParallelWork.workerCount > 1, plan.markedPostings >= tuning.sharedCountMinimum else {
            guard let answer = results() else { return nil }
            return SearchResponse(query: query.text, total: count(), results: answer)
        }
        var answer: [SearchResult]?
        var total = 0
        withUnsafeMutablePointer(to: &answer) { answerOut in
            withUnsafeMutablePointer(to: &total) { totalOut in
                nonisolated(unsafe) let (answerOut, totalOut) = (answerOut, totalOut)
                ParallelWork.both({ answerOut.pointee = results() }, { totalOut.pointee = count() })
            }
        }
        guard let answer else { return nil }
        return SearchResponse(query: query.text, total: total, results: answer)
    }


    /// The documents a term's prefixes reach when `rankFromTopLists` may
    /// answer it (no filter, a limit the lists hold, and more than
    /// `topListAnswerMinimum` of them), else nil.
    func topListReach(_ matches: TokenTrie.TermMatches, query: SearchQuery) -> Int? {
        guard !query.restricts, query.limit <= TopListCache.capacity / 2 else { return nil }
        let reach = matches.prefix.keys.reduce(0) { $0 + trie[$1].documentCount }
        return reach > topListAnswerMinimum ? reach : nil
    }

    /// Documents a one-term query's prefix matches must reach (summed over
    /// its nodes) for best lists to answer it: an eighth of `topListThreshold`
    /// (a node under it has a list made for the query, `transientTopList`).
    var topListAnswerMinimum: Int { topListThreshold / 8 }

    /// The slots of documents with views: while a load's identifier map is
    /// still being built, those the load found from the per-slot flags, so
    /// the first query of a cold start does not wait for the map.
    func engagedDocuments() -> Set<UInt32> {
        guard !engagements.isEmpty else { return [] }
        if pendingTables != nil { return engagedAtLoad }
        return Set(engagements.keys.compactMap { slot(of: $0) })
    }

    /// The same set from the per-slot flags (a pass over every slot).
    package func engagedDocumentsFromFlags() -> Set<UInt32> {
        engagedSlots.withUnsafeBufferPointer { flags in
            Set(flags.indices.lazy.filter { flags[$0] && self.documents[$0] != nil }.map { UInt32($0) })
        }
    }

    /// How `matchCount` counts a term, decided once: the caller reads
    /// `markedPostings` to choose a core for the count, and the count
    /// follows the plan.
    struct CountPlan {
        /// The matches' topmost prefix nodes (`TokenTrie.topmost(of:)`).
        let roots: [Int32]
        /// Nil when one of `roots` covers every match: the trie counts it.
        let counting: Counting?
        /// Postings the count marks one by one (none when the trie or a
        /// code map counts).
        let markedPostings: Int
    }

    /// The plan for counting `term`'s matches; `mapsBroadTerm` as `counting` takes it.
    func countPlan(_ matches: TokenTrie.TermMatches, of term: String, mapsBroadTerm: Bool) -> CountPlan {
        let roots = trie.topmost(of: matches.prefix)
        if roots.count == 1, let root = roots.first,
            matches.whole.keys.allSatisfy({ $0 == root || trie.isAncestor(root, of: $0) })
        {
            return CountPlan(roots: roots, counting: nil, markedPostings: 0)
        }
        let (counting, marked) = counting(matches, of: term, roots: roots, mapsBroadTerm: mapsBroadTerm)
        return CountPlan(roots: roots, counting: counting, markedPostings: marked)
    }

    /// Distinct visible documents the term matches: from the trie's counts
    /// when one node covers every match; else by a bit a document
    /// (`documentBits`), or from the term's code map, as `plan` says.
    /// `premarked`: a `.marked` plan's set, marked already (`mergedBits`).
    func matchCount(
        _ matches: TokenTrie.TermMatches, of term: String, plan: CountPlan, now: Date,
        premarked: (bits: [UInt64], count: Int)? = nil
    ) -> Int {
        /// What decides whether the term matches a document (a closure
        /// capturing `self` would copy the whole engine into a box).
        enum Cover {
            case subtree(Int32)
            case codes([UInt8])
            case bits([UInt64])
            /// Under the subtree (by its map when it keeps one), or a bit set.
            case subtreeOrBits(Int32, FieldMap?, [UInt64])
        }
        let roots = plan.roots
        var total: Int
        let cover: Cover
        switch plan.counting {
        case nil:
            total = trie[roots[0]].documentCount
            cover = .subtree(roots[0])
        case .marked(let base)?:
            if let base {
                let parts = subtreeCover(base)
                let outside = premarked ?? documentBits(of: matches, roots: roots, outside: (base, parts))
                total = trie[base].documentCount + outside.count
                let map = parts.residual.isEmpty ? parts.map : nil
                cover = .subtreeOrBits(base, map, outside.bits)
            } else {
                let marked = premarked ?? documentBits(of: matches, roots: roots)
                total = marked.count
                cover = .bits(marked.bits)
            }
        case .codeMap?:
            // A broad term's code map, kept for the next keystrokes (the
            // same term again, then with a second term).
            guard case .made(let codes, let hits) = termMatches.codeMap(for: term, build: { termCodeMap(matches) }) else {
                preconditionFailure("a term's code map is made")
            }
            total = hits
            cover = .codes(codes)
        }
        for doc in expiringDocuments {
            guard documents[Int(doc)] != nil, expiration(ofSlot: Int(doc)) <= now.timeIntervalSinceReferenceDate else { continue }
            let covered: Bool
            switch cover {
            case .subtree(let root):
                covered = hasToken(doc, under: root)
            case .codes(let codes):
                covered = codes[Int(doc)] != TermProbe.miss
            case .bits(let bits):
                covered = bits[Int(doc) >> 6] & (1 << UInt64(doc & 63)) != 0
            case .subtreeOrBits(let root, let map, let bits):
                let underRoot = map.map { $0[Int(doc)] != Self.noField } ?? hasToken(doc, under: root)
                covered = underRoot || bits[Int(doc) >> 6] & (1 << UInt64(doc & 63)) != 0
            }
            if covered { total -= 1 }
        }
        return total
    }

    /// Whether the document in `slot` has a token in `root`'s subtree.
    private func hasToken(_ slot: UInt32, under root: Int32) -> Bool {
        tokens.span(of: slot).contains { trie.isAncestor(root, of: TokenArena.node(of: tokens.words[$0])) }
    }

    /// How `matchCount` counts a term that reaches several subtrees.
    enum Counting {
        /// A bit a document for the matches' postings, those under `outside`
        /// (a broad subtree, counted by the trie and skipped through its
        /// field map) left out.
        case marked(outside: Int32?)
        /// Through the term's code map, made unless a keystroke made it.
        case codeMap
    }

    /// A term that is not broad is marked. A broad one (five letters or
    /// more with its typos: hundreds of small subtrees, and at most one
    /// broad one, the letters as typed) is marked outside its broad
    /// subtree too, unless a keystroke made its code map already, a space
    /// ended the term (`mapsBroadTerm`: the second term will want the
    /// map), it reaches two broad subtrees, or its other matches have more
    /// than `EngineTuning.countingMarkLimit` postings (a code map for a mere
    /// count is a byte a slot to clear, and the next keystroke needs another).
    /// With the choice, the postings it marks one by one (0 for a code map).
    private func counting(
        _ matches: TokenTrie.TermMatches, of term: String, roots: [Int32], mapsBroadTerm: Bool
    ) -> (Counting, marked: Int) {
        guard isBroad(matches) else { return (.marked(outside: nil), postings(of: matches, roots: roots, outside: nil)) }
        guard !mapsBroadTerm, termMatches.knownCodeMap(for: term) == nil else { return (.codeMap, 0) }
        let minimum = fieldMapMinimum
        var base: Int32?
        for root in roots where trie[root].documentCount >= minimum {
            guard base == nil else { return (.codeMap, 0) }
            base = root
        }
        let marked = postings(of: matches, roots: roots, outside: base)
        return marked <= EngineTuning.countingMarkLimit ? (.marked(outside: base), marked) : (.codeMap, 0)
    }

    /// The postings of the matches outside `base` (all of them without
    /// one): what a count marks one by one.
    private func postings(of matches: TokenTrie.TermMatches, roots: [Int32], outside base: Int32?) -> Int {
        var postings = 0
        for root in roots where root != base { postings += trie[root].subtreeCount }
        for node in matches.whole.keys where base.map({ !trie.isAncestor($0, of: node) }) ?? true {
            postings += trie[node].postingList.count
        }
        return postings
    }

}

/// The query-independent part of a document's rank, kept beside `documents`
/// so best-list comparisons touch only plain values.
///
/// Three 32-bit words, 12 bytes a slot, every bit a field's, so a
/// snapshot, which writes ranks as they lie in memory, writes no padding:
///
/// ```
///  rules        bits 10–31 0x3FFFFF − the hint's code (`hintCode`: a higher hint, smaller)
///               bits  8–9  3 − sources
///               bits  0–7  the title's length (`Document.titleLength`, up to 255)
///  prefixHigh   the identifier's first four bytes, big-endian
///  prefixLow    its next four
/// ```
///
/// `rules` orders as the hint, sources and title rules do (`keyBits`).
package struct StaticRank: Sendable, BitwiseCopyable {
    private var rules: UInt32 = 0
    private var prefixHigh: UInt32 = 0
    private var prefixLow: UInt32 = 0

    init() {
        self.init(sources: 0, titleLength: 0, rankingHint: 0, identifierPrefix: 0)
    }

    init(sources: UInt8, titleLength: UInt32, rankingHint: Double, identifierPrefix: UInt64) {
        rules = (Self.hintMask - Self.hintCode(of: rankingHint)) << 10 | UInt32(3 - min(sources, 3)) << 8
            | min(titleLength, Self.titleMask)
        prefixHigh = UInt32(truncatingIfNeeded: identifierPrefix >> 32)
        prefixLow = UInt32(truncatingIfNeeded: identifierPrefix)
    }

    private static let titleMask: UInt32 = (1 << 8) - 1
    private static let hintMask: UInt32 = (1 << 22) - 1

    /// A hint as the rank keeps it: its single-precision bits without the
    /// lowest nine (14 bits of mantissa: whole numbers to 32,768 exactly,
    /// about four and a half significant digits beyond). Ordered as the
    /// hints are, for the finite hints of 0 or more a model admits; 0 for
    /// none.
    static func hintCode(of hint: Double) -> UInt32 {
        guard hint > 0 else { return 0 }
        return Float(hint).bitPattern >> 9
    }

    /// The hint a code stands for: what the ranking compares.
    static func rankedHint(_ hint: Double) -> Double { value(ofHintCode: hintCode(of: hint)) }

    private static func value(ofHintCode code: UInt32) -> Double { Double(Float(bitPattern: code << 9)) }

    /// The rule bits: ordered as the hint, sources and title rules order.
    @inline(__always) var keyBits: UInt64 { UInt64(rules) }

    @inline(__always) var sources: UInt8 { 3 - UInt8(truncatingIfNeeded: rules >> 8 & 3) }
    @inline(__always) var titleLength: UInt32 { rules & Self.titleMask }
    private var hintCode: UInt32 { Self.hintMask - rules >> 10 }
    /// The hint the ranking compares (`rankedHint`).
    var rankingHint: Double { Self.value(ofHintCode: hintCode) }

    /// The identifier's first eight bytes, big-endian (`Document.identifierPrefix`).
    @inline(__always) var identifierPrefix: UInt64 { UInt64(prefixHigh) << 32 | UInt64(prefixLow) }

    /// The rank in one byte, ordered as `keyBits`, ties aside: a larger tier
    /// always ranks after a smaller one. Hinted documents take 0–127 by
    /// half-octaves of their hint (higher first), the rest 128–255 by
    /// sources and then a title length up to 31.
    package var tier: UInt8 {
        let code = hintCode
        guard code > 0 else { return 128 | (3 - min(sources, 3)) << 5 | UInt8(min(titleLength, 31)) }
        // Bits 13–21 of the code are the float's exponent and first mantissa bit.
        let halfOctave = Int(code >> 13) - 2 * 96
        return 127 - UInt8(max(0, min(127, halfOctave)))
    }
}

/// A best-list entry with its static key read once, as `StaticKey.words`.
/// Equal words leave it to the whole identifiers.
private struct KeyedEntry {
    var high: UInt64
    var low: UInt64
    var entry: TopEntry

    @inline(__always)
    init(_ entry: TopEntry, rank: StaticRank) {
        let words = StaticKey(field: entry.field, rank: rank).words
        (high, low) = (words.high, words.low)
        self.entry = entry
    }
}
