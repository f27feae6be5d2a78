import TestSupport
import Testing
@testable import SearchIndex

@Suite struct TrieTests {
    /// Damerau–Levenshtein (optimal string alignment) distance, computed the slow way.
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// The least typos with which `term` matches a prefix of `token`, if within its bound.
    func bruteForce(_ term: String, _ token: String) -> Int? {
        let t = Array(term), k = Array(token)
        let bound = TokenTrie.allowedTypos(forLength: t.count)
        let best = (1...k.count).map { distance(t, Array(k[0..<$0])) }.min()!
        return best <= bound ? best : nil
    }

    @Test(arguments: [1, 2, 3])
    func fuzzyWalkAgreesWithBruteForce(seed: UInt64) {
        var words = RandomWords(seed: seed)
        let (trie, list) = words.trie(of: 300, lengths: 1...10)
        let vocabulary = Set(list)
        for _ in 0..<150 {
            let term = words.word(1...11)
            let matches = trie.matches(for: term)
            var evaluator = TermEvaluator(matches: matches)
            for token in vocabulary {
                let node = trie.find(token)!
                let walked = evaluator.hit(for: node, trie: trie)
                let expected = bruteForce(term, token)
                let expectedWhole = distance(Array(term), Array(token)) <= TokenTrie.allowedTypos(forLength: term.count)
                // The walk's best typo count must equal brute force's (prefix or whole).
                let expectedBest = [expected, expectedWhole ? distance(Array(term), Array(token)) : nil].compactMap { $0 }.min()
                #expect(walked.map { Int($0.typos) } == expectedBest, "term \(term) token \(token)")
            }
        }
    }

