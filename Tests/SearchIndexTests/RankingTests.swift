import Foundation
import TestSupport
import Testing
@testable import SearchIndex

/// One test per ranking rule: two results that differ in that rule only
/// (or in that rule and a later one pointing the other way).
@Suite struct RankingTests {
    @Test func fewerTyposFirst() {
        // The typo result would win every later rule: shorter title, smaller id.
        let e = engine([item("b", title: "Harbour lights in winter"), item("a", title: "Harbor")])
        #expect(e.ids("harbour") == ["b", "a"])
    }

    @Test func moreWholeWordsFirst() {
        let e = engine([item("a", title: "Carpet"), item("b", title: "Car park")])
        #expect(e.ids("car") == ["b", "a"])
    }

    @Test func bestFieldFirst() {
        let e = engine([
            item("a", title: "Zzz", description: "lantern"),
            item("b", title: "Zzz", extras: ["note": "lantern"]),
            item("c", title: "Zzz", keywords: ["lantern"]),
            item("d", title: "Lantern and a much longer title"),
        ])
        #expect(e.ids("lantern") == ["d", "c", "b", "a"])
    }

    @Test func engagementLiftsAResult() {
        var e = engine([item("a", title: "Brent"), item("b", title: "Brenda")])
        #expect(e.ids("bren") == ["a", "b"])
        let view = activity(for: "b")
        e.becomeCurrent(view, at: referenceNow.addingTimeInterval(-60))
        e.becomeCurrent(view, at: referenceNow.addingTimeInterval(-30))
        #expect(e.ids("bren") == ["b", "a"])
        // Engagement ranks below the text rules: a whole-word match still wins.
        #expect(e.ids("brent") == ["a", "b"])
    }

    @Test func recentViewsWeighMoreThanOldOnes() {
        var e = engine([item("a", title: "Lake"), item("b", title: "Loch")])
        e.becomeCurrent(activity(for: "a", eligible: false), at: referenceNow.addingTimeInterval(-60 * 86400))
        e.becomeCurrent(activity(for: "a", eligible: false), at: referenceNow.addingTimeInterval(-59 * 86400))
        e.becomeCurrent(activity(for: "b", eligible: false), at: referenceNow.addingTimeInterval(-3600))
        #expect(e.ids("l") == ["b", "a"])
        let a = e.engagementScore(of: "a", at: referenceNow)
        let b = e.engagementScore(of: "b", at: referenceNow)
        #expect(a.views == 2 && b.views == 1)
        #expect(a.score < b.score)
        // Views after the clock do not count yet.
        #expect(e.engagementScore(of: "b", at: referenceNow.addingTimeInterval(-7200)).views == 0)
    }

    @Test func moreSourcesFirst() {
        var e = SearchEngine()
        e.index([item("a", title: "Lake", url: "https://x.example/a"), item("b", title: "Lake", url: "https://x.example/b")])
        #expect(e.ids("lake") == ["a", "b"])
        e.index([item("https://x.example/b", title: "Lake page", url: "https://x.example/b")], source: .web)
        #expect(e.ids("lake") == ["b", "a"])
        #expect(e.search(SearchQuery("lake", now: referenceNow)).results.first?.sources == [.item, .web])
    }

    @Test func shorterTitleFirst() {
        let e = engine([item("a", title: "Lake District"), item("b", title: "Lake")])
        #expect(e.ids("lake") == ["b", "a"])
    }

    @Test func identifierBreaksTheLastTie() {
        let e = engine([item("b", title: "Lake"), item("a", title: "Lake"), item("c", title: "Lake")])
        #expect(e.ids("lake") == ["a", "b", "c"])
    }

