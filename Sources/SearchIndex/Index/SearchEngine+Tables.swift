import Dispatch
import Foundation

/// The identifier-keyed tables: the records no document holds, the
/// identifier → slot map and the merge maps by URL.
///
/// A snapshot load returns the engine before these are built: queries read
/// only the documents, the trie and the per-slot arrays, and hashing every
/// identifier twice would be most of a cold start. They are built on
/// another thread while the first
/// queries run; the first read of one waits for them, and the first change
/// moves them into the engine (`settleTables()`).
extension SearchEngine {
    /// The records no document holds, by identifier (`SearchEngine+Records`).
    package var recordTable: RecordTable {
        get { pendingTables?.wait().records ?? settled.records }
        _modify {
            settleTables()
            yield &settled.records
        }
    }

    /// The slot of each document, by identifier (the table: see `slot(of:)`).
    var slotTable: SlotTable {
        get { pendingTables?.wait().slots ?? settled.slots }
        _modify {
            settleTables()
            yield &settled.slots
        }
    }

    /// The slot of the document `id`, if there is one.
    package func slot(of id: String) -> UInt32? {
        slotTable.slot(of: id, in: documents)
    }

    /// The slot of each document by identifier, as a value to read and
    /// compare (for tests and reports; the engine asks `slot(of:)`).
    var documentIndex: DocumentIndex { DocumentIndex(table: slotTable, documents: documents) }

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

    /// Takes the tables and the owned copies into the engine if a load's
    /// background work is done, without waiting; returns whether it did.
    /// A long-lived owner calls it when idle, so that its queries stop
    /// reading borrowed pages (a page first touched, or a header apart
    /// from its values, made a cold-loaded engine's keystrokes about a
    /// third slower than a built one's).
    @discardableResult
    public mutating func settleLoadIfReady() -> Bool {
        guard let pendingTables, pendingTables.isDone else { return false }
        settleTables()
        return true
    }

    /// Waits for tables still being built and keeps them in the engine;
    /// takes the background copies of the borrowed arena and posting lists
    /// too when they are ready and nothing borrowed has changed since.
    mutating func settleTables() {
        guard pendingTables != nil else { return }
        // Taken when no copy of the engine shares them: left shared, the
        // first change to a million-record table (or to a copied column)
        // would copy it whole.
        let copies: OwnedCopies?
        if isKnownUniquelyReferenced(&pendingTables) {
            settled = pendingTables!.take()
            copies = pendingTables!.takeReadyCopies()
        } else {
            settled = pendingTables!.wait()
            copies = pendingTables!.readyCopies()
        }
        pendingTables = nil
        engagedAtLoad = []
        if let copies {
            if tokens.isBorrowed { tokens = copies.arena }
            trie.adoptPostings(copies.postingLists)
        }
    }
}

extension SearchEngine {
    /// Starts building the identifier-keyed tables of a loaded engine on
    /// another thread, then owned copies of what the load borrowed (its
    /// token arena, its posting lists); the engine answers meanwhile.
    package mutating func startTables(from handOver: TableHandOver, dropping: DroppablePages?) {
        let (borrowedArena, borrowedTrie) = (tokens.isBorrowed ? tokens : nil, trie)
        pendingTables = PendingTables(
            { Self.identifierTables(from: handOver) },
            then: { dropPages in
                OwnedCopies(arena: borrowedArena?.ownedCopy(dropPages) ?? TokenArena(), postingLists: borrowedTrie.ownedPostingCopies(dropPages))
            },
            dropping: dropping)
    }

    /// Records and documents on their way to another thread (the only
    /// reference to the records, so they are moved, not copied).
    package final class TableHandOver: @unchecked Sendable {
        // Touched by one thread at a time: the loader until it starts the
        // work, then only the work.
        var records: [IndexRecord]
        var documents: [Document?]
        package init(records: [IndexRecord], documents: [Document?]) {
            self.records = records
            self.documents = documents
        }
    }

    /// The identifier-keyed tables of a loaded snapshot: the slot map first,
    /// then the merge maps by URL, from the records the documents hold and
    /// the others, and the table of those others.
    ///
    /// The writer saves each record and each document's identifier once (it
    /// writes them from tables keyed by identifier), and the checksum
    /// guards the file; should an identifier come twice all the same, the
    /// last slot and the record read last stand (the load can no longer
    /// refuse the file: the engine is answering by then).
    private static func identifierTables(from handOver: TableHandOver) -> IdentifierTables {
        var tables = IdentifierTables()
        let documents = handOver.documents
        tables.slots.reserveCapacity(documents.count + documents.count / 8, in: documents)
        for slot in documents.indices {
            guard let identifier = documents[slot]?.uniqueIdentifier else { continue }
            tables.slots.set(identifier, slot: UInt32(slot), in: documents)
        }
        // Released here, before the engine can change its documents (a
        // second reference would make that change copy them all); the
        // local copy goes with this function, before any change.
        handOver.documents = []
        func noteURL(of record: IndexRecord) {
            guard let url = record.item.attributeSet.url else { return }
            let id = record.item.uniqueIdentifier
            switch record.source {
            case .item: tables.itemsByURL[url, default: []].insert(id)
            case .web: tables.webByURL[url, default: []].insert(id)
            case .activity: break
            }
        }
        // The expiration does not matter here: any will do.
        for case let document? in documents { document.heldRecord(expiration: .infinity).map(noteURL) }
        for record in handOver.records { noteURL(of: record) }
        // The table keeps the records no document holds (a document written
        // with its record holds it: `SearchEngine+Records`).
        tables.records = RecordTable(records: handOver.records.filter { record in
            guard let slot = tables.slots.slot(of: record.item.uniqueIdentifier, in: documents) else { return true }
            return documents[Int(slot)]?.holdsRecord != true
        })
        // Released here: the table holds its own copy of every record it keeps.
        handOver.records = []
        return tables
    }
}

