import Foundation
import TestSupport
import Testing
@testable import SearchIndex

/// The scan over the token arena must give exactly what enumeration with
/// node caches gives: same results, same keys, same totals.
@Suite struct ScanTests {
    /// Words with shared prefixes, long ones (more than eight UTF-8 bytes, so
    /// probes need the trie walk), accents and CJK.
    static let syllables = ["ka", "ren", "to", "mi", "sa", "wick", "ford", "zoë", "北极", "光", "k"]

    func corpus(_ seed: UInt64, count: Int) -> [SearchableItem] {
        var generator = SeededGenerator(seed: seed)
        func word() -> String {
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in Self.syllables.randomElement(using: &generator)! }.joined()
        }
        return (0..<count).map { i in
            let id = "doc/\(Int.random(in: 0..<1_000, using: &generator))-\(i)"
            let title = (0..<Int.random(in: 1...4, using: &generator)).map { _ in word() }.joined(separator: " ")
            return item(
                id, title: title, domain: ["com.a", "com.a.b", "com.c"][i % 3],
                description: Bool.random(using: &generator) ? word() + " " + word() + " " + word() : nil,
                keywords: Bool.random(using: &generator) ? [word(), word()] : [],
                emails: i % 7 == 0 ? ["\(word())@example.com"] : [],
                url: i % 9 == 0 ? "https://x.example/\(i % 30)" : nil,
                expires: i % 13 == 0 ? referenceNow.addingTimeInterval(Double(i % 3 - 1) * 3600) : nil)
        }
    }

    /// Queries of one to three terms: whole words, prefixes, typos (swaps and
    /// substitutions in long words), CJK.
    func queries(_ seed: UInt64, count: Int) -> [String] {
        var generator = SeededGenerator(seed: seed)
        func term() -> String {
            var word = (0..<Int.random(in: 1...4, using: &generator)).map { _ in Self.syllables.randomElement(using: &generator)! }.joined()
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: word = String(word.prefix(Int.random(in: 1...max(1, word.count), using: &generator)))
            case 1 where word.count >= 5:
                var characters = Array(word)
                let at = Int.random(in: 0..<(characters.count - 1), using: &generator)
                characters.swapAt(at, at + 1)
                word = String(characters)
            case 2 where word.count >= 5:
                var characters = Array(word)
                characters[Int.random(in: 0..<characters.count, using: &generator)] = "x"
                word = String(characters)
            default: break
            }
            return word
        }
        return (0..<count).map { _ in (0..<Int.random(in: 1...3, using: &generator)).map { _ in term() }.joined(separator: " ") }
    }

    func expectSameAnswers(_ scanning: SearchEngine, _ enumerating: SearchEngine, seed: UInt64, _ stage: String) {
        var answeredByScan = 0
        for query in queries(seed, count: 150) {
            for (limit, domains) in [(0, [String]()), (1, []), (7, []), (50, []), (20, ["com.a"])] {
                let request = SearchQuery(query, limit: limit, domains: domains, now: referenceNow)
                let a = scanning.search(request)
                let b = enumerating.search(request)
                #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(stage): \(query) limit \(limit) \(domains)")
                #expect(a.results.map(\.explanation) == b.results.map(\.explanation), "\(stage): \(query)")
                #expect(a.total == b.total, "\(stage): \(query) total")
                #expect(![.scan, .fieldMaps].contains(b.plan.strategy), "\(stage): \(query) was not enumerated")
                answeredByScan += a.plan.strategy == .scan ? 1 : 0
            }
        }
        #expect(answeredByScan > 0, "\(stage): the scan answered nothing")
    }

    @Test(arguments: [21, 22])
    func scanAgreesWithEnumeration(seed: UInt64) {
        var scanning = SearchEngine()
        scanning.index(corpus(seed, count: 1_200))
        // Engagement on some documents, a merged web page on one.
        for id in scanning.records.keys.sorted().prefix(60).enumerated().filter({ $0.offset % 5 == 0 }).map(\.element) {
            scanning.becomeCurrent(activity(for: id), at: referenceNow.addingTimeInterval(-3_600))
        }
        scanning.index([item("https://x.example/4", title: "ka web page", url: "https://x.example/4")], source: .web)
        var enumerating = scanning
        enumerating.tuning.scanEnabled = false
        expectSameAnswers(scanning, enumerating, seed: seed, "loaded")
        // The same with candidates gathered through the byte map.
        var mapping = scanning
        mapping.tuning.sortedGatherLimit = 0
        expectSameAnswers(mapping, enumerating, seed: seed, "byte map")
        // The same with the scan shared among the cores, each keeping its own
        // best and count.
        var sharing = scanning
        sharing.tuning.parallelScanMinimum = 1
        expectSameAnswers(sharing, enumerating, seed: seed, "shared among cores")

        // Re-index most documents with new text (holes in the arena, then a
        // compaction) and delete some.
        let replacements = corpus(seed + 100, count: 1_200).enumerated().map { offset, replacement in
            var changed = replacement
            changed.uniqueIdentifier = scanning.records.keys.sorted()[offset % scanning.records.count]
            return changed
        }
        for engine in [0, 1] {
            if engine == 0 {
                scanning.index(replacements)
                scanning.deleteItems(identifiers: Array(scanning.records.keys.sorted().suffix(300)))
            } else {
                enumerating.index(replacements)
                enumerating.deleteItems(identifiers: Array(enumerating.records.keys.sorted().suffix(300)))
            }
        }
        expectSameAnswers(scanning, enumerating, seed: seed + 1, "changed")
    }

    /// While a second word is typed, the first drives every keystroke and
    /// its candidates are remembered: each keystroke answers as enumeration
    /// does, and an item indexed between two keystrokes is found at the
    /// next (the change drops what was remembered).
    @Test func rememberedCandidatesAnswerEveryKeystrokeAndNeverOutliveAChange() {
        var scanning = SearchEngine()
        scanning.index(corpus(41, count: 1_200))
        var enumerating = scanning
        enumerating.tuning.scanEnabled = false
        for query in ["kawick to", "renford mi", "tomisa kar", "fordka wi"] {
            let first = String(query.split(separator: " ")[0])
            let late = item("late/\(first)", title: query + "x")
            var typed = ""
            for character in query {
                typed.append(character)
                if typed == query {
                    #expect(scanning.termMatches.knownScanCandidates(for: first) != nil, "\(query): \(first) remembered")
                    scanning.index([late])
                    enumerating.index([late])
                }
                for limit in [0, 7, 50] {
                    let request = SearchQuery(typed, limit: limit, now: referenceNow)
                    let a = scanning.search(request)
                    let b = enumerating.search(request)
                    #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(typed) limit \(limit)")
                    #expect(a.results.map(\.explanation) == b.results.map(\.explanation), "\(typed)")
                    #expect(a.total == b.total, "\(typed) total")
                }
            }
            #expect(scanning.search(SearchQuery(query, now: referenceNow)).results.contains { $0.uniqueIdentifier == late.uniqueIdentifier })
        }
    }

    /// Broad terms answered from field maps (forced on a small index, with
    /// maps for every node of at least 30 documents and walks below that)
    /// give what enumeration gives, before and after changes under maps
    /// already built.
    @Test(arguments: [31, 32])
    func fieldMapsAgreeWithEnumeration(seed: UInt64) {
        var summarizing = SearchEngine()
        summarizing.index(corpus(seed, count: 1_200))
        for id in summarizing.records.keys.sorted().prefix(60).enumerated().filter({ $0.offset % 4 == 0 }).map(\.element) {
            summarizing.becomeCurrent(activity(for: id), at: referenceNow.addingTimeInterval(-7_200))
        }
        var enumerating = summarizing
        enumerating.tuning.scanEnabled = false
        summarizing.tuning.fieldMapQueryMinimumSlots = 0
        summarizing.tuning.fieldMapMinimumDocuments = 30
        // One-term queries with typos count through code maps only from best lists.
        summarizing.topListThreshold = 40
        summarizing.warmTopLists()
        #expect(summarizing.topLists.fieldMapBytes > 0)
        expectSameAnswers(summarizing, enumerating, seed: seed, "field maps")
        #expect(!summarizing.topLists.allOwnFieldMaps.isEmpty, "common words' own maps built")
        var shared = summarizing
        shared.tuning.parallelScanMinimum = 1
        // Code maps' small nodes marked by two cores, into two maps merged
        // after (a cache of its own: the copy shares the maps made above).
        shared.tuning.sharedMarkingMinimum = 1
        shared.termMatches = TermMatchCache()
        expectSameAnswers(shared, enumerating, seed: seed + 1, "field maps, shared among cores")
        // Sums and counts a few slots at a time: the least value and how
        // many have it, gathered chunk by chunk, must bound the same.
        var chunked = shared
        chunked.tuning.rulesChunkSize = 37
        expectSameAnswers(chunked, enumerating, seed: seed + 3, "field maps, in small chunks")

        // Changes under maps already built: new text for some, deletions,
        // an expired item, a new item in a fresh slot.
        let ids = summarizing.records.keys.sorted()
        let replacements = corpus(seed + 200, count: 300).enumerated().map { offset, replacement in
            var changed = replacement
            changed.uniqueIdentifier = ids[(offset * 3) % ids.count]
            return changed
        }
        let doomed = Array(ids.suffix(150))
        let added = [
            item("late/1", title: "karen tomi", description: "sami"),
            item("late/2", title: "tomisa ka", expires: referenceNow.addingTimeInterval(-60)),
        ]
        summarizing.index(replacements)
        summarizing.deleteItems(identifiers: doomed)
        summarizing.index(added)
        enumerating.index(replacements)
        enumerating.deleteItems(identifiers: doomed)
        enumerating.index(added)
        expectSameAnswers(summarizing, enumerating, seed: seed + 2, "field maps after changes")
        summarizing.tuning.rulesChunkSize = 37
        expectSameAnswers(summarizing, enumerating, seed: seed + 4, "field maps after changes, in small chunks")
    }

    /// Broad matches that share their rule values are told apart by their
    /// rank tiers (`RuleSum`), and only the blocks of slots at or below
    /// the bound are read again: the answers are enumeration's however
    /// many share the bound and however many results are asked for,
    /// with views before the query's time and after it (a view after it
    /// counts for nothing: that document ranks by its tier like the
    /// rest), on one core and on two, in whole and in odd chunks.
    @Test func matchesSharingRuleValuesRankByTier() {
        var generator = SeededGenerator(seed: 61)
        let words = ["vela", "tomas", "tori", "zeno", "vex", "quill"]
        let items = (0..<3_000).map { i -> SearchableItem in
            // Titles of many lengths (tiers), some of one length (ties
            // left to the identifiers), in slots whose order is not theirs.
            var title = (0..<Int.random(in: 1...3, using: &generator)).map { _ in words.randomElement(using: &generator)! }
            if i % 3 == 0 { title += ["vela", "tomas"] }
            let filler = i % 5 == 0 ? "zz" : String(repeating: "z", count: Int.random(in: 1...70, using: &generator))
            title.insert(filler, at: Int.random(in: 0...title.count, using: &generator))
            return item("t/\(Int.random(in: 0..<100_000, using: &generator))-\(i)", title: title.joined(separator: " "),
                        url: i % 9 == 0 ? "https://t.example/\(i)" : nil)
        }
        var (mapped, enumerating) = mappedAndEnumeratingEngines(items, mapMinimum: 30)
        for (offset, viewed) in items.enumerated() where offset % 97 == 0 {
            let at = referenceNow.addingTimeInterval(offset % 2 == 0 ? -3_600 : 3_600)
            _ = mapped.becomeCurrent(activity(for: viewed.uniqueIdentifier), at: at)
            _ = enumerating.becomeCurrent(activity(for: viewed.uniqueIdentifier), at: at)
        }
        var shared = mapped
        shared.tuning.parallelScanMinimum = 1
        var chunked = shared
        chunked.tuning.rulesChunkSize = 37
        for (engine, stage) in [(mapped, "one core"), (shared, "two cores"), (chunked, "odd chunks")] {
            for text in ["vela t", "vela to", "vel tomas", "v t", "to z", "vela tomas z", "v t z q"] {
                for limit in [0, 1, 7, 50, 400, 3_000] {
                    let request = SearchQuery(text, limit: limit, now: referenceNow)
                    let a = engine.search(request), b = enumerating.search(request)
                    #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(stage): \(text) limit \(limit)")
                    #expect(a.results.map(\.explanation) == b.results.map(\.explanation), "\(stage): \(text) limit \(limit)")
                    #expect(a.total == b.total, "\(stage): \(text) total")
                }
            }
        }
    }

    /// Candidates gathered through the borrowed slot maps (`SlotScratch`)
    /// leave them clean: every query, its driving term's candidates
    /// gathered afresh, answers as enumeration does, in one order and in
    /// reverse, and the idle maps are clean after each (a mark left
    /// behind would give a later query a false candidate), before and
    /// after the index grows.
    @Test func borrowedSlotMapsAreLeftClean() {
        var mapping = SearchEngine()
        mapping.index(corpus(51, count: 1_200))
        mapping.tuning.sortedGatherLimit = 0
        var enumerating = mapping
        enumerating.tuning.scanEnabled = false
        let asked = queries(52, count: 60)
        func expectAgreement(_ stage: String) {
            for query in asked + asked.reversed() {
                mapping.termMatches = TermMatchCache()
                let request = SearchQuery(query, limit: 20, now: referenceNow)
                let (a, b) = (mapping.search(request), enumerating.search(request))
                #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(stage): \(query)")
                #expect(a.total == b.total, "\(stage): \(query) total")
                #expect(SearchEngine.slotScratch.idleMapsAreClean, "\(stage): \(query) left its maps clean")
            }
        }
        expectAgreement("first maps")
        let more = corpus(53, count: 600).map { added -> SearchableItem in
            var added = added
            added.uniqueIdentifier = "more/" + added.uniqueIdentifier
            return added
        }
        mapping.index(more)
        enumerating.index(more)
        expectAgreement("after the index grew")
    }

    /// Maps asked for more slots than the idle ones hold are made anew,
    /// clean; handed back, they serve a smaller index too (a pool of its
    /// own: the engines' is shared by tests running at once).
    @Test func borrowedSlotMapsGrowWithTheIndex() {
        let scratch = SlotScratch()
        scratch.withMaps(slots: 100) { codes, bits in
            #expect(codes.count >= 100 && bits.count * 64 >= 100)
            // A slot marked, then put back as a query puts it.
            (codes[99], bits[1]) = (3, 1 << 35)
            (codes[99], bits[1]) = (TermProbe.miss, 0)
        }
        scratch.withMaps(slots: 1_000) { codes, bits in
            #expect(codes.count >= 1_000 && bits.count * 64 >= 1_000)
            #expect(codes.allSatisfy { $0 == TermProbe.miss } && bits.allSatisfy { $0 == 0 })
        }
        scratch.withMaps(slots: 10) { codes, _ in #expect(codes.count >= 1_000, "the larger maps serve a smaller index") }
        #expect(scratch.idleMapsAreClean)
    }

    /// Maps prepared ahead (as a warm does) are clean and lent to the first
    /// query that borrows; preparing again for fewer slots keeps them.
    @Test func preparedSlotMapsServeTheFirstBorrow() {
        let scratch = SlotScratch()
        scratch.prepare(slots: 2_000)
        #expect(scratch.idleMapsAreClean)
        scratch.withMaps(slots: 1_000) { codes, bits in
            #expect(codes.count >= 2_000 && bits.count * 64 >= 2_000, "the prepared maps, not new ones for 1,000 slots")
        }
        scratch.prepare(slots: 500)
        scratch.withMaps(slots: 10) { codes, _ in #expect(codes.count >= 2_000) }
        scratch.prepare(slots: 3_000)
        scratch.withMaps(slots: 2_500) { codes, bits in
            #expect(codes.count >= 3_000 && bits.count * 64 >= 3_000)
            #expect(codes.allSatisfy { $0 == TermProbe.miss } && bits.allSatisfy { $0 == 0 })
        }
        #expect(scratch.idleMapsAreClean)
    }

    /// The field-map passes' block readers agree with a plain filter, on
    /// parts that start and end anywhere (not on a block's edge).
    @Test func blockReadersAgreeWithAPlainFilter() {
        var generator = SeededGenerator(seed: 41)
        let values = (0..<5_000).map { _ in UInt16.random(in: 0...300, using: &generator) }
        values.withUnsafeBufferPointer { buffer in
            for (part, bound) in [(0..<5_000, UInt16(3)), (17..<4_990, 150), (100..<163, 0), (64..<128, 300), (9..<9, 10)] {
                let expected = part.filter { values[$0] <= bound }
                #expect(SearchEngine.slots(in: part, of: buffer, atMost: bound) == expected.map(Int32.init), "\(part) \(bound)")
                let counted = SearchEngine.countAtMost(bound, in: UnsafeBufferPointer(rebasing: buffer[part]))
                #expect(counted.count == expected.count, "\(part) \(bound)")
                #expect(counted.least == part.map { values[$0] }.min() ?? .max)
                #expect(counted.leastAbove == part.map { values[$0] }.filter { $0 > bound }.min() ?? .max)
            }
        }
    }

    /// Each block's least value, written a few blocks at a time as the
    /// sums pass writes them, is the block's minimum; the bound that
    /// `limit` values reach is the `limit`th least of the blocks' leasts
    /// below `missed` (so at least `limit` values lie at or below it), or
    /// `missed - 1` when fewer blocks hold one; and the slots listed by
    /// vector compares are a plain filter's: any length (a short last
    /// block), values set to `missed` as expired slots are, bounds below,
    /// among and above the values.
    @Test func blockLeastsAndTheirBoundAgreeWithAPlainCount() {
        var generator = SeededGenerator(seed: 47)
        let missed = UInt16.missed
        for count in [0, 1, 63, 64, 65, 1_000, 4_099] {
            let values = (0..<count).map { _ -> UInt16 in
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: return missed
                case 1...2: return UInt16.random(in: 0...40, using: &generator)
                default: return UInt16.random(in: 41...40_000, using: &generator)
                }
            }
            values.withUnsafeBufferPointer { buffer in
                let blockCount = (count + 63) / 64
                var leasts = [UInt16](repeating: 7, count: blockCount)
                leasts.withUnsafeMutableBufferPointer { leasts in
                    var written = 0
                    while written < blockCount {
                        let next = min(blockCount, written + Int.random(in: 1...5, using: &generator))
                        SearchEngine.writeBlockLeasts(of: buffer, blocks: written..<next, into: leasts)
                        written = next
                    }
                }
                #expect(leasts == (0..<blockCount).map { values[($0 * 64)..<min(count, $0 * 64 + 64)].min()! })
                let belowMissed = leasts.filter { $0 < missed }.sorted()
                for limit in [1, 2, 10, 50, 100] {
                    let bound = leasts.withUnsafeBufferPointer {
                        SearchEngine.bound(reachedBy: limit, blockLeasts: $0, missed: missed)
                    }
                    #expect(bound == (belowMissed.count >= limit ? belowMissed[limit - 1] : missed - 1), "\(count) values, limit \(limit)")
                    let reached = values.filter { $0 <= bound }.count
                    #expect(reached >= min(limit, values.filter { $0 < missed }.count), "\(count) values, limit \(limit)")
                }
                for bound: UInt16 in [0, 5, 40, 41, 3_000, 39_999, missed - 1, .max] {
                    let listed = SearchEngine.slots(in: 0..<count, of: buffer, atMost: bound)
                    #expect(listed == (0..<count).filter { values[$0] <= bound }.map(Int32.init), "\(count) \(bound)")
                }
            }
        }
    }

    /// Two terms' sums are bytes, bounded by counting them by value: the
    /// same bound as the heap's, the `limit`th least below `missed`.
    @Test func aByteBoundIsTheLimitthLeastBelowMissed() {
        var generator = SeededGenerator(seed: 48)
        let missed = UInt8.missed
        for count in [1, 3, 4, 5, 63, 64, 200, 5_000] {
            let leasts = (0..<count).map { _ -> UInt8 in
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: return missed
                case 1: return .max
                case 2: return UInt8.random(in: 0...3, using: &generator)
                default: return UInt8.random(in: 0..<missed, using: &generator)
                }
            }
            let belowMissed = leasts.filter { $0 < missed }.sorted()
            for limit in [1, 2, 4, 10, 50, 100, 6_000] {
                let bound = leasts.withUnsafeBufferPointer {
                    SearchEngine.bound(reachedBy: limit, blockLeasts: $0, missed: missed)
                }
                #expect(bound == (belowMissed.count >= limit ? belowMissed[limit - 1] : missed - 1), "\(count) leasts, limit \(limit)")
            }
        }
    }

    @Test func aQueryForNoResultsStillCountsThem() {
        let e = engine((0..<300).map { item("n/\($0)", title: "lake cabin \($0)", description: $0 % 2 == 0 ? "rowing" : nil) })
        for text in ["lake", "lak", "lake cab", "lake row", "cabni"] {
            let none = e.search(SearchQuery(text, limit: 0, now: referenceNow))
            let all = e.search(SearchQuery(text, limit: 1_000, now: referenceNow))
            #expect(none.results.isEmpty)
            #expect(none.total == all.results.count, "\(text)")
            #expect(none.total > 0, "\(text)")
        }
    }

    @Test func arenaSqueezesOutHolesAndKeepsEveryDocumentsTokens() {
        var e = SearchEngine()
        e.index((0..<600).map { item("a/\($0)", title: "alpha beta gamma delta \($0)") })
        for word in ["north", "south", "east", "west"] {
            e.index((0..<600).map { item("a/\($0)", title: "\(word) epsilon \($0)") })
        }
        // Live tokens only, after the rounds left holes behind.
        #expect(e.tokens.nodes.count <= 2 * (0..<600).reduce(0) { $0 + e.tokens.span(of: UInt32($1)).count } + 4_096)
        #expect(e.search(SearchQuery("west epsilon 599", now: referenceNow)).results.map(\.uniqueIdentifier) == ["a/599"])
        #expect(e.search(SearchQuery("alpha", now: referenceNow)).total == 0)
        #expect(e.search(SearchQuery("east", now: referenceNow)).total == 0)
    }

    /// A probe codes a token given as text (what highlights ask) as the
    /// node-cache evaluator codes the token's node: every token of the
    /// index against terms with typos, prefixes and whole words, where a
    /// whole-word node is only looked up for a token of its length.
    @Test func aProbeCodesATokenAsTheEvaluatorCodesItsNode() {
        let (checked, wholeHits, _) = probesAgreeWithEvaluators(corpusSeed: 43, querySeed: 44, queryCount: 120, testsNodes: true)
        #expect(checked > 10_000)
        #expect(wholeHits > 50)
    }

    /// A probe made for text only (a one-term keystroke's highlights:
    /// no segments) codes a token given as text as the evaluator codes its
    /// node, a whole word told by the heads of the whole-word nodes' paths,
    /// or, for a path longer than eight bytes, by the token's node.
    @Test func aTextOnlyProbeCodesATokenAsTheEvaluatorCodesItsNode() {
        let (checked, wholeHits, longWholeTerms) = probesAgreeWithEvaluators(
            corpusSeed: 45, querySeed: 46, queryCount: 160, testsNodes: false)
        #expect(checked > 10_000)
        #expect(wholeHits > 50)
        #expect(longWholeTerms > 0)
    }

    /// Expects every term's probe to code every token of the index as the
    /// evaluator codes its node; returns the tokens checked, the whole-word
    /// hits among them, and the terms with a whole-word path over eight bytes.
    private func probesAgreeWithEvaluators(
        corpusSeed: UInt64, querySeed: UInt64, queryCount: Int, testsNodes: Bool
    ) -> (checked: Int, wholeHits: Int, longWholeTerms: Int) {
        var engine = SearchEngine()
        engine.index(corpus(corpusSeed, count: 400))
        var tokens: [(text: String, node: Int32)] = []
        for node in engine.trie.nodes.indices.dropFirst() where !engine.trie[Int32(node)].postingList.isEmpty {
            tokens.append((engine.trie.token(at: Int32(node)), Int32(node)))
        }
        var checked = 0, wholeHits = 0, longWholeTerms = 0
        for term in Set(queries(querySeed, count: queryCount).flatMap { Tokenizer.queryTerms($0) }) {
            let matches = engine.termMatches.matches(for: term, in: engine.trie)
            guard let probe = TermProbe(matches: matches, trie: engine.trie, testsNodes: testsNodes) else { continue }
            if matches.whole.keys.contains(where: { engine.trie.token(at: $0).utf8.count > 8 }) { longWholeTerms += 1 }
            var evaluator = TermEvaluator(matches: matches)
            for token in tokens {
                let expected = evaluator.hit(for: token.node, trie: engine.trie)
                    .map { $0.typos * 8 + ($0.whole ? 0 : 4) } ?? TermProbe.miss
                #expect(probe.code(ofToken: token.text, trie: engine.trie) == expected, "\(term) against \(token.text)")
                checked += 1
                if expected != TermProbe.miss, expected & 4 == 0 { wholeHits += 1 }
            }
        }
        return (checked, wholeHits, longWholeTerms)
    }

    /// A whole-word node's path longer than eight bytes is not told by its
    /// head: a token of its length with the same first eight bytes is no
    /// whole word of the term ("misatonveal" is one, with a typo;
    /// "misatonvqqq" is three typos away, a prefix match with two).
    @Test func aTextOnlyProbeTellsALongWholeWordByItsNode() throws {
        var engine = SearchEngine()
        engine.index([item("a/1", title: "misatonveal"), item("a/2", title: "misatonvqqq")])
        let matches = engine.termMatches.matches(for: "misatonvel", in: engine.trie)
        let probe = try #require(TermProbe(matches: matches, trie: engine.trie, testsNodes: false))
        #expect(probe.code(ofToken: "misatonveal", trie: engine.trie) == 1 * 8)
        #expect(probe.code(ofToken: "misatonvqqq", trie: engine.trie) == 2 * 8 + 4)
    }

    /// A term that reaches one node without typos tells a whole word by the
    /// token's length alone: the token equal to the node's path is whole,
    /// a longer one a prefix hit, also when the term ends inside the edge.
    @Test func aOnePrefixProbeTellsAWholeWordByItsLength() throws {
        var engine = SearchEngine()
        engine.index([item("a/1", title: "cozo cozonix"), item("a/2", title: "coral"), item("a/3", title: "co")])
        func code(_ term: String, _ token: String) throws -> UInt8 {
            let matches = engine.termMatches.matches(for: term, in: engine.trie)
            let probe = try #require(TermProbe(matches: matches, trie: engine.trie))
            return probe.code(ofToken: token, trie: engine.trie)
        }
        #expect(try code("cozo", "cozo") == 0)
        #expect(try code("cozo", "cozonix") == 4)
        #expect(try code("cozo", "coral") == TermProbe.miss)
        #expect(try code("coz", "cozo") == 4)
        #expect(try code("coz", "cozonix") == 4)
        #expect(try code("co", "co") == 0)
        #expect(try code("co", "coral") == 4)
        let highlights = engine.search(SearchQuery("cozo", now: referenceNow)).results.first?.highlights
        #expect(highlights?.map { [$0.start, $0.length] } == [[0, 4], [5, 4]])
    }
}

