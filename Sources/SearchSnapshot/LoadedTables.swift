import Dispatch
import Foundation
import SearchIndex

/// A loaded engine's identifier tables (`SearchEngine+Tables`), built on a
/// thread of their own while the first queries run, then owned copies of
/// what the load borrowed from the file.
extension SearchEngine {
    /// Starts building the identifier-keyed tables of a loaded engine on
    /// another thread, then owned copies of what the load borrowed (its
    /// token arena, its posting lists); the engine answers meanwhile.
    mutating func startTables(from handOver: TableHandOver, dropping: DroppablePages?) {
        let (borrowedArena, borrowedTrie) = (tokens.isBorrowed ? tokens : nil, trie)
        pendingTables = PendingLoad(PendingTables(
            { Self.identifierTables(from: handOver) },
            then: { dropPages in
                OwnedCopies(arena: borrowedArena?.ownedCopy(dropPages) ?? TokenArena(), postingLists: borrowedTrie.ownedPostingCopies(dropPages))
            },
            dropping: dropping))
    }

    /// Records and documents on their way to another thread (the only
    /// reference to the records, so they are moved, not copied).
    final class TableHandOver: @unchecked Sendable {
        // Touched by one thread at a time: the loader until it starts the
        // work, then only the work.
        var records: [IndexRecord]
        var documents: [Document?]
        init(records: [IndexRecord], documents: [Document?]) {
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

/// Tables being built on another thread, then the owned copies.
final class PendingTables: BackgroundTables, @unchecked Sendable {
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
    let copiesGroup = DispatchGroup()

    /// `copy` is handed a function that drops the lender's mapped pages
    /// of some bytes, to call with each large part it has copied.
    init(
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

    package func wait() -> IdentifierTables {
        group.wait()
        return results.tables!
    }

    /// The owned copies if they are made, without waiting for them.
    package func readyCopies() -> OwnedCopies? {
        copiesGroup.wait(timeout: .now()) == .success ? results.copies : nil
    }

    /// `readyCopies()`, no longer held here (the caller holds the only reference).
    package func takeReadyCopies() -> OwnedCopies? {
        guard copiesGroup.wait(timeout: .now()) == .success else { return nil }
        defer { results.copies = nil }
        return results.copies
    }

    /// Whether the tables and the copies are both made.
    package var isDone: Bool { copiesGroup.wait(timeout: .now()) == .success }

    /// The tables, no longer held here (the caller holds the only reference).
    package func take() -> IdentifierTables {
        group.wait()
        defer { results.tables = nil }
        return results.tables!
    }
}
