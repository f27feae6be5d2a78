import Foundation
import Testing
@testable import SearchIndex

/// Where the engine keeps its records (`SearchEngine+Records`): in the
/// documents that say all of them, the rest in the table. Wherever each
/// is kept, `records` reads as the one dictionary of what was indexed.
@Suite struct RecordKeepingTests {
    /// The records a plain dictionary of what was indexed holds.
    private func expectRecords(_ e: SearchEngine, _ model: [String: IndexRecord], _ stage: String) {
        #expect(e.records.count == model.count, "\(stage): count")
        #expect(Set(e.records.keys) == Set(model.keys), "\(stage): keys")
        for (id, record) in model { #expect(e.records[id] == record, "\(stage): \(id)") }
        #expect(e.records[stage + "/none"] == nil)
    }

    @Test func aBulkBuildKeepsEveryRecordInItsDocumentAndNoneApart() {
        // More than a refresh chunk, so the build takes its threaded path.
        let items = (0..<(SearchEngine.refreshChunk + 900)).map { (n: Int) -> SearchableItem in
            let domain: String? = n % 3 == 0 ? "com.a" : nil
            let expiry: Date? = n % 5 == 0 ? Date(timeIntervalSinceReferenceDate: 900_000_000.123456 + Double(n)) : nil
            let visibility: Visibility = n % 2 == 0 ? .public : .private
            return item("doc/\(n)", title: "Lantern \(n)", domain: domain, description: "harbour \(n % 17)",
                        expires: expiry, visibility: visibility)
        }
        let e = engine(items)
        expectRecords(e, Dictionary(uniqueKeysWithValues: items.map { ($0.uniqueIdentifier, IndexRecord(source: .item, item: $0)) }), "bulk")
        #expect(e.recordTable.count == 0)
        #expect(e.memoryUsage()["records"] == 0)
        #expect(e.counts.byDomain["com.a"] == items.filter { $0.domainIdentifier == "com.a" }.count)
        #expect(e.expiredIdentifiers(at: Date(timeIntervalSinceReferenceDate: 900_000_000.123456 + 5))
            == ["doc/0", "doc/5"].sorted())
    }

    /// A page merged into an item says something its document does not:
    /// it stays in the table; a page standing alone, or an item, does not.
    @Test func onlyRecordsNoDocumentSaysAllOfStayApartThroughChanges() {
        let url = "https://x.example/harbour"
        let owner = item("photo/1", title: "Harbour", url: url)
        let page = item(url, title: "Harbour page", description: "page text", url: url)
        var model = ["photo/1": IndexRecord(source: .item, item: owner)]
        var e = engine([owner])
        expectRecords(e, model, "item")
        #expect(e.recordTable.count == 0)

        e.index([page], source: .web)
        model[url] = IndexRecord(source: .web, item: page)
        expectRecords(e, model, "merged page")
        #expect(e.recordTable.count == 1 && e.recordTable[url] != nil)

        // The item moves to another page: the old one stands alone and its
        // document holds it (the item's old record, read back from its
        // document, unlinked the page).
        var moved = owner
        moved.attributeSet.url = "https://x.example/elsewhere"
        e.index([moved])
        model["photo/1"] = IndexRecord(source: .item, item: moved)
        expectRecords(e, model, "moved")
        #expect(e.recordTable.count == 0)
        #expect(e.ids("page") == [url])

        // Back again, then the item goes: the page merges, then stands alone.
        e.index([owner])
        model["photo/1"] = IndexRecord(source: .item, item: owner)
        #expect(e.ids("page") == ["photo/1"])
        e.deleteItems(identifiers: ["photo/1"])
        model["photo/1"] = nil
        expectRecords(e, model, "deleted")
        #expect(e.ids("page") == [url])
        #expect(e.recordTable.count == 0)

        // A view merges into the page's document; its record stays held.
        e.becomeCurrent(activity(for: url), at: referenceNow)
        expectRecords(e, model, "viewed")
        #expect(e.recordTable.count == 0)
        e.deleteItems(identifiers: [url])
        expectRecords(e, [:], "empty")
        #expect(e.records.isEmpty)
    }

    /// A slot is five words: the identifier (two), the domain's shared
    /// object, the shown set's storage (or standalone text), and the small
    /// fields in one (see `Document`).
    @Test func aDocumentSlotIsFiveWords() {
        #expect(MemoryLayout<Document?>.stride == 40)
    }