/// Deletes find a posting through its recorded place; churn must keep every
/// place true and leave answers as a fresh build of the same records gives.
@Suite struct PostingPlaceTests {
    @Test func placesStayTrueAndAnswersMatchAFreshBuildAfterChurn() {
        var generator = SeededGenerator(seed: 77)
        let words = ["cozo", "cozy", "rain", "ranger", "misatonve", "zoë", "北极光", "lens", "len"]
        func text() -> String {
            (0..<Int.random(in: 1...5, using: &generator)).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
        }
        var e = SearchEngine()
        for round in 0..<30 {
            let batch = (0..<60).map { _ in
                item("p/\(Int.random(in: 0..<400, using: &generator))", title: text(), description: text())
            }
            e.index(batch)
            let doomed = (0..<20).map { _ in "p/\(Int.random(in: 0..<400, using: &generator))" }
            e.deleteItems(identifiers: doomed)
            if round % 10 == 9 { e.deleteItems(identifiers: Array(e.records.keys.sorted().prefix(50))) }
        }
        // Every token's place says where that document's posting is, and nothing else is there.
        var tokensSeen = 0
        for (slot, document) in e.documents.enumerated() where document != nil {
            for index in e.tokens.span(of: UInt32(slot)) {
                let postings = e.trie[e.tokens.nodes[index]].postings
                let position = postings.firstIndex { $0.doc == UInt32(slot) }
                #expect(position.map { TokenArena.place(of: UInt32($0)) } == e.tokens.places[index])
                tokensSeen += 1
            }
        }
        #expect(tokensSeen == e.trie[TokenTrie.root].subtreeCount)
        var fresh = SearchEngine()
        fresh.index(e.records.values.map(\.item).sorted { $0.uniqueIdentifier < $1.uniqueIdentifier })
        for query in ["c", "coz", "cozo r", "ran", "misatonve", "misatnove l", "zoe", "北极", "len cozy", "rain ranger lens"] {
            let a = e.search(SearchQuery(query, limit: 30, now: referenceNow))
            let b = fresh.search(SearchQuery(query, limit: 30, now: referenceNow))
            #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(query)")
            #expect(a.total == b.total, "\(query) total")
        }
    }
}

