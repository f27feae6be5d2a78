import Foundation

/// The trie nodes of recently asked terms. Typing "anime x" asks for
/// "anime" again at every keystroke of the second word; its typo walk is
/// done once. Any change to the index replaces the cache (the engine holds
/// a fresh one), so an entry never outlives the trie it was computed on.
final class TermMatchCache: @unchecked Sendable {
    /// Terms remembered; the oldest is forgotten first.
    static let capacity = 64

    private let lock = NSLock()
    private var entries: [String: TokenTrie.TermMatches] = [:]
    private var order: [String] = []

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
