import Foundation
import SearchSupport

/// How one query term matched one document: the rule values it contributes.
struct TermHit: Sendable, Comparable {
    var typos: UInt8
    var whole: Bool
    var field: UInt8

    static func < (a: TermHit, b: TermHit) -> Bool {
        if a.typos != b.typos { return a.typos < b.typos }
        if a.whole != b.whole { return a.whole }
        return a.field < b.field
    }
}

extension SearchEngine {
    /// Half-life of a view's weight in the engagement rule.
    public static let engagementHalfLife: TimeInterval = 7 * 24 * 3600

    /// Views of `identifier` up to `now`, each weighted by its recency
    /// (a view loses half its weight every week), rounded so that equal
    /// histories compare equal.
    public func engagementScore(of identifier: String, at now: Date) -> (score: Double, views: Int) {
        // Most indexes have no views at all: no identifier to hash.
        guard !engagements.isEmpty, let dates = engagements[identifier] else { return (0, 0) }
        var score = 0.0
        var views = 0
        for date in dates where date <= now {
            let age = now.timeIntervalSince(date)
            score += pow(0.5, age / Self.engagementHalfLife)
            views += 1
        }
        return ((score * 1_000_000).rounded() / 1_000_000, views)
    }

    /// Runs a query: AND of its terms, each a whole token or a prefix, with
    /// typos allowed by length; ranked by the rules of SPEC 2, by the
    /// strategy `plan` chooses. The response names it (`QueryPlan`).
    public func search(_ query: SearchQuery) -> SearchResponse {
        func nothing(_ why: QueryPlan.Reason) -> SearchResponse {
            SearchResponse(query: query.text, total: 0, results: [], plan: QueryPlan(.nothing, why: why))
        }
        // Callers refuse such a query with `QueryLimits.problem`; the engine
        // answers nothing rather than spend time on one that slips through.
        guard query.text.utf8.count <= QueryLimits.maximumCharacters * 4, query.text.count <= QueryLimits.maximumCharacters else {
            return nothing(.overLimit(characters: QueryLimits.maximumCharacters))
        }
        let terms = Tokenizer.queryTerms(query.text)
        if terms.isEmpty, query.restricts {
            var response = searchByFiltersAlone(query)
            response.plan = QueryPlan(.filtersAlone, why: .filtersWithoutWords)
            return response
        }
        guard !terms.isEmpty else { return nothing(.noWords) }
        guard terms.count <= QueryLimits.maximumTerms else { return nothing(.tooManyWords(limit: QueryLimits.maximumTerms)) }
        let matches = terms.map { termMatches.matches(for: $0, in: trie) }
        if let unmatched = matches.firstIndex(where: { $0.prefix.isEmpty && $0.whole.isEmpty }) {
            return nothing(.matchesNoToken(term: terms[unmatched]))
        }
        let exact = exactCandidates(terms: terms, query: query)
        let plan = self.plan(terms: terms, matches: matches, query: query, exactFirst: !exact.isEmpty)
        guard exact.isEmpty else {
            return searchExactFirst(exact, plan: plan, terms: terms, matches: matches, query: query)
        }
        return run(plan, terms: terms, matches: matches, query: query)
    }

    /// Reads, for every document about to become a result, its rank, its
    /// slot and its set's storage header (which the result retains), in tight
    /// loops: each is a cache miss or two, and met one result at a time
    /// they came one after another; read together, the processor overlaps
    /// them. A pass for each step of the chain (the slots, then the
    /// storage headers), so that no load waits for a miss of its own
    /// document before it can start.
    func gather(_ docs: [UInt32]) {
        var sink: UInt32 = 0
        // The ranks too, for the hint each result's key reads.
        ranks.withUnsafeBufferPointer { ranks in
            for doc in docs where Int(doc) < ranks.count { sink &+= ranks[Int(doc)].titleLength }
        }
        documents.withUnsafeBufferPointer { documents in
            for doc in docs {
                sink &+= UInt32(documents.withDocument(at: Int(doc)) { $0.slotByte } ?? 0)
            }
            for doc in docs {
                sink &+= UInt32(documents.withDocument(at: Int(doc)) { $0.storageHeaderByte } ?? 0)
            }
        }
        keepValue(sink)
    }

