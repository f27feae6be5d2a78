import Foundation
import Testing
import TestSupport
@testable import SearchIndex
@testable import SearchStore
import Catalog
import PropertyBased

/// What a damaged or unusual store costs (issue 72): one unreadable row
/// costs that row, a dropped table is made again, a damaged file keeps
/// what can be read, and a read-only store is searched without a write.
@Suite struct StoreRecoveryTests {
    func filledIndex(_ path: String, count: Int = 20) throws -> PersistentIndex {
        let items = (0..<count).map { sampleItem("r/\($0)", "harbour lantern \($0)") }
        return try PersistentIndex.open(path: path, delegate: ListDelegate(items: items)).index
    }

    func removeSnapshot(_ path: String) {
        try? FileManager.default.removeItem(atPath: SnapshotFile.path(forStore: path))
    }

    @Test func anUnreadableRecordIsQuarantinedAndTheRestLoads() throws {
        let path = temporaryPath()
        try filledIndex(path).store.executeForTesting(
            #"UPDATE records SET body = '{"uniqueIdentifier":"r/3","expirationDate":"-0001-01-01T00:00:00Z"}' WHERE uniqueIdentifier = 'r/3'"#)
        removeSnapshot(path)
        let (index, event) = try PersistentIndex.open(path: path, delegate: ListDelegate(items: []))
        #expect(event == .opened)
        #expect(index.engine.documentCount == 19)
        #expect(try index.quarantinedRecords().map(\.uniqueIdentifier) == ["r/3"])
        #expect(try index.store.recordCounts()["item"] == 20, "the row stays in the store")
        #expect(index.engine.search(SearchQuery("harbour", limit: 50, now: now)).total == 19)
        // Deleting its identifier removes it from the store too.
        #expect(try index.deleteItems(identifiers: ["r/3"]) == ["r/3"])
        #expect(try index.store.recordCounts()["item"] == 19)
        #expect(try index.quarantinedRecords().isEmpty)
    }

    @Test func aQuarantinedRowIsFoundAgainWhenTheEngineCameFromASnapshot() throws {
        let path = temporaryPath()
        do {
            let index = try filledIndex(path)
            try index.store.executeForTesting("UPDATE records SET body = 'not json' WHERE uniqueIdentifier = 'r/5'")
        }
        // The closed index saved its engine, from before the damage: gone too.
        removeSnapshot(path)
        do { _ = try PersistentIndex.open(path: path, delegate: nil) }  // loads from records, saves a snapshot
        let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
        #expect(index.engineOrigin == .snapshot)
        #expect(try index.quarantinedRecords().map(\.uniqueIdentifier) == ["r/5"])
        // Importing the identifier again replaces the row.
        try index.index([sampleItem("r/5", "harbour again")])
        #expect(try index.quarantinedRecords().isEmpty)
        #expect(try IndexStore(path: path).unreadableRecords().isEmpty)
    }

    @Test(arguments: ["meta", "records", "activities", "engagements", "operations", "journal", "grdb_migrations"])
    func aDroppedTableIsMadeAgain(table: String) throws {
        let path = temporaryPath()
        try filledIndex(path).store.executeForTesting("DROP TABLE \(table)")
        let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
        try index.index([sampleItem("n/1", "meadow")])
        try index.becomeCurrent(UserActivity(activityType: "com.example.view", title: "meadow"), at: now)
        #expect(index.engine.search(SearchQuery("meadow", now: now)).total >= 1)
        try index.replaceAll(with: [sampleItem("x/1", "quartz")], reason: "reset")
        #expect(try index.store.recordCounts()["item"] == 1)
    }

    @Test func aDamagedFileKeepsItsReadableRecords() throws {
        let path = temporaryPath()
        do { _ = try filledIndex(path, count: 2_000) }
        // Damage the header only: SQLite cannot open it, but the pages hold the rows.
        try damageHeader(path)
        removeSnapshot(path)
        let (index, event) = try PersistentIndex.open(path: path, delegate: ListDelegate(items: [sampleItem("fixture/1", "fixture")]), now: now)
        guard case .rebuilt(_, let movedTo, let salvaged) = event else { Issue.record("expected a rebuild, got \(event)"); return }
        #expect(movedTo != nil)
        // The header holds the page size; with it gone nothing is readable, and
        // the fixtures fill the new store instead.
        #expect(salvaged == 0 ? index.engine.documentCount == 1 : index.engine.documentCount == salvaged)
    }

    @Test func recordsOfAFileWithADamagedPageAreCarriedOver() throws {
        let path = temporaryPath()
        do { _ = try filledIndex(path, count: 5_000) }
        removeSnapshot(path)
        try damagePage(path, page: 3)
        let (index, event) = try PersistentIndex.open(path: path, delegate: ListDelegate(items: [sampleItem("fixture/1", "fixture")]), now: now)
        guard case .rebuilt(_, _, let salvaged) = event else {
            // SQLite read past the damage: the store stayed and lost at most that page's rows.
            #expect(index.engine.documentCount > 4_000)
            return
        }
        #expect(salvaged > 4_000, "most records come over")
        #expect(index.engine.documentCount == salvaged)
        #expect(index.engine.records["fixture/1"] == nil, "nothing is refilled from the fixtures")
    }

    @Test func twoStoresMovedAsideInOneSecondBothStay() throws {
        let folder = scratchFolder("aside")
        let path = folder.appendingPathComponent("index.sqlite").path
        for round in 0..<2 {
            try Data(repeating: UInt8(round + 1), count: 8_192).write(to: URL(fileURLWithPath: path))
            _ = try PersistentIndex.open(path: path, delegate: ListDelegate(items: [sampleItem("a/1", "x")]), now: now)
        }
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".broken-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(aside.count == 2)
    }

    @Test func aReadOnlyStoreAnswersAndRefusesWritesWithOneClearError() throws {
        let path = temporaryPath()
        do { _ = try filledIndex(path) }
        let store = try IndexStore(path: path, readOnly: true)
        #expect(store.isReadOnly)
        let index = try PersistentIndex(store: store)
        #expect(index.engine.search(SearchQuery("harbour", limit: 50, now: now)).total == 20)
        let error = #expect(throws: StoreError.self) { try index.index([sampleItem("w/1", "write")]) }
        #expect(error?.kind == .readOnly)
        #expect(try IndexStore(path: path).recordCounts()["item"] == 20)
    }

    func damageHeader(_ path: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(repeating: 0x41, count: 100))
        try handle.close()
    }