/// Engines are values: a copy changed after the copy was made never reads
/// best lists or field maps that the other copy fills afterwards.
@Suite struct CacheValueSemanticsTests {
    @Test func aChangedCopyNeverSeesTheOthersSummaries() {
        var original = SearchEngine()
        original.tuning.fieldMapQueryMinimumSlots = 0
        original.tuning.fieldMapMinimumDocuments = 5
        original.topListThreshold = 5
        original.index((0..<120).map { item("c/\($0)", title: "cozo lens \($0)", description: $0 % 2 == 0 ? "ranger" : "rain") })
        var changed = original
        // Before any query: the summary cache is still empty when the copy changes.
        changed.index((0..<60).map { item("c/\($0)", title: "misatonve \($0)", description: "karen") })
        changed.deleteItems(identifiers: (60..<90).map { "c/\($0)" })
        for query in ["cozo", "cozo l", "lens r", "ra", "cozo lens r"] {
            _ = original.search(SearchQuery(query, limit: 10, now: referenceNow))
        }
        var fresh = SearchEngine()
        fresh.index(changed.records.values.map(\.item).sorted { $0.uniqueIdentifier < $1.uniqueIdentifier })
        for query in ["cozo", "cozo l", "lens r", "ra", "cozo lens r", "misatonve k"] {
            let a = changed.search(SearchQuery(query, limit: 10, now: referenceNow))
            let b = fresh.search(SearchQuery(query, limit: 10, now: referenceNow))
            #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(query)")
            #expect(a.total == b.total, "\(query) total")
        }
    }
}

