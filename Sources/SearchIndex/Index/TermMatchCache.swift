import Foundation

/// The trie nodes of recently asked terms, and the code maps of the last
/// few broad ones, each forgotten least recently used first. Typing "anime
/// x" asks for "anime" again at every keystroke of the second word; its
/// typo walk (and its code map) is done once. Any change to the index
/// replaces the cache (the engine holds a fresh one), so an entry never
/// outlives the trie it was computed on.
final class TermMatchCache: @unchecked Sendable {
    /// Terms remembered; the one used least recently is forgotten first.
    static let capacity = 64

    /// Code maps remembered (`SearchEngine+FieldMaps`): a slot's byte
    /// each, so only the last few terms.
    static let codeMapCapacity = 4

    /// How many characters back a new term looks for a remembered one it
    /// extends (a keystroke is one; a paste, or a fast typist, a few).
    static let lookBack = 8

    private let lock = NSLock()
    private var entries: [String: TokenTrie.TermMatches] = [:]
    private var order: [String] = []
    private var codeMaps: [String: TermCodeMap] = [:]
    private var codeMapOrder: [String] = []

    /// The code map of `term` if one is remembered (never computes one).
    func knownCodeMap(for term: String) -> TermCodeMap? {
        lock.lock(); defer { lock.unlock() }
        guard let map = codeMaps[term] else { return nil }
        markUsed(term, order: \.codeMapOrder)
        return map
    }

    /// The code map of `term`, computed by `build` unless remembered.
    func codeMap(for term: String, build: () -> TermCodeMap) -> TermCodeMap {
        remembered(term, in: \.codeMaps, order: \.codeMapOrder, capacity: Self.codeMapCapacity, compute: build)
    }

    /// The matches of `term`, remembered; a new term that extends a
    /// remembered one with the same typo bound (the next keystroke) is
    /// walked only below that one's matches (`TokenTrie.matches(for:narrowing:)`).
    func matches(for term: String, in trie: TokenTrie) -> TokenTrie.TermMatches {
        remembered(term, in: \.entries, order: \.order, capacity: Self.capacity) {
            trie.matches(for: term, narrowing: rememberedMatches(extendedBy: term))
        }
    }

    /// The remembered matches of the longest term that `term` extends by
    /// at most `lookBack` characters with the same typo bound (above zero),
    /// if any. (A bounded look: each candidate is a string to build, and a
    /// pasted query can be long.)
    private func rememberedMatches(extendedBy term: String) -> TokenTrie.TermMatches? {
        let scalars = Array(term.unicodeScalars)
        let bound = TokenTrie.allowedTypos(forLength: scalars.count)
        guard bound > 0 else { return nil }
        lock.lock(); defer { lock.unlock() }
        var length = scalars.count - 1
        while length > 0, length >= scalars.count - Self.lookBack, TokenTrie.allowedTypos(forLength: length) == bound {
            var shorter = String.UnicodeScalarView()
            shorter.append(contentsOf: scalars[..<length])
            if let found = entries[String(shorter)] { return found }
            length -= 1
        }
        return nil
    }

    /// The value remembered for `key`, or `compute`d (outside the lock: a
    /// typo walk or a map takes a while) and remembered, the entry used
    /// least recently forgotten beyond `capacity`. (Forgetting the oldest
    /// instead lost the first word's code map while the second was typed:
    /// "misatonve lenso" mapped "misatonve" again after "l", "le", "len"
    /// and "lens" had each been mapped, 0.4 ms.)
    private func remembered<Value>(
        _ key: String, in entries: ReferenceWritableKeyPath<TermMatchCache, [String: Value]>,
        order: ReferenceWritableKeyPath<TermMatchCache, [String]>, capacity: Int, compute: () -> Value
    ) -> Value {
        lock.lock()
        if let cached = self[keyPath: entries][key] {
            markUsed(key, order: order)
            lock.unlock()
            return cached
        }
        lock.unlock()
        let computed = compute()
        lock.lock(); defer { lock.unlock() }
        if self[keyPath: entries][key] == nil {
            if self[keyPath: order].count == capacity { self[keyPath: entries][self[keyPath: order].removeFirst()] = nil }
            self[keyPath: order].append(key)
        }
        self[keyPath: entries][key] = computed
        return computed
    }

    /// Moves `key` to the end of `order` (the lock held).
    private func markUsed(_ key: String, order: ReferenceWritableKeyPath<TermMatchCache, [String]>) {
        guard self[keyPath: order].last != key, let position = self[keyPath: order].lastIndex(of: key) else { return }
        self[keyPath: order].remove(at: position)
        self[keyPath: order].append(key)
    }
}