    @Test func orderIsDeterministicWhateverTheInsertionOrder() {
        let items = (0..<200).map { i in
            item("x/\(i)", title: "Item \(["ka", "kar", "karen", "kat", "mi"][i % 5]) \(i % 7)",
                 description: i % 4 == 0 ? "kayak trip" : nil, keywords: i % 3 == 0 ? ["karma"] : [])
        }
        let forward = engine(items)
        let backward = engine(items.reversed())
        for query in ["k", "ka", "kar", "karen", "kayak", "item k", "karma"] {
            #expect(forward.ids(query, limit: 200) == backward.ids(query, limit: 200), "query \(query)")
            #expect(forward.ids(query, limit: 7) == Array(forward.ids(query, limit: 200).prefix(7)))
        }
    }

    @Test func explanationNamesEachRuleFieldAndToken() throws {
        let e = engine([item("a", title: "Brent Reid", keywords: ["search"])])
        let result = try #require(e.search(SearchQuery("reid sear", now: referenceNow)).results.first)
        let key = result.explanation.key
        #expect(key.typos == 0)
        #expect(key.wholeWords == 1)
        #expect(key.fieldScore == Int(Field.title.rawValue + Field.keywords.rawValue))
        #expect(key.titleLength == 10)
        let matches = result.explanation.matches
        #expect(matches.map(\.token) == ["reid", "search"])
        #expect(matches.map(\.field) == ["title", "keywords"])
        #expect(matches.map(\.whole) == [true, false])
    }

    @Test func highlightsCoverTheMatchedCharacters() throws {
        let e = engine([item("a", title: "Zoë Marchetti")])
        let result = try #require(e.search(SearchQuery("zoe mar", now: referenceNow)).results.first)
        #expect(result.highlights == [
            Highlight(field: "title", start: 0, length: 3), Highlight(field: "title", start: 4, length: 3),
        ])
        let cjk = engine([item("b", title: "看北极光")])
        let hit = try #require(cjk.search(SearchQuery("北极光", now: referenceNow)).results.first)
        #expect(hit.highlights == [Highlight(field: "title", start: 1, length: 3)])
    }
}

func activity(for id: String, eligible: Bool = true) -> UserActivity {
    var attributes = AttributeSet()
    attributes.relatedUniqueIdentifier = id
    return UserActivity(
        activityType: "com.example.view", title: "Viewed \(id)", contentAttributeSet: attributes,
        isEligibleForSearch: eligible)
}

/// The best-list path must give exactly what full enumeration gives.
@Suite struct TopListTests {
    func corpus(_ seed: UInt64, count: Int) -> [SearchableItem] {
        var generator = SeededGenerator(seed: seed)
        let syllables = ["ka", "ren", "to", "mi", "sa", "lo", "k", "kar", "s"]
        func word() -> String { (0..<Int.random(in: 1...3, using: &generator)).map { _ in syllables.randomElement(using: &generator)! }.joined() }
        var items: [SearchableItem] = []
        for i in 0..<count {
            let id = "d/\(Int.random(in: 0..<100_000, using: &generator))-\(i)"
            let titleWords: [String] = (0..<Int.random(in: 1...3, using: &generator)).map { _ in word() }
            let description: String? = Bool.random(using: &generator) ? word() + " " + word() : nil
            let keywords: [String] = Bool.random(using: &generator) ? [word()] : []
            let url: String? = i % 5 == 0 ? "https://x.example/\(i % 40)" : nil
            let expires: Date? = i % 11 == 0 ? referenceNow.addingTimeInterval(Double(i % 3 - 1) * 3600) : nil
            items.append(item(id, title: titleWords.joined(separator: " "), description: description,
                              keywords: keywords, url: url, expires: expires))
        }
        return items
    }

