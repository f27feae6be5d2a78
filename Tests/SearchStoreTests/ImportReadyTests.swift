import Foundation
import Testing
@testable import SearchIndex
@testable import SearchStore

/// An import leaves the index ready for the next process, with each record
/// on disk once: in the store, its set read from there by the snapshot.
@Suite struct ImportReadyTests {
    /// Enough items that the engine's change is made beside the store's write.
    static let items = (0..<(PersistentIndex.concurrentBuildMinimum + 500)).map { number in
        var item = sampleItem(String(format: "lake/%05d", number), "Zanzibarquux lake \(number)", domain: "com.example.lakes")
        if number % 7 == 0 { item.expirationDate = now.addingTimeInterval(Double(number)) }
        if number % 5 == 0 { item.attributeSet.keywords = ["cabin", "pier \(number % 3)"] }
        return item
    }

    static let queries = ["zanz", "lake 12", "cabin", "pier 2", "zanzibarqux 40", "zanzibarquux lake 4000"]

    static func answers(_ engine: SearchEngine) -> [[String]] {
        queries.map { engine.search(SearchQuery($0, limit: 30, now: now)).results.map(\.uniqueIdentifier) }
    }

    static func freshEngine(_ items: [SearchableItem]) -> SearchEngine {
        var engine = SearchEngine()
        engine.index(items)
        return engine
    }

    /// Imports `items` as `index import` does.
    static func importItems(_ items: [SearchableItem], into path: String) throws {
        let (index, _) = try PersistentIndex.open(path: path, delegate: nil, loadingEngine: false)
        try index.prepareForImport()
        try index.index(items, clientState: "imported")
        try index.leaveReady()
    }

    @Test func anImportLeavesASnapshotTheNextProcessLoads() throws {
        let path = temporaryPath()
        try Self.importItems(Self.items, into: path)
        let (next, _) = try PersistentIndex.open(path: path, delegate: nil, loadingEngine: false)
        #expect(try next.hasCurrentSnapshot())
        let expected = Self.answers(Self.freshEngine(Self.items))
        #expect(expected.allSatisfy { !$0.isEmpty })
        #expect(Self.answers(try next.loadEngine()) == expected)
        #expect(next.engineOrigin == .snapshot)
        let summary = try #require(try next.currentSummary())
        #expect(summary.results == Self.items.count)
        #expect(summary.byDomain == ["com.example.lakes": Self.items.count])
        #expect(summary.expired(at: now.addingTimeInterval(700)) == Self.items.filter { $0.isExpired(at: now.addingTimeInterval(700)) }.count)
    }