@Suite struct CodeMapCountTests {
    /// A code map's hits are counted eight bytes at a time: every length
    /// (whole words and a tail), no hits, all hits, and codes next to the
    /// miss value (0xFE, 0x7F) that a byte trick could confuse with it.
    @Test func everyByteButAMissIsAHit() {
        var generator = SeededGenerator(seed: 41)
        let values: [UInt8] = [TermProbe.miss, 0, 1, 0x7F, 0x80, 0xFE, 4, 12]
        for length in Array(0...40) + [1_000, 4_099] {
            for fill in [UInt8?.none, TermProbe.miss, 0] {
                let codes = (0..<length).map { _ in fill ?? values.randomElement(using: &generator)! }
                let expected = codes.filter { $0 != TermProbe.miss }.count
                #expect(codes.withUnsafeBufferPointer { TermCodeMap.hitCount(of: $0) } == expected, "\(length) \(String(describing: fill))")
            }
        }
    }
}

@Suite struct TermCodeMapTests {
    /// Field maps merged into a code map hold, in each slot, the least of
    /// their codes (a map's base plus its field; a map shorter than the
    /// slots, or `noField`, gives none), and the count of slots with a
    /// code, for one to four maps, lengths around the count's blocks.
    @Test func mergedMapsHoldTheLeastCodeAndCountIt() {
        var generator = SeededGenerator(seed: 43)
        for slotCount in [0, 1, 127, 128, 129, 1_000, 70_000] {
            for mapCount in 0...4 {
                let maps: [(map: [UInt8], base: UInt8)] = (0..<mapCount).map { _ in
                    let length = Bool.random(using: &generator) ? slotCount : Int.random(in: 0...slotCount, using: &generator)
                    let map = (0..<length).map { _ in
                        Int.random(in: 0..<3, using: &generator) == 0 ? SearchEngine.noField : UInt8.random(in: 0...3, using: &generator)
                    }
                    return (map, UInt8.random(in: 0...2, using: &generator) * 8 + 4)
                }
                let expected = (0..<slotCount).map { slot in
                    maps.reduce(TermProbe.miss) { least, entry in
                        guard slot < entry.map.count, entry.map[slot] != SearchEngine.noField else { return least }
                        return min(least, entry.base + entry.map[slot])
                    }
                }
                var codes = [UInt8](repeating: 0x55, count: slotCount)
                let hits = codes.withUnsafeMutableBufferPointer { TermCodeMap.merge(maps, into: $0) }
                #expect(codes == expected, "\(slotCount) slots, \(mapCount) maps")
                #expect(hits == expected.filter { $0 != TermProbe.miss }.count, "\(slotCount) slots, \(mapCount) maps")
                // Merged in two parts (as two cores merge a map's halves),
                // split at a multiple of 32 anywhere: the same codes, and
                // the parts' counts add up to the whole's.
                let split = Int.random(in: 0...(slotCount / 32), using: &generator) * 32
                var halves = [UInt8](repeating: 0x55, count: slotCount)
                let packed = maps.map { (FieldMap(unpacked: $0.map), $0.base) }
                let partHits = halves.withUnsafeMutableBufferPointer { codes in
                    TermCodeMap.merge(packed, into: codes, slots: split..<slotCount)
                        + TermCodeMap.merge(packed, into: codes, slots: 0..<split)
                }
                #expect(halves == expected, "\(slotCount) slots, \(mapCount) maps, split at \(split)")
                #expect(partHits == hits, "\(slotCount) slots, \(mapCount) maps, split at \(split)")
            }
        }
    }
}