    /// Leaving the matched tokens out changes nothing else: the same
    /// results in the same order, with the same highlights, attributes and
    /// rule values.
    @Test func resultsWithoutMatchedTokensAreTheSameResults() {
        var e = engine(corpus(9, count: 600))
        e.topListThreshold = 10
        e.warmTopLists()
        // Best lists, typos, several terms, nothing.
        for text in ["k", "ka", "kar", "karen", "kareb", "karenmisa", "sa lo", "mi to k", "zzz"] {
            let full = e.search(SearchQuery(text, limit: 30, now: referenceNow))
            let lean = e.search(SearchQuery(text, limit: 30, now: referenceNow, explainsMatches: false))
            #expect(lean.total == full.total, "\(text)")
            #expect(lean.results.map(\SearchResult.uniqueIdentifier) == full.results.map(\SearchResult.uniqueIdentifier), "\(text)")
            #expect(lean.results.map(\SearchResult.highlights) == full.results.map(\SearchResult.highlights), "\(text)")
            #expect(lean.results.map(\SearchResult.attributes) == full.results.map(\SearchResult.attributes), "\(text)")
            #expect(lean.results.map(\SearchResult.explanation.key) == full.results.map(\SearchResult.explanation.key), "\(text)")
            #expect(lean.results.allSatisfy { $0.explanation.matches.isEmpty }, "\(text)")
            #expect(full.results.allSatisfy { !$0.explanation.matches.isEmpty }, "\(text)")
        }
    }