    func damagePage(_ path: String, page: Int) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(page * 4_096))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 4_096))
        try handle.close()
    }
}

/// Whatever is accepted reads back the same: the importer's dates are the
/// store's, for every generated item (issue 72).
@Suite struct StoredRoundTripTests {
    @Test func everyGeneratedItemReadsBackAsWritten() throws {
        var random = SeededGenerator(seed: 72)
        var items: [SearchableItem] = []
        for i in 0..<2_000 {
            var set = AttributeSet(title: String((0..<Int.random(in: 1...12, using: &random)).map { _ in
                "aé北\u{1B}\"\\\n z".randomElement(using: &random)!
            }))
            if Bool.random(using: &random) { set.rating = Double.random(in: 0...5, using: &random) }
            if Bool.random(using: &random) { set.extras = ["k\(i)": "v"] }
            let seconds = Double(Int64.random(
                in: Int64(StoredDate.earliest.timeIntervalSince1970)...Int64(StoredDate.latest.timeIntervalSince1970), using: &random))
            items.append(SearchableItem(
                uniqueIdentifier: "g/\(i)", domainIdentifier: i % 3 == 0 ? nil : "d\(i % 7)",
                expirationDate: i % 4 == 0 ? nil : Date(timeIntervalSince1970: seconds), attributeSet: set,
                visibility: Visibility.allCases.randomElement(using: &random)!))
        }
        let store = try IndexStore(path: nil)
        var batch = StoreBatch()
        batch.upsertedRecords = items.map { IndexRecord(source: .item, item: $0) }
        try store.apply(batch)
        let state = try store.load()
        #expect(state.quarantined.isEmpty)
        let read = Dictionary(uniqueKeysWithValues: state.records.map { ($0.item.uniqueIdentifier, $0.item) })
        for item in items { #expect(read[item.uniqueIdentifier] == item) }
    }

    @Test(arguments: [
        ("2026-11-22T10:00:00Z", 1_795_341_600.0), ("0001-01-01", -62_135_596_800.0),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799.0), ("2026-11-22T12:00:00+02:00", 1_795_341_600.0),
    ])
    func datesParseToWholeSecondsInRange(text: String, seconds: Double) {
        #expect(StoredDate.parse(text)?.timeIntervalSince1970 == seconds)
        #expect(StoredDate.parse(StoredDate.format(StoredDate.parse(text)!)) == StoredDate.parse(text))
    }