/// A one-term keystroke with typos counts its matches a bit a document
/// beside its broad subtree's field map (or without one when every match
/// is small), not through a code map: the totals are enumeration's, expired
/// documents left out, and no code map is made until a space ends the term.
@Suite struct TypoCountTests {
    func engines() -> (counting: SearchEngine, enumerating: SearchEngine) {
        // "lante": one broad subtree; its typos ("lamte", "lsnte", "kante") small.
        let corpus = items(600, "broad", title: { "lantern \($0 % 30 == 0 ? "lamtern" : "room")" })
            + items(30, "near", title: { "lamtern \($0 % 5 == 0 ? "kantern" : "gate")" })
            + items(40, "far", title: { _ in "lsntern shade" })
            + items(40, "king", title: { _ in "kantern hill" })
            // "ribbo": three small subtrees, broad only together.
            + items(40, "ribbon", title: { _ in "ribbon tie" })
            + items(40, "ribbin", title: { _ in "ribbin knot" })
            + items(40, "rubbon", title: { _ in "rubbon bow" })
            + items(8, "gone", expired: true, title: { $0 % 2 == 0 ? "lantern lamtern" : "kantern rubbon" })
            + items(200, "other", title: { "pebble \($0)" })
        let (counting, enumerating) = mappedAndEnumeratingEngines(corpus, mapMinimum: 30)
        return (counting, enumerating)
    }