    /// Only subtrees above the threshold keep a best list: the smaller
    /// ones a larger list is made from, and those a typo bucket merges,
    /// are made for the moment and let go, and the answers are those of
    /// enumeration.
    @Test func onlySubtreesAboveTheThresholdKeepABestList() {
        // Lists are made of children's lists above `capacity` (256)
        // documents: a threshold above that leaves such children below it.
        var fast = engine(corpus(14, count: 3_000))
        let threshold = 400
        fast.topListThreshold = threshold
        var slow = fast
        slow.topListThreshold = Int.max
        fast.warmTopLists()
        func keptLists() -> [Int32: [TopEntry]] { fast.topLists.allLists.subtree }
        #expect(!keptLists().isEmpty)
        #expect(keptLists().keys.allSatisfy { fast.trie[$0].documentCount > threshold })
        // Every subtree above the threshold under the root's large children was warmed.
        var stack = fast.trie.children(of: TokenTrie.root).map(\.node).filter { fast.trie[$0].documentCount > threshold }
        while let node = stack.popLast() {
            #expect(keptLists()[node] != nil, "node \(node) above the threshold keeps its list")
            stack += fast.trie.children(of: node).map(\.node).filter { fast.trie[$0].documentCount > threshold }
        }
        // Subtrees whose lists a larger one was made of, below the threshold, exist.
        #expect(fast.trie.nodes.indices.contains {
            (TopListCache.capacity + 1...threshold).contains(fast.trie.nodes[$0].documentCount)
        })
        // Typo buckets merge small nodes' lists; prefixes reach past the threshold.
        for query in ["kar", "karen", "kareb", "samito", "lorensa", "kamitosalo", "mitoka"] {
            for limit in [5, 50] {
                let a = fast.search(SearchQuery(query, limit: limit, now: referenceNow))
                let b = slow.search(SearchQuery(query, limit: limit, now: referenceNow))
                #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(query) limit \(limit)")
                #expect(a.results.map(\.explanation.key) == b.results.map(\.explanation.key), "\(query) limit \(limit)")
                #expect(a.total == b.total, "\(query) total")
            }
        }
        #expect(keptLists().keys.allSatisfy { fast.trie[$0].documentCount > threshold }, "no small list kept by a query")
    }

    /// A typo bucket merges several nodes' lists. One whose entries are
    /// all expired runs out before it has proved its part of the answer:
    /// the query must not go on with the other lists alone (the rest of
    /// that subtree ranks before them), but answer as enumeration does.
    @Test func aListThatRunsOutOfUnexpiredEntriesIsNotPassedOver() {
        // "karto" reaches "qarto" (titles, the first 300 in identifier
        // order expired) and "kbrto" (descriptions) with a typo each.
        let titled = (0..<600).map { n in
            item(String(format: "a/%04d", n), title: "qartox", expires: n < 300 ? referenceNow.addingTimeInterval(-60) : nil)
        }
        let described = (0..<600).map { n in item(String(format: "b/%04d", n), title: "plain", description: "kbrtox") }
        let exact = (0..<3).map { n in item("c/\(n)", title: "kartoz") }
        var fast = engine(titled + described + exact)
        fast.topListThreshold = 10
        var slow = fast
        slow.topListThreshold = .max
        fast.warmTopLists()
        let reached = fast.termMatches.matches(for: "karto", in: fast.trie).prefix.filter { $0.value == 1 }.keys
        #expect(Set(reached.map { fast.trie.token(at: $0) }).isSuperset(of: ["qartox", "kbrtox"]), "one bucket, two lists")
        for limit in [20, 100] {
            let a = fast.search(SearchQuery("karto", limit: limit, now: referenceNow))
            let b = slow.search(SearchQuery("karto", limit: limit, now: referenceNow))
            #expect(b.results.dropFirst(3).allSatisfy { $0.uniqueIdentifier.hasPrefix("a/") }, "titles rank first")
            #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "limit \(limit)")
            #expect(a.total == b.total, "limit \(limit) total")
        }
    }

    @Test(arguments: [11, 12, 13])
    func bestListsAgreeWithEnumeration(seed: UInt64) {
        var fast = engine(corpus(seed, count: 1_500))
        fast.topListThreshold = 10
        var slow = fast
        slow.topListThreshold = Int.max
        // Engagement and a web source on a few documents.
        let someIDs = Array(fast.records.keys.sorted().prefix(40))
        for (n, id) in someIDs.enumerated() where n % 4 == 0 {
            fast.becomeCurrent(activity(for: id, eligible: n % 8 == 0), at: referenceNow.addingTimeInterval(-Double(n) * 600))
            slow.becomeCurrent(activity(for: id, eligible: n % 8 == 0), at: referenceNow.addingTimeInterval(-Double(n) * 600))
        }
        fast.index([item("https://x.example/3", title: "ka web", url: "https://x.example/3")], source: .web)
        slow.index([item("https://x.example/3", title: "ka web", url: "https://x.example/3")], source: .web)
        for query in ["k", "ka", "kar", "s", "sa", "m", "r", "re", "t", "karen", "kamito", "sarenlo", "mitoka", "lorensa", "kamitosalo"] {
            for limit in [1, 5, 20, 50] {
                let a = fast.search(SearchQuery(query, limit: limit, now: referenceNow))
                let b = slow.search(SearchQuery(query, limit: limit, now: referenceNow))
                #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(query) limit \(limit)")
                #expect(a.results.map(\.explanation.key) == b.results.map(\.explanation.key))
                #expect(a.total == b.total, "\(query) total")
            }
        }
        // After changes the lists follow.
        let doomed = Array(fast.records.keys.sorted().prefix(300))
        fast.deleteItems(identifiers: doomed)
        slow.deleteItems(identifiers: doomed)
        fast.index([item("z/1", title: "k"), item("z/2", title: "ka ka")])
        slow.index([item("z/1", title: "k"), item("z/2", title: "ka ka")])
        for query in ["k", "ka", "s"] {
            #expect(fast.ids(query, limit: 30) == slow.ids(query, limit: 30), "\(query) after changes")
        }
    }

    /// Changes keep every cached list a prefix of what a fresh computation
    /// gives (the whole of it when it claims to be complete) and every field
    /// map equal to a fresh one, through inserts that rank first and last,
    /// re-indexed text, and deletes that shrink lists below their capacity.
    @Test func listsAndMapsStayExactUnderChurn() {
        var engine = engine(corpus(21, count: 1_500))
        engine.topListThreshold = 10
        engine.tuning.fieldMapMinimumDocuments = 30
        engine.tuning.fieldMapQueryMinimumSlots = 0
        engine.warmTopLists()
        for query in ["k", "ka", "kar", "sa", "lo", "to"] { _ = engine.ids(query, limit: 20) }
        let commonWords = engine.trie.nodes.indices.filter { engine.trie.nodes[$0].postingList.count >= 40 }
        for node in commonWords { _ = engine.ownFieldMap(Int32(node)) }
        func expectExact(_ stage: String) {
            var fresh = engine
            fresh.topLists = TopListCache()
            let (subtree, own) = engine.topLists.allLists
            #expect(!subtree.isEmpty && !own.isEmpty, "\(stage): lists kept")
            for (node, list) in subtree {
                let count = engine.trie[node].documentCount
                #expect(list.count <= count, "\(stage): node \(node) lists more than it holds")
                #expect(list == Array(fresh.subtreeTopList(node).prefix(list.count)), "\(stage): subtree list of \(node)")
            }
            for (node, list) in own {
                #expect(list == Array(fresh.ownTopList(node).prefix(list.count)), "\(stage): own list of \(node)")
            }
            // A kept map may be shorter or longer than a fresh one: slots
            // past either end hold no field.
            func expectSame(_ maps: [Int32: [UInt8]], _ kind: String, as build: (Int32) -> [UInt8]) {
                #expect(!maps.isEmpty, "\(stage): \(kind)s kept")
                for (node, map) in maps {
                    let built = build(node)
                    let padded = map + [UInt8](repeating: SearchEngine.noField, count: max(0, built.count - map.count))
                    #expect(padded == built + [UInt8](repeating: SearchEngine.noField, count: max(0, map.count - built.count)),
                            "\(stage): \(kind) of \(node)")
                }
            }
            expectSame(engine.topLists.allFieldMaps, "field map") { fresh.subtreeFieldMap($0) }
            expectSame(engine.topLists.allOwnFieldMaps, "own field map") { fresh.ownFieldMap($0) }
        }
        expectExact("warmed")
        let ids = engine.records.keys.sorted()
        // The best of "k…" go, leaving lists short of their capacity…
        engine.deleteItems(identifiers: engine.ids("k", limit: 100))
        expectExact("best deleted")
        // …then documents that rank last and first arrive.
        engine.index((0..<40).map { item("z/low-\($0)", title: "zz \(String(repeating: "word ", count: 30))", description: "ka karen to") })
        engine.index((0..<40).map { item("a/\($0)", title: "k ka") })
        expectExact("inserted")
        // New text for some, deletes of others (their slots reused next).
        engine.index(corpus(22, count: 200).enumerated().map { offset, replacement in
            var changed = replacement
            changed.uniqueIdentifier = ids[offset * 5]
            return changed
        })
        engine.deleteItems(identifiers: Array(ids.suffix(300)))
        engine.index(corpus(23, count: 100))
        expectExact("re-indexed and churned")
    }

    /// Documents that web pages merge into have two sources and rank before
    /// their equals (same field) in every best list, as they do when the
    /// matches are enumerated.
    @Test func mergedDocumentsRankAsEnumerationRanksThem() {
        var items = corpus(14, count: 1_500)
        let owners = Array(stride(from: 0, to: items.count, by: 7))
        for index in owners { items[index].attributeSet.url = "https://m.example/\(index)" }
        var fast = engine(items)
        let pages = owners.map { item("https://m.example/page/\($0)", title: "web", url: "https://m.example/\($0)") }
        fast.index(pages, source: .web)
        fast.topListThreshold = 10
        var slow = fast
        slow.topListThreshold = Int.max
        #expect(fast.search(SearchQuery("web", limit: 1, now: referenceNow)).results.first?.sources.count == 2)
        for query in ["k", "ka", "kar", "s", "sa", "m", "mi", "r", "re", "t", "to", "l", "lo"] {
            for limit in [5, 50] {
                let a = fast.search(SearchQuery(query, limit: limit, now: referenceNow))
                let b = slow.search(SearchQuery(query, limit: limit, now: referenceNow))
                #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(query) limit \(limit)")
                #expect(a.total == b.total, "\(query) total")
            }
        }
    }

    /// One-item inserts and deletes (the bench's update pattern) keep each
    /// list's remembered length and last key true, through lists that are
    /// full (so an insert pushes their last entry out) and lists the item
    /// enters at their end; and the answers stay those of a cold engine.
    @Test func rememberedTailsFollowOneItemChanges() {
        var engine = engine(corpus(24, count: 1_500))
        engine.topListThreshold = 10
        engine.warmTopLists()
        let full = engine.topLists.allLists.subtree.values.filter { $0.count == TopListCache.capacity }
        #expect(!full.isEmpty, "some lists are full")
        let ids = engine.records.keys.sorted()
        for round in 0..<60 {
            // Copies of existing items under new names, some with a short
            // title that ranks first in most of their lists, some with their
            // words in a description under a long title: last in theirs.
            var copy = engine.records[ids[round * 23 % ids.count]]!.item
            copy.uniqueIdentifier = "copy/\(round)"
            switch round % 3 {
            case 0: copy.attributeSet.title = "k"
            case 1:
                copy.attributeSet.contentDescription = copy.attributeSet.title
                copy.attributeSet.title = "zz " + String(repeating: "word ", count: 30)
                copy.attributeSet.keywords = []
            default: break
            }
            engine.index([copy])
            #expect(engine.topLists.nodesWithWrongTails(ranks: engine.ranks).isEmpty, "after insert \(round)")
            if round.isMultiple(of: 4) { continue }
            engine.deleteItems(identifiers: [copy.uniqueIdentifier])
            #expect(engine.topLists.nodesWithWrongTails(ranks: engine.ranks).isEmpty, "after delete \(round)")
        }
        var cold = engine
        cold.topLists = TopListCache()
        for query in ["k", "ka", "s", "sa", "l", "t", "to"] {
            #expect(engine.ids(query, limit: 100) == cold.ids(query, limit: 100), "\(query)")
        }
    }

    /// A batch puts its documents' tokens into the trie in one pass; one
    /// item at a time puts them token by token. Users must not tell the two
    /// apart: the same answers and totals, with cold lists or warm ones.
    @Test func aBatchAnswersAsOneItemAtATimeDoes() {
        let items = corpus(31, count: 1_200)
        var batched = engine(items)
        var single = SearchEngine()
        for item in items { single.index([item]) }
        let queries = ["k", "ka", "kar", "karen", "karne", "sa lo", "to mi", "s", "lo k", "renkar"]
        func expectSame(_ stage: String) {
            for query in queries {
                let a = batched.search(SearchQuery(query, limit: 30, now: referenceNow))
                let b = single.search(SearchQuery(query, limit: 30, now: referenceNow))
                #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(stage): \(query)")
                #expect(a.total == b.total, "\(stage): total of \(query)")
            }
        }
        expectSame("built")
        batched.topListThreshold = 10
        single.topListThreshold = 10
        batched.warmTopLists()
        single.warmTopLists()
        // Replacements and new items while the lists are warm.
        let changes = corpus(32, count: 300).enumerated().map { offset, replacement in
            var changed = replacement
            if offset % 2 == 0 { changed.uniqueIdentifier = items[offset * 3].uniqueIdentifier }
            return changed
        }
        batched.index(changes)
        for item in changes { single.index([item]) }
        expectSame("changed with warm lists")
    }

    @Test func aCopyKeepsItsOwnAnswersWhenTheOriginalChanges() {
        var original = engine(corpus(5, count: 600))
        original.topListThreshold = 10
        let before = original.ids("k", limit: 10)
        let snapshot = original
        original.deleteItems(identifiers: before)
        #expect(snapshot.ids("k", limit: 10) == before)
        #expect(Set(original.ids("k", limit: 10)).isDisjoint(with: before))
    }
}
