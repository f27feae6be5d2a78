import Foundation

/// A domain identifier as documents keep it: one object for the documents
/// of a batch in the same domain, so a document holds a reference of 8
/// bytes where a `String?` takes 16 (a slot of 40 bytes, not 48).
package final class DomainName: Sendable {
    package let value: String

    package init(_ value: String) {
        self.value = value
    }
}

/// The domain objects recently handed out by an engine, so that documents
/// of the same domain share one (`name(for:)`). A handful are kept, not
/// every domain ever seen: with as many domains as items, each document
/// has its own, and a deleted domain's object goes with its documents.
package final class DomainNames: @unchecked Sendable {
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
/// keeps behind its lock. (A snapshot's documents find theirs by their
/// bytes instead, with a cache for each chunk: `SnapshotDomainNames`.)
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