    /// The titles are in the store's bodies and nowhere in the snapshot.
    @Test func eachRecordIsOnDiskOnce() throws {
        let path = temporaryPath()
        try Self.importItems(Self.items, into: path)
        let title = Data("Zanzibarquux lake 4321".utf8)
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: path + ".snapshot"))
        #expect(snapshot.range(of: title) == nil)
        let store = try IndexStore(path: path)
        #expect(try store.load().records.contains { $0.item.attributeSet.title == "Zanzibarquux lake 4321" })
    }

    /// A second import onto a ready index adds to the engine the snapshot
    /// gave, and leaves a snapshot of both.
    @Test func aSecondImportBuildsOnTheFirst() throws {
        let path = temporaryPath()
        let (first, second) = (Array(Self.items.prefix(3_000)), Array(Self.items.dropFirst(2_000)))
        try Self.importItems(first, into: path)
        try Self.importItems(second, into: path)
        let (next, _) = try PersistentIndex.open(path: path, delegate: nil, loadingEngine: false)
        #expect(Self.answers(try next.loadEngine()) == Self.answers(Self.freshEngine(Self.items)))
        #expect(next.engineOrigin == .snapshot)
    }

    /// Records changed under the snapshot without a write through the
    /// store (no new generation): their run no longer sums as saved, and
    /// the engine is read from the records instead of trusting it.
    @Test func aSnapshotRefusesRecordsChangedUnderIt() throws {
        let path = temporaryPath()
        try Self.importItems(Array(Self.items.prefix(50)), into: path)
        var changed = Self.items[3]
        changed.attributeSet.title = "Zanzibarquux pond 3"
        let body = Data(changed.storedBody).map { String(format: "%02x", $0) }.joined()
        try IndexStore(path: path).executeForTesting("UPDATE records SET body = x'\(body)' WHERE uniqueIdentifier = 'lake/00003'")
        let (next, _) = try PersistentIndex.open(path: path, delegate: nil, loadingEngine: false)
        let engine = try next.loadEngine()
        #expect(next.engineOrigin == .records)
        #expect(engine.search(SearchQuery("pond", now: now)).results.map(\.uniqueIdentifier) == ["lake/00003"])
    }

    /// A batch the store refuses, while the engine's change is made on
    /// another thread, leaves the engine and the store as they were.
    @Test func aRefusedBatchLeavesTheEngineAsItWas() throws {
        let path = temporaryPath()
        let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
        try index.index(Array(Self.items.prefix(10)))
        try bumpUserVersion(path, to: IndexStore.formatVersion, readOnlyTrigger: true)
        #expect(throws: (any Error).self) { try index.index(Array(Self.items.dropFirst(10))) }
        #expect(index.engine.documentCount == 10)
        #expect(index.engine.search(SearchQuery("lake 4000", now: now)).results.isEmpty)
        #expect(try index.store.load().records.count == 10)
    }

    /// Every field of an item comes back from its stored body, and a body
    /// that is not one is refused rather than read.
    @Test func aStoredBodyKeepsEveryField() throws {
        var item = SearchableItem(
            uniqueIdentifier: "photo/9", domainIdentifier: "com.example.photos", expirationDate: now,
            attributeSet: AttributeSet(
                contentType: "public.image", title: "北极光 over Zoë's pier", contentDescription: "Night",
                keywords: ["aurora", "pier"], thumbnail: Thumbnail(format: "heic", width: 40, height: 30, byteCount: 99, dominantColor: "#10A0FF", caption: "c"),
                phoneNumbers: ["+1 555"], emailAddresses: ["a@b.c"], supportsPhoneCall: true, rating: 4.5,
                relatedUniqueIdentifier: "album/1", url: "https://example.com/p/9", extras: ["k": "v"], rankingHint: 12.5),
            visibility: .restricted)
        let body = item.storedBody
        let back = body.withUnsafeBytes { SearchableItem(storedBody: $0, uniqueIdentifier: "photo/9", domainIdentifier: "com.example.photos") }
        #expect(back == item)
        item.expirationDate = nil
        item.visibility = .public
        #expect(item.storedBody.withUnsafeBytes { SearchableItem(storedBody: $0, uniqueIdentifier: "photo/9", domainIdentifier: nil) }?.visibility == .public)
        for damaged in [Array(body.prefix(body.count - 1)), [0x7B] + body.dropFirst(), Array(body.prefix(10))] {
            #expect(damaged.withUnsafeBytes { SearchableItem(storedBody: $0, uniqueIdentifier: "photo/9", domainIdentifier: nil) } == nil)
        }
    }

    /// A store of the first format, its bodies JSON, is packed when it is
    /// opened: every record reads back as it was, and one that cannot be
    /// read stays as it was, quarantined.
    @Test func aStoreOfJSONBodiesIsPackedWhenOpened() throws {
        let path = temporaryPath()
        let items = Array(Self.items.prefix(20))
        do {
            let store = try IndexStore(path: path)
            var batch = StoreBatch()
            batch.upsertedRecords = items.map { IndexRecord(source: .item, item: $0) }
            try store.apply(batch)
            let encoder = IndexStore.recordEncoder()
            for item in items {
                let json = String(decoding: try encoder.encode(item), as: UTF8.self).replacingOccurrences(of: "'", with: "''")
                try store.executeForTesting("UPDATE records SET body = '\(json)' WHERE uniqueIdentifier = '\(item.uniqueIdentifier)'")
            }
            try store.executeForTesting("UPDATE records SET body = '{\"broken' WHERE uniqueIdentifier = 'lake/00019'")
            try store.executeForTesting("DELETE FROM grdb_migrations WHERE identifier = 'packed bodies'; PRAGMA user_version = 1")
        }
        let store = try IndexStore(path: path)
        let state = try store.load()
        #expect(state.records.map(\.item) == Array(items.prefix(19)))
        #expect(state.quarantined.map(\.uniqueIdentifier) == ["lake/00019"])
        let kinds = try store.queue.read { db in try String.fetchAll(db, sql: "SELECT typeof(body) FROM records ORDER BY uniqueIdentifier") }
        #expect(kinds == Array(repeating: "blob", count: 19) + ["text"])
    }
}
