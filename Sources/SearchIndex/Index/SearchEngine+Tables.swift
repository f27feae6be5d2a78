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
        get { pendingTables?.tables.wait().records ?? settled.records }
        _modify {
            settleTables()
            yield &settled.records
        }
    }

    /// The slot of each document, by identifier (the table: see `slot(of:)`).
    var slotTable: SlotTable {
        get { pendingTables?.tables.wait().slots ?? settled.slots }
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
        get { pendingTables?.tables.wait().itemsByURL ?? settled.itemsByURL }
        _modify {
            settleTables()
            yield &settled.itemsByURL
        }
    }

    /// Web records by page URL.
    var webByURL: [String: Set<String>] {
        get { pendingTables?.tables.wait().webByURL ?? settled.webByURL }
        _modify {
            settleTables()
            yield &settled.webByURL
        }
    }

    /// Takes the tables and the owned copies into the engine if a load's
    /// background work is done, without waiting; returns whether it did.
    /// A long-lived owner calls it when idle, so that its queries stop
    /// reading borrowed pages (each first touch a fault, a header apart
    /// from its values).
    @discardableResult
    public mutating func settleLoadIfReady() -> Bool {
        guard let pendingTables, pendingTables.tables.isDone else { return false }
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
            settled = pendingTables!.tables.take()
            copies = pendingTables!.tables.takeReadyCopies()
        } else {
            settled = pendingTables!.tables.wait()
            copies = pendingTables!.tables.readyCopies()
        }
        pendingTables = nil
        engagedAtLoad = []
        if let copies {
            if tokens.isBorrowed { tokens = copies.arena }
            trie.adoptPostings(copies.postingLists)
        }
    }
}

/// The tables `SearchEngine+Tables` describes.
package struct IdentifierTables: Sendable {
    /// The records no document holds (`SearchEngine+Records`).
    package var records = RecordTable()
    package var slots = SlotTable()
    package var itemsByURL: [String: Set<String>] = [:]
    package var webByURL: [String: Set<String>] = [:]

    package init() {}
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
    package var arena: TokenArena
    package var postingLists: [FlatColumn<TokenTrie.Posting>?]

    package init(arena: TokenArena, postingLists: [FlatColumn<TokenTrie.Posting>?]) {
        self.arena = arena
        self.postingLists = postingLists
    }
}

/// What lends a load its bytes, when it can let go of the pages it has
/// mapped (they come back from the page cache when read again).
public protocol DroppablePages: AnyObject, Sendable {
    /// Drops every page mapped.
    func dropPages()
    /// Drops the whole pages inside `bytes` (part of what is mapped).
    func dropPages(in bytes: UnsafeRawBufferPointer)
}

/// The identifier tables and owned copies a snapshot load makes on another
/// thread while the engine answers (`SearchSnapshot`): read through
/// `wait()` until `settleTables()` moves them into the engine.
package protocol BackgroundTables: AnyObject, Sendable {
    /// Whether the tables and the copies are both made.
    var isDone: Bool { get }
    /// The tables, once made.
    func wait() -> IdentifierTables
    /// The tables, no longer held here (the caller holds the only reference).
    func take() -> IdentifierTables
    /// The owned copies if they are made, without waiting for them.
    func readyCopies() -> OwnedCopies?
    /// `readyCopies()`, no longer held here (the caller holds the only reference).
    func takeReadyCopies() -> OwnedCopies?
}

/// A load's tables in progress, one object that copies of the engine
/// share: the engine takes the tables out only while it holds the only
/// reference (`settleTables()`).
package final class PendingLoad: Sendable {
    let tables: any BackgroundTables

    package init(_ tables: any BackgroundTables) {
        self.tables = tables
    }
}
