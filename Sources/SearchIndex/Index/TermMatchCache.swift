import Foundation
import SearchSupport

/// The trie nodes of recently asked terms, and the code maps of the last
/// few broad ones, each forgotten least recently used first. Typing "anime
/// x" asks for "anime" again at every keystroke of the second word; its
/// typo walk (and its code map) is done once. Any change to the index
/// replaces the cache (the engine holds a fresh one), so an entry never
/// outlives the trie it was computed on.
final class TermMatchCache: @unchecked Sendable {
    /// Matched nodes remembered, in all terms; the terms used least
    /// recently are forgotten first. Enough for the words of a few hundred
    /// queries: a word typed again is not walked again, where a long
    /// word's walk with two typos is among the costliest steps of a
    /// keystroke. A node is about 20 bytes of dictionary.
    static let capacity = 1_000_000

    /// Code maps remembered (`SearchEngine+FieldMaps`): a slot's byte
    /// each, so only the last few terms.
    static let codeMapCapacity = 4

    /// Scan candidates remembered (`SearchEngine.scanCandidates`): up to
    /// five bytes a slot, so only the last few driving terms. Typing
    /// "usston l…" drives every keystroke of the second word with
    /// "usston", whose candidates come from hundreds of typo nodes.
    static let candidatesCapacity = 4

    /// How many characters back a new term looks for a remembered one it
    /// extends (a keystroke is one; a paste, or a fast typist, a few).
    static let lookBack = 8

    let lock = NSLock()
    private var entries = RecentlyUsed<TokenTrie.TermMatches>(capacity: capacity)
    private var codeMaps = RecentlyUsed<TermCodeMap>(capacity: codeMapCapacity)
    var candidateLists = RecentlyUsed<SearchEngine.ScanCandidates>(capacity: candidatesCapacity)

    /// The code map of `term` if one is remembered (never computes one).
    func knownCodeMap(for term: String) -> TermCodeMap? {
        lock.lock(); defer { lock.unlock() }
        return codeMaps.use(term)
    }

    /// The code map of `term`, computed by `build` unless remembered.
    func codeMap(for term: String, build: () -> TermCodeMap) -> TermCodeMap {
        remembered(term, in: \.codeMaps, weight: { _ in 1 }, compute: build)
    }

    /// The scan candidates of `term` as the driving term, computed by
    /// `build` unless remembered.
    func scanCandidates(for term: String, build: () -> SearchEngine.ScanCandidates) -> SearchEngine.ScanCandidates {
        remembered(term, in: \.candidateLists, weight: { _ in 1 }, compute: build)
    }

    /// The matches of `term`, remembered; a new term that extends a
    /// remembered one with the same typo bound (the next keystroke) is
    /// walked only below that one's matches (`TokenTrie.matches(for:narrowing:)`).
    func matches(for term: String, in trie: TokenTrie) -> TokenTrie.TermMatches {
        remembered(term, in: \.entries, weight: { 1 + $0.prefix.count + $0.whole.count }) {
            trie.matches(for: term, narrowing: rememberedMatches(extendedBy: term))
        }
    }

    /// The remembered matches of the longest term that `term` extends by
    /// at most `lookBack` characters with the same typo bound (above zero),
    /// if any. (A bounded look: each candidate is a string to build, and a
    /// pasted query can be long.)
    private func rememberedMatches(extendedBy term: String) -> TokenTrie.TermMatches? {
        let scalars = term.unicodeScalars
        let count = scalars.count
        let bound = TokenTrie.allowedTypos(forLength: count)
        guard bound > 0 else { return nil }
        lock.lock(); defer { lock.unlock() }
        var length = count - 1
        var end = scalars.index(before: scalars.endIndex)
        while length > 0, length >= count - Self.lookBack, TokenTrie.allowedTypos(forLength: length) == bound {
            // The term's first `length` scalars, as a slice of its own
            // bytes, not built a scalar at a time into a new view (the
            // term's scalars first copied into an array).
            if let found = entries.peek(String(scalars[..<end])) { return found }
            length -= 1
            end = scalars.index(before: end)
        }
        return nil
    }

    /// The value remembered for `key`, or `compute`d (outside the lock: a
    /// typo walk or a map takes a while) and remembered. (Forgetting the
    /// oldest instead of the least recently used would lose the first
    /// word's code map while the second is typed, and map it again.)
    private func remembered<Value>(
        _ key: String, in store: ReferenceWritableKeyPath<TermMatchCache, RecentlyUsed<Value>>,
        weight: (Value) -> Int, compute: () -> Value
    ) -> Value {
        lock.lock()
        if let cached = self[keyPath: store].use(key) {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let computed = compute()
        lock.lock(); defer { lock.unlock() }
        self[keyPath: store].insert(computed, for: key, weight: weight(computed))
        return computed
    }
}