    @Test func totalsAreEnumerationsAndLeaveNoCodeMap() {
        let (counting, enumerating) = engines()
        for term in ["lante", "lanter", "lamte", "ribbo", "ribbon", "kante"] {
            let request = SearchQuery(term, limit: 10, now: referenceNow)
            let a = counting.search(request), b = enumerating.search(request)
            #expect(a.total == b.total, "\(term) total")
            #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(term)")
            let matches = counting.termMatches.matches(for: term, in: counting.trie)
            #expect(matches.prefix.count > 1 && counting.isBroad(matches), "\(term): several subtrees, broad together")
            let mapped = counting.termMatches.knownCodeMap(for: term) != nil
            #expect(!mapped, "\(term): counted without a code map")
        }
        // The space after a term makes its code map, for the second term.
        let ended = SearchQuery("lante ", limit: 10, now: referenceNow)
        #expect(counting.search(ended).total == enumerating.search(ended).total)
        #expect(counting.termMatches.knownCodeMap(for: "lante") != nil, "the term's code map, made at the space")
        let request = SearchQuery("lante roo", limit: 10, now: referenceNow)
        let a = counting.search(request), b = enumerating.search(request)
        #expect(a.total == b.total && a.total > 0)
        #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier))
    }
}

extension TermProbe {
    /// The hit code of the term against one token given as text (the
    /// engine asks through the token's bytes and scalars, made once for
    /// all its terms).
    fileprivate func code(ofToken text: String, trie: TokenTrie) -> UInt8 {
        withUnsafePointer(to: trie) { trie in
            TokenTrie.withScalars(of: text) { scalars in
                var text = text
                return text.withUTF8 { utf8 in
                    withUnsafePointer(to: self) { TermProbe.code(of: $0, token: utf8, scalars: scalars, trie: trie) }
                }
            }
        }
    }
}