    @Test func everyDateHasASpellingTheStoreReads() {
        for seconds in [Double.nan, .infinity, -.infinity, -1e300, 1e300, 0.999, -0.5] {
            let spelled = StoredDate.format(Date(timeIntervalSince1970: seconds))
            #expect(StoredDate.parse(spelled) != nil, "\(seconds) → \(spelled)")
        }
    }

    @Test(arguments: ["-0001-01-01T00:00:00Z", "292277026596-12-04T15:30:07Z", "0000-12-31", "10000-01-01",
                      "2026-02-30", "2026-11-22T24:00:00Z", "2026-11-22 10:00", "9999-12-31T23:59:59-01:00", ""])
    func datesOutsideTheStoreAreRefused(text: String) {
        #expect(StoredDate.parse(text) == nil)
    }
}

/// The importer validates with the decoder that loads: every line it accepts,
/// with any date, number or string a generator makes, reads back from the
/// store as it was imported (issue 72).
@Suite struct AcceptedReadsBackTests {
    static let datePieces = ["-", "0", "1", "9", "12", "2026", "0001", "9999", "10000", "-0001", "292277026596", "T", ":", "Z",
                             ".5", "+02:00", "-01:00", "00", "59", "60", "24", "31", "02", "29", " ", "z", "t"]
    static let numbers = ["0", "1", "-1", "4.5", "1e308", "1e999", "-1e999", "1E2", "0.0000001", "NaN", "Infinity", "1.7976931348623157e309"]

    @Test func everyAcceptedLineReadsBackAsImported() async {
        let date = Gen<String?>.element(of: Self.datePieces).map { $0 ?? "" }.array(of: 0...8).map { $0.joined() }
        let number = Gen<String?>.element(of: Self.numbers).map { $0 ?? "0" }
        let text = Gen<String?>.element(of: ["a", "é", "北", "\\u001b", "\\u0000", "\\\\", "\\\"", " ", "\\ud83d\\ude00", "\\n"])
            .map { $0 ?? "" }.array(of: 0...6).map { $0.joined() }
        await propertyCheck(count: 600, input: date, number, text) { (date: String, number: String, text: String) in
            let line = #"{"uniqueIdentifier":"p/1","expirationDate":"\#(date)","attributeSet":{"title":"t\#(text)","rating":\#(number)}}"#
            guard let items = try? ItemImporter.items(from: Array(line.utf8), file: "gen.jsonl") else { return }
            let store = try IndexStore(path: nil)
            var batch = StoreBatch()
            batch.upsertedRecords = items.map { IndexRecord(source: .item, item: $0) }
            try store.apply(batch)
            let state = try store.load()
            #expect(state.quarantined.isEmpty, "\(line)")
            #expect(state.records.map(\.item) == items, "\(line)")
        }
    }
}