    /// A ranked document as a result, with its highlights and explanation
    /// (the matched tokens only if the query asks for them).
    /// `probes`, when the query has them, answer the per-token questions
    /// without the trie; otherwise the evaluators do.
    /// `deferred`, when the query has one, makes the highlights of a
    /// result whose title is its set's when they are read.
    func makeResult(
        doc: UInt32, key: RankingKey, terms: [String], termsAreASCII: Bool, probes: [TermProbe]? = nil,
        deferred: DeferredHighlights? = nil, evaluators: inout [TermEvaluator], query: SearchQuery
    ) -> SearchResult {
        var termMatches: [Explanation.TermMatch] = []
        if query.explainsMatches {
            for (index, term) in terms.enumerated() {
                if let probes {
                    // Read in place (see `highlights`): a copy retains every array of the probe.
                    if let (code, node) = probes.withUnsafeBufferPointer({ $0[index].bestToken(of: doc, in: tokens, trie: trie) }) {
                        termMatches.append(.init(
                            term: term, token: trie.token(at: node), field: Field(rawValue: code & 3)!.name,
                            typos: Int(code >> 3), whole: (code >> 2) & 1 == 0))
                    }
                } else if let (hit, node) = evaluators[index].bestHitWithNode(slot: doc, tokens: tokens, trie: trie) {
                    termMatches.append(.init(
                        term: term, token: trie.token(at: node), field: Field(rawValue: hit.field)!.name,
                        typos: Int(hit.typos), whole: hit.whole))
                }
            }
        }
        // The slot's stored fields are read in place: a copy of the whole
        // document would go through the runtime's generic copy, a retain of
        // every reference it holds.
        let fields = documents.withUnsafeBufferPointer { $0.withPresentDocument(at: Int(doc)) { $0.resultFields } }
        let attributes: AttributeSet, title: String?, contentType: String
        if let own = fields.attributes {
            // The title is left in the set (`SearchResult.title` reads it when asked).
            (attributes, title, contentType) = (own, nil, fields.commonContentType ?? own.contentType)
        } else {
            // A document a snapshot wrote whole (a standalone activity): rare, read from a copy.
            let document = documents[Int(doc)]!
            (attributes, title, contentType) = (shownAttributes(of: document), document.title, document.contentType)
        }
        func highlights(_ text: UnsafeBufferPointer<UInt8>) -> HighlightList {
            self.highlights(
                ofUTF8: text, field: "title", terms: terms, termsAreASCII: termsAreASCII, probes: probes,
                evaluators: &evaluators)
        }
        let highlighting: SearchResult.Highlighting
        if var title {
            highlighting = .made(title.withUTF8(highlights))
        } else if let deferred {
            highlighting = .deferred(deferred)
        } else {
            highlighting = .made(attributes.withShownTitleUTF8(highlights))
        }
        return SearchResult(
            uniqueIdentifier: fields.identifier, domainIdentifier: fields.domain,
            contentType: contentType, title: title, sources: fields.sources.list,
            attributes: attributes, visibility: fields.visibility, highlighting: highlighting,
            explanation: Explanation(
                key: key, views: engagementScore(of: fields.identifier, at: query.now).views, matches: termMatches))
    }

    /// A document by identifier, as a result without match information.
    public func result(for identifier: String) -> SearchResult? {
        guard let slot = slot(of: identifier), let document = documents[Int(slot)] else { return nil }
        return SearchResult(
            uniqueIdentifier: document.uniqueIdentifier, domainIdentifier: document.domainIdentifier,
            contentType: document.contentType, title: document.title, sources: document.sources,
            attributes: shownAttributes(of: document), visibility: document.visibility, highlighting: .made(HighlightList()),
            explanation: Explanation(
                key: RankingKey(typos: 0, wholeWords: 0, fieldScore: 0, engagement: 0,
                                rankingHint: ranks[Int(slot)].rankingHint, sources: document.sourceCount, titleLength: document.titleLength,
                                uniqueIdentifier: document.uniqueIdentifier),
                views: engagements[identifier]?.count ?? 0, matches: []))
    }

