/// Where the engine keeps its records: most in their documents.
///
/// A record whose document was built from it alone as the primary (the
/// common case: an item with its own document) says nothing its document
/// does not: identifier, domain, set, expiration and visibility are the
/// document's fields, and the source is a byte in its spare room. Such a
/// document *holds* its record, and the table keeps only the others (web
/// pages merged into an item, records whose document is being rebuilt):
///
/// ```
///  findRecord(id):  recordTable[id] ──(none)──► slot(of: id) ──► documents[slot].heldRecord
///
///  refresh:     documents to rebuild ──releaseHeldRecords──► table     (the builders read it)
///               built documents that hold ──letDocumentsHoldRecords──► leave the table
/// ```
///
/// Why: kept twice, each record would cost its table entry, bucket and
/// room beside a document that says the same.
/// A record held is read back whole (`Document.heldRecord`): no keystroke
/// reads records, only changes, saves and reports do.
extension SearchEngine {
    /// Items and web pages, by identifier: the table's and those their
    /// documents hold. A view of the engine as it is now: read it and let
    /// it go (kept while the engine changes, it makes each change copy the
    /// documents it shares).
    public var records: IndexRecords {
        IndexRecords(table: recordTable, documents: documents, expirations: expirations, slots: slotTable)
    }

    /// The record `id`, from the table or its document (what `records[id]`
    /// says, without making the view: builders on two cores ask it for
    /// every document).
    func findRecord(_ id: String) -> IndexRecord? {
        IndexRecords.record(id, table: recordTable, documents: documents, expirations: expirations, slots: slotTable)
    }

    /// Every record, the table's then the held ones.
    var allRecords: some Sequence<IndexRecord> { records.values }

    /// Puts `record` in the table under its identifier; returns the record
    /// it replaces, from the table or from the document that held it.
    mutating func replaceRecord(with record: IndexRecord) -> IndexRecord? {
        let held = releaseHeldRecord(record.item.uniqueIdentifier)
        return recordTable.updateValue(record, forKey: record.item.uniqueIdentifier) ?? held
    }

    /// Removes the record `id`, wherever it is kept; returns it.
    mutating func takeRecord(_ id: String) -> IndexRecord? {
        recordTable.removeValue(forKey: id) ?? releaseHeldRecord(id)
    }

    /// The record the document `id` holds, taken out of it (the document
    /// stays until its refresh).
    private mutating func releaseHeldRecord(_ id: String) -> IndexRecord? {
        guard slotTable.count > 0, let slot = slot(of: id), documents[Int(slot)]?.holdsRecord == true else { return nil }
        return documents[Int(slot)]!.releaseRecord(expiration: expiration(ofSlot: Int(slot)))
    }

    /// Moves the records held by the documents of `ids` into the table,
    /// before those documents are rebuilt: the builders read records from
    /// the table alone (a copy of it, on other threads).
    mutating func releaseHeldRecords(_ ids: [String]) {
        guard slotTable.count > 0 else { return }
        for id in ids {
            if let record = releaseHeldRecord(id) { recordTable.updateValue(record, forKey: id) }
        }
    }

    /// Lets the table go of the records of `ids`, whose new documents hold
    /// them. When they are all it holds (a bulk build into a new index),
    /// the table is dropped whole, buckets and room with it.
    mutating func letDocumentsHoldRecords(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        if ids.count == recordTable.count {
            recordTable = RecordTable()
            return
        }
        for id in ids { recordTable.removeValue(forKey: id) }
        recordTable.shrinkIfSparse()
    }
}

/// The index's records by identifier: those in the engine's table and
/// those their documents hold (`SearchEngine+Records`), read as one
/// dictionary.
public struct IndexRecords: Sendable {
    let table: RecordTable
    let documents: [Document?]
    let expirations: [Double]
    let slots: SlotTable

    /// The record with identifier `id`, if any.
    public subscript(id: String) -> IndexRecord? {
        Self.record(id, table: table, documents: documents, expirations: expirations, slots: slots)
    }

    /// The record `id`: the table's, else the one its document holds.
    static func record(
        _ id: String, table: RecordTable, documents: [Document?], expirations: [Double], slots: SlotTable
    ) -> IndexRecord? {
        if let record = table[id] { return record }
        guard let slot = slots.slot(of: id, in: documents) else { return nil }
        return heldRecord(at: Int(slot), documents: documents, expirations: expirations)
    }

    private static func heldRecord(at slot: Int, documents: [Document?], expirations: [Double]) -> IndexRecord? {
        documents[slot]?.heldRecord(expiration: SearchEngine.expiration(ofSlot: slot, in: expirations))
    }

    /// How many records there are (counts the documents that hold one).
    public var count: Int {
        table.count + documents.reduce(0) { $0 + ($1?.holdsRecord == true ? 1 : 0) }
    }

    public var isEmpty: Bool { table.isEmpty && !documents.contains { $0?.holdsRecord == true } }

    /// The records, in no particular order.
    public var values: some Sequence<IndexRecord> {
        let (documents, expirations) = (documents, expirations)
        let held = documents.indices.lazy.compactMap { Self.heldRecord(at: $0, documents: documents, expirations: expirations) }
        return sequence(state: (table.values.makeIterator(), held.makeIterator())) { state in
            state.0.next() ?? state.1.next()
        }
    }

    /// The identifiers, in no particular order.
    public var keys: some Sequence<String> { values.lazy.map(\.item.uniqueIdentifier) }
}

extension IndexRecords: Equatable {
    /// Equal when they hold the same records under the same identifiers,
    /// wherever each is kept (as dictionaries are equal).
    public static func == (a: IndexRecords, b: IndexRecords) -> Bool {
        a.count == b.count && a.values.allSatisfy { b[$0.item.uniqueIdentifier] == $0 }
    }
}
