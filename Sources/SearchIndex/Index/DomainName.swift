import Foundation

/// A domain identifier as documents keep it: one object for the documents
/// of a batch in the same domain, so a document holds a reference of 8
/// bytes where a `String?` took 16 (a slot 48 → 40 bytes: 8 MB at a
/// million items).
final class DomainName: Sendable {
    let value: String

    init(_ value: String) {
        self.value = value
    }
}

/// The domain objects recently handed out by an engine, so that documents
/// of the same domain share one (`name(for:)`). A handful are kept, not
/// every domain ever seen: with as many domains as items, each document
/// has its own, and a deleted domain's object goes with its documents.
final class DomainNames: @unchecked Sendable {
    // Sendable: every access holds the lock.
    private let lock = NSLock()
    private var cache = DomainNameCache()

    /// Domains kept; past it the cache starts again.
    static let capacity = 64

    /// The shared object for `value` (nil for no domain).
    func name(for value: String?) -> DomainName? {
        lock.lock(); defer { lock.unlock() }
        return cache.name(for: value)
    }
}

/// The domain objects one owner has made recently: what `DomainNames`
/// keeps behind its lock, and what each chunk of a snapshot's documents
/// keeps on its own reading thread (through the shared lock, and with
/// the same objects retained from both cores, the lock and the contended
/// counts were a sixth of a 1M load). A loaded index so has an object per
/// domain in each chunk (1,024 documents), not one.
struct DomainNameCache {
    private var last: DomainName?
    private var recent: [String: DomainName] = [:]

    /// The object for `value` (nil for no domain).
    mutating func name(for value: String?) -> DomainName? {
        guard let value else { return nil }
        // Most documents come in runs of one domain.
        if let last, last.value == value { return last }
        if let known = recent[value] {
            last = known
            return known
        }
        if recent.count >= DomainNames.capacity { recent.removeAll(keepingCapacity: true) }
        let made = DomainName(value)
        recent[value] = made
        last = made
        return made
    }
}