    /// Slots are read in place as documents (`withDocument`): an optional
    /// document must be laid out as the document itself, and a read must
    /// see each slot's own document, or none for a freed slot.
    @Test func slotsReadInPlaceAreTheirDocuments() {
        #expect(MemoryLayout<Document?>.size == MemoryLayout<Document>.size)
        #expect(MemoryLayout<Document?>.stride == MemoryLayout<Document>.stride)
        var e = SearchEngine()
        e.index((0..<40).map { item("r/\($0)", title: "title \($0)", domain: $0 % 2 == 0 ? "even" : nil) })
        e.deleteItems(identifiers: ["r/7", "r/20"])
        var present = 0
        e.documents.withUnsafeBufferPointer { slots in
            for slot in slots.indices {
                let read = slots.withDocument(at: slot) { ($0.uniqueIdentifier, $0.domainIdentifier, $0.title, $0.leadingBytes) }
                guard let copy = e.documents[slot] else {
                    #expect(read == nil, "slot \(slot)")
                    continue
                }
                present += 1
                #expect(read?.0 == copy.uniqueIdentifier)
                #expect(read?.1 == copy.domainIdentifier)
                #expect(read?.2 == copy.title)
                #expect(read?.3 == copy.attributes?.packed.leadingBytes)
            }
        }
        #expect(present == 38)
    }

    /// Documents of one domain share its object, across batches, a
    /// snapshot's load (within each chunk of 1,024 documents it reads) and
    /// a rebuild; their domain reads back whatever the cache kept.
    @Test func documentsOfADomainShareItsObject() throws {
        func engine(domains: [String]) -> SearchEngine {
            var e = SearchEngine()
            e.index((0..<300).map { index in
                var made = item("x/\(index)", title: "t \(index)")
                made.domainIdentifier = index % 5 == 4 ? nil : domains[index % domains.count]
                return made
            })
            e.index([{ var one = item("y/1", title: "late"); one.domainIdentifier = domains[0]; return one }()])
            return e
        }
        func objects(_ engine: SearchEngine, _ domain: String) -> Int {
            Set(engine.documents.compactMap { $0 }.filter { $0.domainIdentifier == domain }.map { ObjectIdentifier($0.domainObject!) }).count
        }
        func expectDomainsReadBack(_ e: SearchEngine) {
            for (slot, document) in e.documents.enumerated() {
                guard let document else { continue }
                #expect(document.domainIdentifier == e.records[document.uniqueIdentifier]?.item.domainIdentifier, "slot \(slot)")
            }
        }
        let few = engine(domains: ["com.example.one", "com.example.two", "tv-shows"])
        #expect(["com.example.one", "com.example.two", "tv-shows"].allSatisfy { objects(few, $0) == 1 })
        expectDomainsReadBack(few)
        let loaded = try SnapshotTests.load(try SnapshotTests.bytes(of: few))
        #expect(["com.example.one", "com.example.two", "tv-shows"].allSatisfy { objects(loaded, $0) == 1 })
        expectDomainsReadBack(loaded)
        // More domains than the cache keeps: each still reads back.
        let many = engine(domains: (0..<(DomainNames.capacity + 6)).map { "d\($0)" })
        expectDomainsReadBack(many)
        expectDomainsReadBack(try SnapshotTests.load(try SnapshotTests.bytes(of: many)))
    }

    /// A document keeps no expiration: the engine's column is the one
    /// answer, for queries and for the record the document holds.
    @Test func anExpiringHeldRecordReadsBackItsDateAndHidesItsResult() {
        let when = Date(timeIntervalSinceReferenceDate: 800_000_000.000_001)
        var e = engine([item("a/1", title: "Comet", expires: when), item("a/2", title: "Comet tail")])
        #expect(e.recordTable.count == 0)
        #expect(e.records["a/1"]?.item.expirationDate == when)
        #expect(e.ids("comet", now: when.addingTimeInterval(-1)) == ["a/1", "a/2"])
        #expect(e.ids("comet", now: when) == ["a/2"])
        #expect(!e.isVisible("a/1", at: when) && e.isVisible("a/1", at: when.addingTimeInterval(-1)))
        e.index([item("a/1", title: "Comet")])
        #expect(e.records["a/1"]?.item.expirationDate == nil)
        #expect(e.ids("comet", now: when) == ["a/1", "a/2"])
    }