    /// Every token of each identified document that a term of `text` matches,
    /// typo matches included, in any field: what a screen highlights in
    /// the fields it shows. Asked only for the rows on screen, the query
    /// read once for all of them.
    public func matchedTokens(of identifiers: [String], for text: String) -> [String: Set<String>] {
        let terms = Tokenizer.queryTerms(QueryFilters.parseLeniently(text).text)
        guard terms.count <= QueryLimits.maximumTerms else { return [:] }
        var evaluators = terms.map { TermEvaluator(matches: termMatches.matches(for: $0, in: trie)) }
        var byIdentifier: [String: Set<String>] = [:]
        for identifier in identifiers {
            var found = Set<String>()
            if let slot = slot(of: identifier), documents[Int(slot)] != nil {
                for index in tokens.span(of: slot) {
                    let node = TokenArena.node(of: tokens.words[index])
                    for term in evaluators.indices where evaluators[term].hit(for: node, trie: trie) != nil {
                        found.insert(trie.token(at: node))
                        break
                    }
                }
            }
            byIdentifier[identifier] = found
        }
        return byIdentifier
    }

    /// Whether `identifier` is a visible result at `now`.
    public func isVisible(_ identifier: String, at now: Date) -> Bool {
        guard let slot = slot(of: identifier), documents[Int(slot)] != nil else { return false }
        return expiration(ofSlot: Int(slot)) > now.timeIntervalSinceReferenceDate
    }
}

/// Decides, with a cache, whether a token's trie node matches one term.
struct TermEvaluator {
    let matches: TokenTrie.TermMatches
    private var cache: [Int32: TermHit?] = [:]
    /// The common case, a term that reaches one node without typos: a token
    /// matches when that node is on its path, which a walk up decides
    /// without any lookup.
    private let exactNode: Int32?

    init(matches: TokenTrie.TermMatches) {
        self.matches = matches
        if matches.prefix.count == 1, let (node, typos) = matches.prefix.first, typos == 0,
            matches.whole.keys.allSatisfy({ $0 == node })
        {
            exactNode = node
        } else {
            exactNode = nil
        }
    }

    /// Typos and wholeness of the term against the token ending at `node`
    /// (the field is left 0).
    mutating func hit(for node: Int32, trie: TokenTrie) -> TermHit? {
        if let exactNode {
            guard trie.isAncestor(exactNode, of: node) else { return nil }
            return TermHit(typos: 0, whole: node == exactNode && matches.whole[node] != nil, field: 0)
        }
        if let cached = cache[node] { return cached }
        var prefixTypos: Int?
        var current = node
        while current != TokenTrie.root {
            if let typos = matches.prefix[current] { prefixTypos = min(prefixTypos ?? typos, typos) }
            current = trie.parent(of: current)
        }
        var best: TermHit?
        if let typos = prefixTypos { best = TermHit(typos: UInt8(typos), whole: false, field: 0) }
        if let typos = matches.whole[node] {
            let whole = TermHit(typos: UInt8(typos), whole: true, field: 0)
            if best == nil || whole < best! { best = whole }
        }
        cache[node] = best
        return best
    }

    mutating func bestHit(slot: UInt32, tokens: TokenArena, trie: TokenTrie) -> TermHit? {
        bestHitWithNode(slot: slot, tokens: tokens, trie: trie)?.hit
    }

    mutating func bestHitWithNode(slot: UInt32, tokens: TokenArena, trie: TokenTrie) -> (hit: TermHit, node: Int32)? {
        var best: (hit: TermHit, node: Int32)?
        for index in tokens.span(of: slot) {
            let word = tokens.words[index]
            let node = TokenArena.node(of: word)
            guard var hit = hit(for: node, trie: trie) else { continue }
            hit.field = TokenArena.field(of: word)
            if best == nil || hit < best!.hit { best = (hit, node) }
        }
        return best
    }
}

extension Array {
    /// The `k` smallest elements in order, without sorting everything.
    func partialSort(_ k: Int) -> ArraySlice<Element> where Element == RankedSlot {
        // A query for no results (only the total) keeps nothing.
        guard k > 0 else { return [] }
        var heap: [Element] = []  // max-heap on key, size ≤ k
        heap.reserveCapacity(k + 1)
        func up(_ i: Int) {
            var i = i
            while i > 0 {
                let p = (i - 1) / 2
                if heap[p].key < heap[i].key { heap.swapAt(p, i); i = p } else { break }
            }
        }
        func down(_ i: Int) {
            var i = i
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count, heap[m].key < heap[l].key { m = l }
                if r < heap.count, heap[m].key < heap[r].key { m = r }
                if m == i { return }
                heap.swapAt(i, m); i = m
            }
        }
        for element in self {
            if heap.count < k {
                heap.append(element); up(heap.count - 1)
            } else if element.key < heap[0].key {
                heap[0] = element; down(0)
            }
        }
        return heap.sorted { $0.key < $1.key }[...]
    }
}