    /// With a wide alphabet most children of a node share no scalar with
    /// the term's band, and the walk passes over them without a row each
    /// when the row they would share ends it: it reaches the nodes, with
    /// the typos, of a walk that reads every child, and finds what brute
    /// force finds, swaps and scalars alike in their low bits ("a" and
    /// "!", "é" and "©") included.
    @Test(arguments: [11, 12])
    func aWalkPassingOverChildrenOutOfReachAgreesWithBruteForce(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz!é©北")
        func word(_ lengths: ClosedRange<Int>) -> [Character] {
            (0..<Int.random(in: lengths, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
        }
        var trie = TokenTrie()
        var vocabulary: [String] = []
        for doc in 0..<1_500 {
            let token = String(word(1...12))
            vocabulary.append(token)
            trie.insert(token, posting: .init(doc: UInt32(doc), field: 0))
        }
        var twoTypoHits = 0
        for round in 0..<120 {
            // Most terms are a known word with slips: a swap, a change, a letter more or less.
            var term = round % 4 == 3 ? word(5...12) : Array(vocabulary.randomElement(using: &generator)!)
            guard term.count >= 3 else { continue }
            // Two slips in a term long enough for two typos.
            for slip in 0..<(term.count >= 8 ? 2 : 1) {
                switch (round + slip) % 4 {
                case 0: term.swapAt(1, 2)
                case 1: term[term.count / 2] = alphabet.randomElement(using: &generator)!
                case 2: term.insert(alphabet.randomElement(using: &generator)!, at: term.count - 1)
                default: term.remove(at: term.count / 3)
                }
            }
            let text = String(term)
            let matches = trie.matches(for: text)
            let everyChild = trie.matches(for: text, narrowing: nil, passingOver: false)
            #expect(matches.prefix == everyChild.prefix, "\(text)")
            #expect(matches.whole == everyChild.whole, "\(text)")
            var evaluator = TermEvaluator(matches: matches)
            for token in Set(vocabulary) {
                let node = trie.find(token)!
                let walked = evaluator.hit(for: node, trie: trie).map { Int($0.typos) }
                let whole = distance(term, Array(token))
                let expected = [bruteForce(text, token), whole <= TokenTrie.allowedTypos(forLength: term.count) ? whole : nil]
                    .compactMap { $0 }.min()
                #expect(walked == expected, "term \(text) token \(token)")
                if walked == 2 { twoTypoHits += 1 }
            }
        }
        #expect(twoTypoHits > 20)
    }

    /// Below a path that matched the term with one typo, a child's first
    /// row can end the walk and still match the whole token with two: such
    /// a child is walked, not passed over with the others out of reach.
    @Test func aChildThatEndsAWholeTokenWithinTheBoundIsWalked() {
        var trie = TokenTrie()
        trie.insert("abcdefghj", posting: .init(doc: 1, field: 0))
        let z = trie.insert("abcdefghjz", posting: .init(doc: 2, field: 0))
        let y = trie.insert("abcdefghjy", posting: .init(doc: 3, field: 0))
        let matches = trie.matches(for: "abcdefghi")
        #expect(matches.whole[z] == 2)
        #expect(matches.whole[y] == 2)
        #expect(matches.whole == trie.matches(for: "abcdefghi", narrowing: nil, passingOver: false).whole)
    }

    /// A term walked only below the matches of a shorter term it extends
    /// (the previous keystroke) reaches exactly the nodes, with exactly the
    /// typos, that a whole walk does: for every shorter term with the same
    /// bound, words typed letter by letter from the vocabulary and random.
    @Test(arguments: [4, 5, 6])
    func aWalkNarrowedToTheShorterTermsMatchesFindsTheSame(seed: UInt64) {
        var words = RandomWords(seed: seed)
        let (trie, vocabulary) = words.trie(of: 400, lengths: 1...12)
        var narrowed = 0
        for round in 0..<400 {
            // Half the terms are a known word with a slip in it.
            var term = Array(round.isMultiple(of: 2) ? words.word(5...13) : words.pick(vocabulary) + words.word(0...3))
            if term.count > 2, round % 4 == 1 { term.swapAt(1, 2) }
            guard term.count >= 6 else { continue }
            let whole = trie.matches(for: String(term))
            for length in 5..<term.count
            where TokenTrie.allowedTypos(forLength: length) == TokenTrie.allowedTypos(forLength: term.count) {
                let shorter = trie.matches(for: String(term[..<length]))
                let walked = trie.matches(for: String(term), narrowing: shorter)
                #expect(walked.prefix == whole.prefix, "\(String(term)) after \(String(term[..<length]))")
                #expect(walked.whole == whole.whole, "\(String(term)) after \(String(term[..<length]))")
                if !whole.prefix.isEmpty { narrowed += 1 }
            }
        }
        #expect(narrowed > 150)
    }

    /// A whole walk shared between two threads (forced on a small trie)
    /// reaches exactly the nodes, with exactly the typos, of one walk.
    @Test(arguments: [7, 8])
    func aWalkSplitBetweenThreadsFindsTheSame(seed: UInt64) {
        var words = RandomWords(seed: seed)
        let (trie, vocabulary) = words.trie(of: 400, lengths: 1...12)
        for round in 0..<300 {
            let term = round.isMultiple(of: 2) ? words.word(1...13) : words.pick(vocabulary) + words.word(0...3)
            let one = trie.matches(for: term, narrowing: nil, splittingFrom: .max)
            let split = trie.matches(for: term, narrowing: nil, splittingFrom: 0)
            #expect(split.prefix == one.prefix, "\(term)")
            #expect(split.whole == one.whole, "\(term)")
        }
    }

    /// A path can run past the last row whose band of cells holds the
    /// pattern's end (an insertion inside the term, then more letters): it
    /// must stop there, never read a cell no row wrote.
    @Test func aPathPastTheBandKeepsItsTypos() {
        for (term, token, typos) in [("abcde", "abxcdefg", 1), ("abcdefghi", "abxycdefghijk", 2), ("abcde", "abcdxefgh", 1)] {
            var trie = TokenTrie()
            let node = trie.insert(token, posting: .init(doc: 1, field: 0))
            var evaluator = TermEvaluator(matches: trie.matches(for: term))
            #expect(evaluator.hit(for: node, trie: trie).map { Int($0.typos) } == typos, "\(term) in \(token)")
            #expect(bruteForce(term, token) == typos)
        }
    }

    @Test func removingPostingsPrunesEmptyBranches() {
        var trie = TokenTrie()
        let a = trie.insert("brent", posting: .init(doc: 1, field: 0))
        let b = trie.insert("brenda", posting: .init(doc: 2, field: 0))
        #expect(trie[TokenTrie.root].subtreeCount == 2)
        trie.remove(doc: 2, from: b)
        #expect(trie.find("brenda") == nil)
        #expect(trie.find("brent") == a)
        #expect(trie.find("bren").map { trie[$0].subtreeCount } == 1)
        trie.remove(doc: 1, from: a)
        #expect(trie.children(of: TokenTrie.root).isEmpty)
    }

    /// Path compression: a node only where a token ends or two part, and
    /// a prefix ending inside an edge still reaches exactly the tokens that
    /// start with it, through inserts, removals and re-inserts.
    @Test(arguments: [1, 2])
    func prefixesReachTheirTokensAndChainsAreCompressed(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let alphabet = Array("abc北ë")
        func word() -> String {
            String((0..<Int.random(in: 1...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        var trie = TokenTrie()
        var held: [String: Int32] = [:]
        func expectConsistent(_ stage: String) {
            // Inserts alone leave at most one inner node per token.
            if stage == "inserted" { #expect(trie.nodes.count - 1 <= 2 * held.count, "\(stage): \(trie.nodes.count) nodes") }
            for _ in 0..<200 {
                let prefix = String(word().prefix(Int.random(in: 0...4, using: &generator)))
                let expected = Set(held.keys.filter { $0.hasPrefix(prefix) })
                guard let node = trie.find(prefix) else {
                    #expect(expected.isEmpty, "\(stage): \(prefix) reaches nothing")
                    continue
                }
                var found = Set<String>()
                var stack = [node]
                while let current = stack.popLast() {
                    if !trie[current].postings.isEmpty { found.insert(trie.token(at: current)) }
                    stack.append(contentsOf: trie.children(of: current).map(\.node))
                }
                #expect(found == expected, "\(stage): tokens under \(prefix)")
                #expect(trie[node].subtreeCount == expected.count, "\(stage): count under \(prefix)")
            }
            for (token, node) in held {
                #expect(trie.node(ofToken: token) == node, "\(stage): \(token)")
                #expect(trie.token(at: node) == token)
            }
        }
        for doc in 0..<400 {
            let token = word()
            if held[token] == nil { held[token] = trie.insert(token, posting: .init(doc: UInt32(doc), field: 0)) }
        }
        expectConsistent("inserted")
        for token in held.keys.shuffled(using: &generator).prefix(250) {
            trie.remove(doc: trie[held[token]!].postings[0].doc, from: held[token]!)
            held[token] = nil
        }
        expectConsistent("removed")
        for doc in 400..<600 {
            let token = word()
            if held[token] == nil { held[token] = trie.insert(token, posting: .init(doc: UInt32(doc), field: 0)) }
        }
        expectConsistent("re-inserted")
    }

    /// Pruned nodes' labels are reclaimed: a long session of updates keeps
    /// the pool near what the tokens held spell, and every token readable.
    @Test func labelsOfRemovedTokensAreReclaimed() {
        var generator = SeededGenerator(seed: 4)
        var trie = TokenTrie()
        var held: [String: Int32] = [:]
        for round in 0..<30 {
            for doc in 0..<300 {
                let token = "w" + String(UInt32.random(in: 0..<UInt32.max, using: &generator), radix: 36)
                if held[token] == nil { held[token] = trie.insert(token, posting: .init(doc: UInt32(round * 1_000 + doc), field: 0)) }
            }
            for token in held.keys.shuffled(using: &generator).prefix(held.count / 3) {
                trie.remove(doc: trie[held[token]!].postings[0].doc, from: held[token]!)
                held[token] = nil
            }
        }
        let spelled = held.keys.reduce(0) { $0 + $1.unicodeScalars.count }
        let pool = trie.labelPoolUse
        #expect(pool.total - pool.unused <= spelled)
        #expect(pool.total <= 2 * spelled + 4_096 + 2 * 300 * 8, "pool \(pool.total) for \(spelled) scalars held")
        for (token, node) in held {
            #expect(trie.token(at: node) == token)
            #expect(trie.node(ofToken: token) == node)
        }
    }

    @Test func headsReadOffPathsAreTheHeadsOfTheTokens() {
        var trie = TokenTrie()
        let tokens = ["a", "zoë", "北极光", "北极", "wickfordkarenmi", "ëëëë", "abcdefgh", "abcdefghi", "光k光k光", "x"]
        for (doc, token) in tokens.enumerated() { trie.insert(token, posting: .init(doc: UInt32(doc), field: 0)) }
        // Every node, not only the tokens: prefixes are probed by node too.
        for node in trie.nodes.indices.dropFirst() {
            let text = trie.token(at: Int32(node))
            let read = trie.utf8Head(at: Int32(node))
            #expect(read.head == TokenArena.head(of: text), "\(text)")
            #expect(read.byteCount == text.utf8.count, "\(text)")
        }
    }

    /// A batch insert must leave the trie a one-at-a-time insert would:
    /// the same tokens, each node's postings in the same order, the same
    /// subtree counts, and each posting where the returned place says.
    @Test(arguments: [1, 2, 3])
    func batchInsertBuildsTheTrieOfOneAtATime(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        // Shared prefixes, repeats, prefixes of each other, equal eight-byte
        // heads with different tails, wide scalars.
        let stems = ["br", "bren", "brent", "abcdefgh", "abcdefghij", "abcdefghik", "北极", "北极光", "zoë", "z", "ëë"]
        func token() -> String {
            let stem = stems.randomElement(using: &generator)!
            return stem + String(repeating: "t", count: Int.random(in: 0...2, using: &generator))
        }
        var single = TokenTrie()
        var batched = TokenTrie()
        // Both start from the same history, with freed nodes to reuse.
        for doc in 0..<40 {
            let word = token() + "x\(doc)"
            let a = single.insert(word, posting: .init(doc: UInt32(doc), field: 1))
            let b = batched.insert(word, posting: .init(doc: UInt32(doc), field: 1))
            if doc % 3 == 0 {
                single.remove(doc: UInt32(doc), from: a)
                batched.remove(doc: UInt32(doc), from: b)
            }
        }
        let tokens = (0..<500).map { _ in token() }
        let postings = tokens.indices.map { TokenTrie.Posting(doc: UInt32(100 + $0 / 7), field: UInt8($0 % 4)) }
        for (token, posting) in zip(tokens, postings) { single.insert(token, posting: posting) }
        let (nodes, places) = batched.insertPostings(tokens, heads: tokens.map { TokenArena.head(of: $0) }, postings: postings)
        for index in tokens.indices {
            #expect(batched[nodes[index]].postings[Int(places[index])] == postings[index])
            #expect(batched.token(at: nodes[index]) == tokens[index])
        }
        func contents(_ trie: TokenTrie) -> [String: (postings: [TokenTrie.Posting], subtree: Int)] {
            var out: [String: (postings: [TokenTrie.Posting], subtree: Int)] = [:]
            var stack: [Int32] = [TokenTrie.root]
            while let node = stack.popLast() {
                out[trie.token(at: node)] = (trie[node].postings, trie[node].subtreeCount)
                stack.append(contentsOf: trie.children(of: node).map(\.node))
            }
            return out
        }
        let expected = contents(single), actual = contents(batched)
        #expect(Set(actual.keys) == Set(expected.keys))
        for (token, node) in expected {
            #expect(actual[token]?.postings == node.postings, "postings of \(token)")
            #expect(actual[token]?.subtree == node.subtree, "subtree count of \(token)")
        }
    }

    /// A batch that counts its documents leaves each node the count of
    /// distinct documents that counting each document after its insert
    /// (`countDocument`) gives: tokens that are prefixes of each other,
    /// share eight-byte heads and part after them (in batch order out of
    /// byte order), wide scalars parted inside a scalar's bytes, documents
    /// sharing tokens, slots side by side and far apart.
    @Test(arguments: [1, 2, 3])
    func aCountingBatchCountsEachDocumentOnceInEachNode(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let stems = ["br", "bren", "brent", "abcdefgh", "abcdefghij", "abcdefghik", "abcdefgha", "北极", "北极光", "北京",
                     "zoë", "zoé", "z", "ëë"]
        func document() -> [String] {
            let count = Int.random(in: 1...8, using: &generator)
            let words = (0..<count).map { _ in
                stems.randomElement(using: &generator)! + String(repeating: "t", count: Int.random(in: 0...2, using: &generator))
            }
            var seen = Set<String>()
            return words.filter { seen.insert($0).inserted }
        }
        var single = TokenTrie()
        var batched = TokenTrie()
        func insertCounting(_ words: [String], doc: UInt32, into trie: inout TokenTrie) {
            let nodes = words.map { trie.insert($0, posting: .init(doc: doc, field: 1)) }
            trie.countDocument(tokenNodes: nodes, fields: nodes.map { _ in 1 }, delta: 1)
        }
        // The same history in both, counted a document at a time.
        for doc in 0..<20 {
            let words = document()
            insertCounting(words, doc: UInt32(doc), into: &single)
            insertCounting(words, doc: UInt32(doc), into: &batched)
        }
        let spread = [1, 1, 70_000][Int(seed) - 1]
        var tokens: [String] = []
        var postings: [TokenTrie.Posting] = []
        for doc in 0..<80 {
            let slot = UInt32(100 + doc * spread)
            let words = document()
            insertCounting(words, doc: slot, into: &single)
            tokens += words
            postings += words.map { _ in TokenTrie.Posting(doc: slot, field: 1) }
        }
        let (nodes, places) = batched.insertPostings(
            tokens, heads: tokens.map { TokenArena.head(of: $0) }, postings: postings, countingDocuments: true)
        for index in tokens.indices {
            #expect(batched[nodes[index]].postings[Int(places[index])] == postings[index])
        }
        func counts(_ trie: TokenTrie) -> [String: Int] {
            var out: [String: Int] = [:]
            var stack: [Int32] = [TokenTrie.root]
            while let node = stack.popLast() {
                out[trie.token(at: node)] = trie[node].documentCount
                stack.append(contentsOf: trie.children(of: node).map(\.node))
            }
            return out
        }
        let expected = counts(single)
        #expect(counts(batched) == expected)
        #expect(expected[""] == 100)
    }

    /// A bulk build of several chunks (each chunk's documents built while
    /// the one before goes into the trie, the postings listed at the end)
    /// leaves the trie (each token's postings in order, document and
    /// subtree counts) and gives the answers of the same items indexed one
    /// at a time, token by token; deletes then find the same postings, and
    /// so does a bulk update of them all.
    @Test func aBulkBuildOfSeveralChunksLeavesWhatOneAtATimeLeaves() {
        let count = SearchEngine.refreshChunk + 300
        let words = ["bren", "brenda", "brent", "harbour", "harbor", "北极", "北极光", "zoë", "lantern", "abcdefghij"]
        let items = (0..<count).map { n in
            item("doc/\(n * 7919 % count)", title: "\(words[n % words.count]) \(words[n * 7 % words.count]) \(n % 89)",
                 description: "\(words[n * 3 % words.count])s quay \(n % 13)", keywords: n % 4 == 0 ? ["tide \(n % 5)"] : [])
        }
        let bulk = engine(items)
        var oneByOne = SearchEngine()
        // In identifier order, the slots the bulk build gives.
        for item in items.sorted(by: { $0.uniqueIdentifier < $1.uniqueIdentifier }) { oneByOne.index([item]) }
        func contents(_ trie: TokenTrie) -> [String: [Int]] {
            var out: [String: [Int]] = [:]
            var stack: [Int32] = [TokenTrie.root]
            while let node = stack.popLast() {
                let postings = trie[node].postings.flatMap { [Int($0.doc), Int($0.field)] }
                out[trie.token(at: node)] = [trie[node].documentCount, trie[node].subtreeCount] + postings
                stack.append(contentsOf: trie.children(of: node).map(\.node))
            }
            return out
        }
        let expected = contents(oneByOne.trie)
        #expect(expected[""]?.first == count)
        #expect(contents(bulk.trie) == expected)
        for query in ["bren", "harbour quay", "北极", "zoe", "tide 3", "lanter 4", "brenda brent"] {
            #expect(bulk.ids(query) == oneByOne.ids(query), "\(query)")
        }
        // Deletes find each posting by the place the insert gave it.
        let gone = stride(from: 0, to: count, by: 7).map { "doc/\($0)" }
        var (bulkAfter, oneByOneAfter) = (bulk, oneByOne)
        bulkAfter.deleteItems(identifiers: gone)
        oneByOneAfter.deleteItems(identifiers: gone)
        let remaining = contents(oneByOneAfter.trie)
        #expect(remaining[""]?.first == count - gone.count)
        #expect(contents(bulkAfter.trie) == remaining)
        // A bulk update over documents that exist (each removed as its chunk is
        // placed, while earlier chunks' postings wait to be listed), then deletes
        // that find the updated postings. Removals reorder a list: compared as sets.
        func unordered(_ trie: TokenTrie) -> [String: [Int]] {
            contents(trie).mapValues { (values: [Int]) -> [Int] in
                let postings: [Int] = stride(from: 2, to: values.count, by: 2).map { values[$0] * 4 + values[$0 + 1] }
                return Array(values.prefix(2)) + postings.sorted()
            }
        }
        let changed = items.map { item -> SearchableItem in
            var item = item
            item.attributeSet.title = "\(item.attributeSet.title ?? "") beacon"
            return item
        }
        bulkAfter.index(changed)
        for item in changed.sorted(by: { $0.uniqueIdentifier < $1.uniqueIdentifier }) { oneByOneAfter.index([item]) }
        #expect(unordered(bulkAfter.trie) == unordered(oneByOneAfter.trie))
        for query in ["beacon", "harbour beacon", "lanter 4"] {
            #expect(bulkAfter.ids(query) == oneByOneAfter.ids(query), "\(query)")
        }
        let goneAgain = stride(from: 3, to: count, by: 5).map { "doc/\($0)" }
        bulkAfter.deleteItems(identifiers: goneAgain)
        oneByOneAfter.deleteItems(identifiers: goneAgain)
        #expect(unordered(bulkAfter.trie) == unordered(oneByOneAfter.trie))
    }

    @Test func sharedScalarsStopBeforeAScalarTheBytesPartInside() {
        #expect(TokenTrie.sharedScalarCount("北极", "北京") == 1)
        #expect(TokenTrie.sharedScalarCount("zoë", "zoé") == 2)
        #expect(TokenTrie.sharedScalarCount("bren", "brent") == 4)
        #expect(TokenTrie.sharedScalarCount("", "a") == 0)
        #expect(TokenTrie.compareBytes("abcdefghk", "abcdefghj") > 0)
        #expect(TokenTrie.compareBytes("bre", "bren") < 0)
        #expect(TokenTrie.compareBytes("ë", "ë") == 0)
        // Read off the heads when they differ: the same count.
        let words = ["", "b", "br", "bren", "brent", "abcdefgh", "abcdefgi", "abcdefghij", "北", "北极", "北极光", "北京",
                     "zoë", "zoé", "zo", "ëë", "ë", "a北", "ab北"]
        for a in words {
            for b in words where TokenArena.head(of: a) != TokenArena.head(of: b) {
                #expect(TokenTrie.sharedScalarCount(TokenArena.head(of: a), TokenArena.head(of: b))
                        == TokenTrie.sharedScalarCount(a, b), "\(a) \(b)")
            }
        }
    }

    /// The batch order is by head, then by position, for batches sorted by
    /// comparison and by radix alike (heads that share digits, repeat, or
    /// differ only in their low bytes).
    @Test(arguments: [10, 4_095, 4_096, 30_000])
    func batchOrderIsByHeadThenPosition(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count))
        let pool: [UInt64] = (0..<50).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) }
            + [0, 1, 0xFFFF, 0x1_0000, UInt64.max, 0x6B61_0000_0000_0000, 0x6B61_0000_0000_0001]
        let heads = (0..<count).map { _ in pool.randomElement(using: &generator)! }
        let order = TokenTrie.orderByHead(heads)
        #expect(order == heads.indices.sorted { (heads[$0], $0) < (heads[$1], $1) })
    }

    /// The paths an insert reads first (`touchPaths`) are its tokens'
    /// paths: the nodes they reach are the tokens' own, and a token that
    /// parts from the trie inside an edge, runs past a leaf or starts with
    /// a scalar no child has reaches none; so in a trie of one-byte
    /// labels and of two-byte ones (150 ideographs and an emoji widen the
    /// pool), and after removals.
    @Test(arguments: [21, 22, 23])
    func touchedPathsEndAtTheTokensNodes(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let ideographs = (0x4E00..<0x4E96).map { Character(Unicode.Scalar($0)!) }
        let alphabet = seed == 21 ? Array("abcd") : Array("abé😀") + ideographs
        func word() -> String {
            String((0..<Int.random(in: 1...7, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        var trie = TokenTrie()
        let inserted = (0..<400).map { _ in word() }
        for (doc, token) in inserted.enumerated() { trie.insert(token, posting: .init(doc: UInt32(doc), field: 0)) }
        if seed == 23 {
            for doc in stride(from: 0, to: inserted.count, by: 3) {
                let node = trie.node(ofToken: inserted[doc])!
                let place = trie[node].postings.firstIndex { $0.doc == UInt32(doc) }!
                _ = trie.removePosting(at: UInt32(place), from: node)
            }
        }
        let asked = inserted.prefix(100) + (0..<100).map { _ in word() } + ["zz", "a😀", ""]
        let expected = asked.compactMap { trie.node(ofToken: $0) }
        #expect(expected.count > 20 && expected.count < asked.count)
        #expect(trie.labels.isWide == (seed != 21))
        #expect(trie.touchPaths(of: Array(asked)).sorted() == expected.sorted())
        #expect(trie.touchPaths(of: []).isEmpty)
    }

    /// Children after a node's first live in one pool, a run a node:
    /// runs grow (moved to the pool's end when they are not there), shrink
    /// (leaving places unused) and are rewritten once the unused places
    /// make half the pool, and after a reorder; through all of it every
    /// node's children are its tokens' next steps, in scalar order.
    @Test func childrenInOnePoolFollowInsertsRemovalsAndRewrites() {
        var generator = SeededGenerator(seed: 77)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        // Two letters then one of 26: every two-letter node has many children.
        func word() -> String {
            String((0..<3).map { place in letters[Int.random(in: 0..<(place == 2 ? 26 : 4), using: &generator)] })
        }
        var trie = TokenTrie()
        var held: [String: Int32] = [:]
        var doc: UInt32 = 0
        func expectChildren(_ stage: String) {
            for node in trie.nodes.indices.map(Int32.init) where node == TokenTrie.root || trie[node].parent >= 0 {
                let children = trie.children(of: node)
                #expect(children.count == trie[node].childCount, "\(stage): node \(node) count")
                #expect(zip(children, children.dropFirst()).allSatisfy { $0.scalar < $1.scalar }, "\(stage): node \(node) in order")
                #expect(children.allSatisfy { trie[$0.node].parent == node && trie[$0.node].scalar == $0.scalar },
                        "\(stage): node \(node) links")
            }
            for (token, node) in held { #expect(trie.node(ofToken: token) == node, "\(stage): \(token)") }
            #expect(trie.find("zz") == nil || held.keys.contains { $0.hasPrefix("zz") })
        }
        var sawRewrite = false
        for round in 0..<60 {
            for _ in 0..<300 {
                let token = word()
                guard held[token] == nil else { continue }
                held[token] = trie.insert(token, posting: .init(doc: doc, field: 0))
                doc += 1
            }
            let unusedBefore = trie.unusedChildPlaces
            for token in held.keys.sorted().shuffled(using: &generator).prefix(held.count / 3) {
                trie.remove(doc: trie[held[token]!].postings[0].doc, from: held[token]!)
                held[token] = nil
            }
            if trie.unusedChildPlaces < unusedBefore { sawRewrite = true }
            if round % 20 == 19 {
                let newIndex = trie.reorder()
                held = held.mapValues { newIndex[Int($0)] }
                #expect(trie.unusedChildPlaces == 0, "a reorder lays the pool out afresh")
            }
            expectChildren("round \(round)")
        }
        #expect(held.count > 200 && trie.nodes.indices.contains { trie[Int32($0)].childCount > 10 }, "nodes with many children")
        #expect(sawRewrite, "the unused places made half the pool at least once")
    }
}

/// Words over a five-letter alphabet, so that generated words share
/// prefixes and lie within a typo or two of each other.
struct RandomWords {
    private var generator: SeededGenerator
    private let alphabet = Array("abcde")

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func word(_ lengths: ClosedRange<Int>) -> String {
        String((0..<Int.random(in: lengths, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
    }

    mutating func pick(_ words: [String]) -> String { words.randomElement(using: &generator)! }

    /// A trie of `count` words, one posting each, and the words in order.
    mutating func trie(of count: Int, lengths: ClosedRange<Int>) -> (TokenTrie, [String]) {
        var trie = TokenTrie()
        var words: [String] = []
        for doc in 0..<count {
            let w = word(lengths)
            words.append(w)
            trie.insert(w, posting: .init(doc: UInt32(doc), field: 0))
        }
        return (trie, words)
    }
}