    /// No column of expirations while nothing expires; the first expiring
    /// document makes it, through a snapshot too, and it hides that result.
    @Test func theExpirationsColumnComesWithTheFirstExpiringDocument() throws {
        var e = engine((0..<50).map { item("doc/\($0)", title: "Lantern \($0)") })
        #expect(e.expirations.isEmpty)
        var reloaded = try SnapshotTests.load(try SnapshotTests.bytes(of: e))
        #expect(reloaded.expirations.isEmpty && reloaded.ids("lantern").count == 50)
        let when = Date(timeIntervalSinceReferenceDate: 810_000_000)
        for index in [0, 1] {
            var changed = index == 0 ? e : reloaded
            changed.index([item("doc/7", title: "Lantern 7", expires: when)])
            #expect(changed.expirations.count == 50)
            #expect(changed.ids("lantern", now: when).count == 49)
            #expect(!changed.ids("lantern", now: when).contains("doc/7"))
            #expect(changed.ids("lantern", now: when.addingTimeInterval(-1)).count == 50)
            let again = try SnapshotTests.load(try SnapshotTests.bytes(of: changed))
            #expect(again.ids("lantern", now: when).count == 49)
            if index == 0 { e = changed } else { reloaded = changed }
        }
    }

    /// A snapshot keeps every record, and a load gives each document that
    /// says all of its record that record to hold.
    @Test func aLoadedEngineHoldsTheRecordsItsDocumentsSay() throws {
        let url = "https://x.example/p"
        var e = engine((0..<300).map { item("doc/\($0)", title: "Lantern \($0)", url: $0 == 7 ? url : nil) })
        e.index([item(url, title: "Page", url: url), item("https://x.example/alone", title: "Alone")], source: .web)
        let loaded = try SnapshotTests.load(try SnapshotTests.bytes(of: e))
        #expect(loaded.records == e.records)
        #expect(loaded.records.count == 302)
        #expect(loaded.recordTable.count == 1 && loaded.recordTable[url] != nil)
    }

    /// A batch into an empty engine skips the table (`indexIntoEmpty`):
    /// the engine it makes is the one the table's way makes, byte for byte
    /// in its snapshot, and stays so through the changes that read what
    /// the batch left (pages merging at an item's URL, replacements, deletes).
    @Test func aBatchIntoAnEmptyEngineMakesWhatTheTableWouldMake() throws {
        let count = SearchEngine.refreshChunk + 700
        var items = (0..<count).map { (n: Int) -> SearchableItem in
            item("doc/\(n * 7919 % count)", title: "Lantern \(n % 97)", domain: n % 3 == 0 ? "com.a" : nil,
                 description: "harbour \(n % 17) beacon", keywords: n % 4 == 0 ? ["quay", "tide \(n % 5)"] : [],
                 url: n % 250 == 0 ? "https://x.example/\(n % 500)" : nil,
                 expires: n % 11 == 0 ? Date(timeIntervalSinceReferenceDate: 900_000_000.5 + Double(n)) : nil,
                 visibility: n % 13 == 0 ? .private : .public)
        }
        // The same identifier twice in the batch: the later item stands.
        items.append(item("doc/5", title: "Replaced lantern", description: "second"))
        items.insert(item("doc/9", title: "First of two"), at: 0)
        func build(directly: Bool) -> SearchEngine {
            var e = SearchEngine()
            e.tuning.textDictionaryMinimumBatch = 1_000
            e.tuning.indexesIntoEmptyDirectly = directly
            e.index(items)
            return e
        }
        var direct = build(directly: true)
        var throughTable = build(directly: false)
        #expect(direct.recordTable.count == 0)
        #expect(direct.records.count == count)
        #expect(direct.records["doc/5"]?.item.attributeSet.title == "Replaced lantern")
        #expect(direct.records["doc/9"]?.item.attributeSet.title != "First of two")
        func expectSame(_ stage: String) throws {
            #expect(direct.records == throughTable.records, "\(stage): records")
            let equalBytes = try SnapshotTests.bytes(of: direct) == SnapshotTests.bytes(of: throughTable)
            #expect(equalBytes, "\(stage): snapshot")
            for query in ["lantern 4", "harbour", "replaced", "tide 3", "quay b", "page"] {
                #expect(direct.ids(query) == throughTable.ids(query), "\(stage): \(query)")
            }
        }
        try expectSame("built")
        for e in [0, 1] {
            var engine = e == 0 ? direct : throughTable
            engine.index([item("https://x.example/0", title: "Harbour page", url: "https://x.example/0")], source: .web)
            engine.index([item("doc/0", title: "Moved lantern", url: "https://x.example/moved")])
            engine.deleteItems(identifiers: ["doc/9", "doc/250"])
            if e == 0 { direct = engine } else { throughTable = engine }
        }
        try expectSame("changed")
        // The page merged into an item at its URL (the batch's links were
        // made): a merged page stays in the table.
        #expect(direct.recordTable["https://x.example/0"] != nil)
        #expect(direct.ids("harbour page").first != "https://x.example/0")
    }
}
