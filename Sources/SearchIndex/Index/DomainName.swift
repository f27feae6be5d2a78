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
    private var recent: [String: DomainName] = [:]
    private var last: DomainName?

    /// Domains kept; past it the cache starts again.
    static let capacity = 64

    /// The shared object for `value` (nil for no domain).
    func name(for value: String?) -> DomainName? {
        guard let value else { return nil }
        lock.lock(); defer { lock.unlock() }
        // Most documents come in runs of one domain.
        if let last, last.value == value { return last }
        if let known = recent[value] {
            last = known
            return known
        }
        if recent.count >= Self.capacity { recent.removeAll(keepingCapacity: true) }
        let made = DomainName(value)
        recent[value] = made
        last = made
        return made
    }
}

/// The domain objects of one chunk of a snapshot's documents, made by the
/// thread that reads it: no lock, and no reference count that both
/// threads' retains would contend for (through `DomainNames`, the lock
/// and the shared counts were a sixth of a 1M load). A loaded index so
/// has an object per domain in each chunk (1,024 documents), not one.
struct ChunkDomainNames {
    private var last: DomainName?
    private var known: [String: DomainName] = [:]

    /// The chunk's object for `value` (nil for no domain).
    mutating func name(for value: String?) -> DomainName? {
        guard let value else { return nil }
        if let last, last.value == value { return last }
        if let found = known[value] {
            last = found
            return found
        }
        let made = DomainName(value)
        if known.count >= DomainNames.capacity { known.removeAll(keepingCapacity: true) }
        known[value] = made
        last = made
        return made
    }
}
