import Dispatch
import Foundation

/// The identifier-keyed tables: the records, the identifier → slot map and
/// the merge maps by URL.
///
/// A snapshot load returns the engine before these are built: queries read
/// only the documents, the trie and the per-slot arrays, and hashing a
/// million identifiers twice was most of a cold start (0.8 s of CPU at a
/// million items). They are built on another thread while the first
/// queries run; the first read of one waits for them, and the first change
/// moves them into the engine (`settleTables()`).
extension SearchEngine {
    /// Items and web pages, by identifier.
    public internal(set) var records: [String: IndexRecord] {
        get { pendingTables?.wait().records ?? settled.records }
        _modify {
            settleTables()
            yield &settled.records
        }
    }

    /// The slot of each document, by identifier.
    var documentIndex: [String: UInt32] {
        get { pendingTables?.wait().documentIndex ?? settled.documentIndex }
        _modify {
            settleTables()
            yield &settled.documentIndex
        }
    }

    /// Items by page URL, so a crawled page merges with its item (the one
    /// with the smallest identifier when several share a page).
    var itemsByURL: [String: Set<String>] {
        get { pendingTables?.wait().itemsByURL ?? settled.itemsByURL }
        _modify {
            settleTables()
            yield &settled.itemsByURL
        }
    }

    /// Web records by page URL.
    var webByURL: [String: Set<String>] {
        get { pendingTables?.wait().webByURL ?? settled.webByURL }
        _modify {
            settleTables()
            yield &settled.webByURL
        }
    }

    /// Waits for tables still being built and keeps them in the engine.
    mutating func settleTables() {
        guard pendingTables != nil else { return }
        // Taken when no copy of the engine shares them: left shared, the
        // first change to a million-record table would copy it whole.
        settled = isKnownUniquelyReferenced(&pendingTables) ? pendingTables!.take() : pendingTables!.wait()
        pendingTables = nil
    }
}

/// The tables `SearchEngine+Tables` describes.
struct IdentifierTables: Sendable {
    var records: [String: IndexRecord] = [:]
    var documentIndex: [String: UInt32] = [:]
    var itemsByURL: [String: Set<String>] = [:]
    var webByURL: [String: Set<String>] = [:]
}

/// Tables being built on another thread.
final class PendingTables: @unchecked Sendable {
    // Written once on the worker before `group` is left; read, or taken by
    // the only engine that holds this, after waiting on it.
    private var result: IdentifierTables?
    private let group = DispatchGroup()

    init(_ work: @escaping @Sendable () -> IdentifierTables) {
        group.enter()
        // At the lowest priority: the load's own threads and the first
        // queries come first (at the same priority, this work took a core
        // from the trie's build, and the load took up to twice as long);
        // it gets every idle core, and one waiting for it leaves a core idle.
        // (On Linux a nice value is the calling thread's, not the process's.)
        let thread = Thread {
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            self.result = work()
            self.group.leave()
        }
        thread.start()
    }

    func wait() -> IdentifierTables {
        group.wait()
        return result!
    }

    /// The tables, no longer held here (the caller holds the only reference).
    func take() -> IdentifierTables {
        group.wait()
        defer { result = nil }
        return result!
    }
}
