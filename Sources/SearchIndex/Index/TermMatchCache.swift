import Foundation

/// The trie nodes of recently asked terms, and the code maps of the last
/// few broad ones. Typing "anime x" asks for "anime" again at every
/// keystroke of the second word; its typo walk (and its code map) is done
/// once. Any change to the index replaces the cache (the engine holds a
/// fresh one), so an entry never outlives the trie it was computed on.
final class TermMatchCache: @unchecked Sendable {
    /// Terms remembered; the oldest is forgotten first.
    static let capacity = 64

    /// Code maps remembered (`SearchEngine+FieldMaps`): a slot's byte
    /// each, so only the last few terms.
    static let codeMapCapacity = 4

    private let lock = NSLock()
    private var entries: [String: TokenTrie.TermMatches] = [:]
    private var order: [String] = []
    private var codeMaps: [String: [UInt8]] = [:]
    private var codeMapOrder: [String] = []

    /// The code map of `term` if one is remembered (never computes one).
    func knownCodeMap(for term: String) -> [UInt8]? {
        lock.lock(); defer { lock.unlock() }
        return codeMaps[term]
    }

    /// The code map of `term`, computed by `build` unless remembered.
    func codeMap(for term: String, build: () -> [UInt8]) -> [UInt8] {
        lock.lock()
        if let cached = codeMaps[term] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let computed = build()
        lock.lock(); defer { lock.unlock() }
        if codeMaps[term] == nil {
            if codeMapOrder.count == Self.codeMapCapacity { codeMaps[codeMapOrder.removeFirst()] = nil }
            codeMapOrder.append(term)
        }
        codeMaps[term] = computed
        return computed
    }

    func matches(for term: String, in trie: TokenTrie) -> TokenTrie.TermMatches {
        lock.lock()
        if let cached = entries[term] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let computed = trie.matches(for: term)
        lock.lock(); defer { lock.unlock() }
        if entries[term] == nil {
            if order.count == Self.capacity { entries[order.removeFirst()] = nil }
            order.append(term)
        }
        entries[term] = computed
        return computed
    }
}
