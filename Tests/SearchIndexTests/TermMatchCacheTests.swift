import Testing
@testable import SearchIndex

@Suite struct TermMatchCacheTests {
    /// While a second word is typed, each keystroke maps a new term, and
    /// the first word's map is asked for again at every one: it stays
    /// remembered (forgetting the oldest first rebuilt it after four
    /// keystrokes of the second word).
    @Test func aMapInUseOutlivesNewerOnes() {
        let cache = TermMatchCache()
        var built: [String] = []
        func map(_ term: String) {
            _ = cache.codeMap(for: term) {
                built.append(term)
                return TermCodeMap.made(codes: [], hits: 0)
            }
        }
        map("misatonve")
        for second in ["l", "le", "len", "lens", "lenso"] {
            map("misatonve")
            map(second)
        }
        #expect(built == ["misatonve", "l", "le", "len", "lens", "lenso"])
        #expect(cache.knownCodeMap(for: "misatonve") != nil)
        #expect(cache.knownCodeMap(for: "l") == nil)
    }

    /// A map read where it is only looked up (the scan reads a broad
    /// term's map per candidate) counts as used as well.
    @Test func aMapLookedUpCountsAsUsed() {
        let cache = TermMatchCache()
        for term in ["a", "b", "c", "d"] {
            _ = cache.codeMap(for: term) { TermCodeMap.made(codes: [], hits: 0) }
        }
        #expect(cache.knownCodeMap(for: "a") != nil)
        _ = cache.codeMap(for: "e") { TermCodeMap.made(codes: [], hits: 0) }
        #expect(cache.knownCodeMap(for: "a") != nil)
        #expect(cache.knownCodeMap(for: "b") == nil)
    }

    /// A term that extends a remembered one (the next keystroke, or a few
    /// characters pasted) is walked only below that one's matches, found
    /// by the term's first scalars, whatever their bytes. Shown by
    /// remembering the shorter term's matches from a trie without the
    /// words (none), which only a test does: walked below none, the longer
    /// term finds none either, where a whole walk finds them.
    @Test func aTermExtendingARememberedOneIsWalkedBelowItsMatches() {
        var trie = TokenTrie()
        for (doc, word) in ["москвариум", "москва", "мостик"].enumerated() {
            trie.insert(word, posting: .init(doc: UInt32(doc), field: 0))
        }
        var other = TokenTrie()
        other.insert("berlin", posting: .init(doc: 0, field: 0))
        for term in ["москва", "москвари"] {
            #expect(!trie.matches(for: term, narrowing: nil).prefix.isEmpty, "\(term)")
        }
        let cache = TermMatchCache()
        #expect(cache.matches(for: "москв", in: other).prefix.isEmpty)
        // One scalar more, then three at once (past "москвар", which is not remembered).
        #expect(cache.matches(for: "москва", in: trie).prefix.isEmpty)
        #expect(cache.matches(for: "москвари", in: trie).prefix.isEmpty)
        // With nothing remembered before it, a term is walked whole.
        #expect(!TermMatchCache().matches(for: "москва", in: trie).prefix.isEmpty)
    }
}
