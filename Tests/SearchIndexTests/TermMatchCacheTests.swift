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
                return TermCodeMap(codes: [], hits: 0)
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
            _ = cache.codeMap(for: term) { TermCodeMap(codes: [], hits: 0) }
        }
        #expect(cache.knownCodeMap(for: "a") != nil)
        _ = cache.codeMap(for: "e") { TermCodeMap(codes: [], hits: 0) }
        #expect(cache.knownCodeMap(for: "a") != nil)
        #expect(cache.knownCodeMap(for: "b") == nil)
    }
}