/// The tables `SearchEngine+Tables` describes.
package struct IdentifierTables: Sendable {
    /// The records no document holds (`SearchEngine+Records`).
    var records = RecordTable()
    var slots = SlotTable()
    var itemsByURL: [String: Set<String>] = [:]
    var webByURL: [String: Set<String>] = [:]
}

/// The slot of each document by identifier: a slot table with the
/// documents its keys are read from.
struct DocumentIndex: Equatable {
    let table: SlotTable
    let documents: [Document?]

    subscript(id: String) -> UInt32? { table.slot(of: id, in: documents) }

    var count: Int { table.count }

    /// Equal when the same identifiers have the same slots.
    static func == (a: DocumentIndex, b: DocumentIndex) -> Bool {
        guard a.count == b.count else { return false }
        for case let document? in a.documents where b[document.uniqueIdentifier] != a[document.uniqueIdentifier] {
            return false
        }
        return true
    }
}

/// Copies, in memory of the process's own, of what a load borrowed from
/// the snapshot file: made in the background after the tables, so that
/// the first change after a load (which must own what it changes) does not
/// copy most of the engine at once (most of it page faults) while the
/// user waits.
package struct OwnedCopies: Sendable {
    var arena: TokenArena
    var postingLists: [FlatColumn<TokenTrie.Posting>?]
}

/// What lends a load its bytes, when it can let go of the pages it has
/// mapped (they come back from the page cache when read again).
public protocol DroppablePages: AnyObject, Sendable {
    /// Drops every page mapped.
    func dropPages()
    /// Drops the whole pages inside `bytes` (part of what is mapped).
    func dropPages(in bytes: UnsafeRawBufferPointer)
}

/// Tables being built on another thread, then the owned copies.
package final class PendingTables: @unchecked Sendable {
    /// What the worker makes. The worker holds this, not the
    /// `PendingTables`, so an engine that holds the only reference to the
    /// latter can take the results out (`take`) while the worker is still
    /// finishing: shared, they would be copied by the first change.
    private final class Results: @unchecked Sendable {
        // Each written once on the worker before its group is left; read,
        // or taken, only after waiting on that group.
        var tables: IdentifierTables?
        var copies: OwnedCopies?
    }

    private let results = Results()
    private let group = DispatchGroup()
    private let copiesGroup = DispatchGroup()

    /// `copy` is handed a function that drops the lender's mapped pages
    /// of some bytes, to call with each large part it has copied.
    package init(
        _ work: @escaping @Sendable () -> IdentifierTables,
        then copy: @escaping @Sendable (_ dropPages: (UnsafeRawBufferPointer) -> Void) -> OwnedCopies,
        dropping: DroppablePages? = nil
    ) {
        group.enter()
        copiesGroup.enter()
        // At the lowest priority: the load's own threads and the first
        // queries come first; it gets every idle core, and one waiting for
        // it leaves a core idle.
        // (On Linux a nice value is the calling thread's, not the process's.)
        let (results, group, copiesGroup) = (results, group, copiesGroup)
        let thread = Thread {
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            // The tables read every record's set, and copying reads the
            // borrowed half of the file: their pages are dropped as each
            // part is done, or they would count in the process until it
            // ends, raising its peak. The copies drop only the pages they
            // read: dropping the whole mapping after each part would take
            // away the pages of the sets and lists the keystrokes are
            // reading meanwhile, which they would fault in again.
            results.tables = work()
            group.leave()
            dropping?.dropPages()
            results.copies = copy { dropping?.dropPages(in: $0) }
            copiesGroup.leave()
        }
        thread.start()
    }

    func wait() -> IdentifierTables {
        group.wait()
        return results.tables!
    }

    /// The owned copies if they are made, without waiting for them.
    func readyCopies() -> OwnedCopies? {
        copiesGroup.wait(timeout: .now()) == .success ? results.copies : nil
    }

    /// `readyCopies()`, no longer held here (the caller holds the only reference).
    func takeReadyCopies() -> OwnedCopies? {
        guard copiesGroup.wait(timeout: .now()) == .success else { return nil }
        defer { results.copies = nil }
        return results.copies
    }

    /// Whether the tables and the copies are both made.
    var isDone: Bool { copiesGroup.wait(timeout: .now()) == .success }

    /// Waits for the owned copies (for tests).
    func waitForCopies() { copiesGroup.wait() }

    /// The tables, no longer held here (the caller holds the only reference).
    func take() -> IdentifierTables {
        group.wait()
        defer { results.tables = nil }
        return results.tables!
    }
}
