import Foundation
import Testing
import TestSupport
@testable import SearchIndex
@testable import SearchStore

func temporaryPath(_ name: String = "index.sqlite") -> String {
    scratchFolder("store").appendingPathComponent(name).path
}

func sampleItem(_ id: String, _ title: String, domain: String? = "com.example.test") -> SearchableItem {
    SearchableItem(uniqueIdentifier: id, domainIdentifier: domain, attributeSet: AttributeSet(title: title), visibility: .public)
}

struct ListDelegate: SearchableIndexDelegate {
    var items: [SearchableItem]
    func reindexAllSearchableItems(in index: PersistentIndex) throws {
        try index.replaceAll(with: items, reason: "test")
    }
}

let now = Date(timeIntervalSince1970: 1_800_000_000)

@Suite struct PersistentIndexTests {
    @Test func newStoreIsFilledByTheDelegateOnceAndNeverRefilled() throws {
        let path = temporaryPath()
        let delegate = ListDelegate(items: [sampleItem("a/1", "Lake")])
        let (first, event) = try PersistentIndex.open(path: path, delegate: delegate)
        #expect(event == .created)
        #expect(first.engine.documentCount == 1)
        try first.deleteAll()
        let (second, again) = try PersistentIndex.open(path: path, delegate: delegate)
        #expect(again == .opened)
        #expect(second.engine.documentCount == 0)
    }

    @Test func everythingSurvivesARestart() throws {
        let path = temporaryPath()
        do {
            let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
            try index.index([sampleItem("a/1", "Brent Reid"), sampleItem("a/2", "Brenda")], clientState: "batch-7")
            var attributes = AttributeSet()
            attributes.relatedUniqueIdentifier = "a/2"
            let view = UserActivity(activityType: "com.example.view", title: "Seen", keywords: ["escalation"],
                                    contentAttributeSet: attributes, isEligibleForSearch: true)
            try index.becomeCurrent(view, at: now)
            try index.becomeCurrent(view, at: now)
        }
        let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
        #expect(index.lastClientState == "batch-7")
        #expect(index.engine.engagements["a/2"]?.count == 2)
        #expect(index.engine.search(SearchQuery("bren", now: now)).results.map(\.uniqueIdentifier) == ["a/2", "a/1"])
        #expect(index.engine.search(SearchQuery("escalation", now: now)).results.first?.sources == [.item, .activity])
        let log = try index.operationLog()
        #expect(log.map(\.kind).contains("indexed"))
        #expect(log.map(\.kind).contains("activity"))
    }

    @Test func anImportIntoTheStoreAloneLogsNewAndUpdatedItems() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let index = try PersistentIndex(store: IndexStore(path: path))
        try index.index([sampleItem("a/1", "Lake"), sampleItem("a/2", "Loch")])
        // Engine not loaded: the counts come from the store in one query.
        try index.index([sampleItem("a/2", "Loch Ness"), sampleItem("a/3", "Tarn"), sampleItem("a/1", "Lake District")])
        let newest = try index.operationLog().suffix(2)
        #expect(newest.map(\.kind) == ["indexed", "updated"])
        #expect(newest.first?.detail.hasPrefix("1 item") == true)
        #expect(newest.last?.detail == "2 items")
    }

    /// The store finds identifiers whatever their characters (quotes,
    /// backslashes, control characters, accents, emoji), in a first import
    /// into an empty store and in the next; the first logs all as new.
    @Test func updatedItemsAreCountedWhateverTheirIdentifiers() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let odd = ["say \"hi\"", "back\\slash", "tab\there", "bell\u{07}", "ünïcödé", "北极", "😀", "a/1"]
        let index = try PersistentIndex(store: IndexStore(path: path))
        try index.index(odd.map { sampleItem($0, "Lake") })
        #expect(try index.operationLog().last?.detail.hasPrefix("\(odd.count) items") == true)
        try index.index((odd + ["new/1"]).map { sampleItem($0, "Loch") })
        let newest = try index.operationLog().suffix(2)
        #expect(newest.map(\.kind) == ["indexed", "updated"])
        #expect(newest.first?.detail.hasPrefix("1 item") == true)
        #expect(newest.last?.detail == "\(odd.count) items")
        #expect(try IndexStore(path: path).existingRecordCount(among: odd + ["missing", "say \"hi"]) == odd.count)
    }

    @Test func deletionsPersistWithTheirActivities() throws {
        let path = temporaryPath()
        do {
            let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
            try index.index([sampleItem("a/1", "Lake", domain: "com.acme.media"), sampleItem("a/2", "Lake", domain: "com.acme.media.photo"),
                             sampleItem("a/3", "Lake", domain: "com.acme.mediakit")])
            var attributes = AttributeSet()
            attributes.relatedUniqueIdentifier = "a/1"
            try index.becomeCurrent(UserActivity(activityType: "v", contentAttributeSet: attributes, isEligibleForSearch: true), at: now)
            try index.deleteItems(domainIdentifiers: ["com.acme.media"])
        }
        let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
        #expect(index.engine.search(SearchQuery("lake", now: now)).results.map(\.uniqueIdentifier) == ["a/3"])
        #expect(index.engine.activities.isEmpty)
        #expect(index.engine.engagements.isEmpty)
    }

    @Test func disabledPreferenceDropsActivitiesAtTheNextLaunch() throws {
        let path = temporaryPath()
        do {
            let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
            try index.index([sampleItem("a/1", "Lake")])
            // Written behind the engine's back, as an older build might have left it.
            var batch = StoreBatch()
            var attributes = AttributeSet()
            attributes.relatedUniqueIdentifier = "a/1"
            batch.upsertedActivities = [UserActivity(activityType: "v", contentAttributeSet: attributes, isEligibleForSearch: true)]
            batch.preference = .disabled
            try index.store.apply(batch)
        }
        let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
        #expect(index.engine.preference == .disabled)
        #expect(index.engine.activities.isEmpty)
        #expect(try index.store.load().activities.isEmpty)
    }

    @Test func preferenceSurvivesARestart() throws {
        let path = temporaryPath()
        try PersistentIndex.open(path: path, delegate: nil).index.setPreference(.disabled)
        #expect(try PersistentIndex.open(path: path, delegate: nil).index.engine.preference == .disabled)
    }

    @Test func garbageFileIsMovedAsideAndRebuilt() throws {
        let path = temporaryPath()
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let delegate = ListDelegate(items: [sampleItem("a/1", "Lake")])
        let (index, event) = try PersistentIndex.open(path: path, delegate: delegate, now: now)
        guard case .rebuilt(_, let movedTo, _) = event else { Issue.record("expected a rebuild, got \(event)"); return }
        #expect(movedTo.map { FileManager.default.fileExists(atPath: $0) } == true)
        #expect(index.engine.documentCount == 1)
    }

    @Test func newerFormatIsMovedAsideAndRebuilt() throws {
        let path = temporaryPath()
        do {
            let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
            try index.index([sampleItem("a/1", "Old")])
        }
        // Bump the format as a future version would.
        let raw = try IndexStore(path: path)
        _ = raw
        var batch = StoreBatch()
        batch.log = [("test", "bump")]
        try raw.apply(batch)
        try bumpUserVersion(path, to: IndexStore.formatVersion + 1)
        let (index, event) = try PersistentIndex.open(path: path, delegate: ListDelegate(items: [sampleItem("b/1", "New")]), now: now)
        guard case .rebuilt(let reason, _, _) = event else { Issue.record("expected a rebuild, got \(event)"); return }
        #expect(reason.contains("newer"))
        #expect(index.engine.records.keys.sorted() == ["b/1"])
    }

    /// A large batch is written a chunk at a time by several threads, each
    /// record by the hand writer or (a rating, extras) by `JSONEncoder`:
    /// every record reads back as it was, in both decoders' hands.
    @Test func aLargeBatchReadsBackWhole() throws {
        let store = try IndexStore(path: temporaryPath())
        var batch = StoreBatch()
        batch.upsertedRecords = (0..<20_000).map { number in
            var item = sampleItem(String(format: "a/%05d", number), "Lake \(number) \"quoted\" 北极光")
            if number % 3 == 0 { item.attributeSet.rating = Double(number) / 7 }
            if number % 5 == 0 { item.attributeSet.extras = ["k\(number % 4)": "v"] }
            if number % 11 == 0 { item.expirationDate = Date(timeIntervalSince1970: Double(number) * 1_000) }
            return IndexRecord(source: number % 2 == 0 ? .item : .web, item: item)
        }
        try store.apply(batch)
        #expect(try store.load().records == batch.upsertedRecords)
    }

    /// The records come back in their identifiers' byte order, whatever
    /// order they were written in: identifiers alike in their first
    /// sixteen bytes, one a prefix of another, wide characters.
    @Test func recordsReadBackInTheirIdentifiersByteOrder() throws {
        let store = try IndexStore(path: temporaryPath())
        let ids = ["zeta", "a", "long-identifier-000002", "b/北极", "b/Zoë", "ab", "b/zoe", "long-identifier-000001",
                   "long-identifier-00000", "É", "e", "long-identifier-0000011"]
        for id in ids {
            // A batch each: stored in this order.
            var batch = StoreBatch()
            batch.upsertedRecords = [IndexRecord(source: .item, item: sampleItem(id, "Lake"))]
            try store.apply(batch)
        }
        let expected = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(try store.load().records.map(\.item.uniqueIdentifier) == expected)
    }

    /// A store's records, decoded in the order they are stored, are put
    /// in their identifiers' order by swaps along the permutation's cycles:
    /// every arrangement comes out as the order names it.
    @Test func recordsArePutInOrderAlongEveryCycle() {
        var random = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 10, 257] {
            for _ in 0..<20 {
                let records = (0..<count).map { IndexRecord(source: .item, item: sampleItem("r/\($0)", "Lake")) }
                let order = Array(records.indices).shuffled(using: &random)
                var arranged = records
                IndexStore.arrange(&arranged, in: order)
                #expect(arranged.map(\.item.uniqueIdentifier) == order.map { records[$0].item.uniqueIdentifier })
            }
        }
    }

    @Test func aFailedWriteChangesNeitherStoreNorEngine() throws {
        let path = temporaryPath()
        let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
        try index.index([sampleItem("a/1", "Lake")])
        // Make the store read-only underneath: the next write must fail whole.
        try bumpUserVersion(path, to: IndexStore.formatVersion, readOnlyTrigger: true)
        #expect(throws: (any Error).self) { try index.index([sampleItem("a/2", "Lake"), sampleItem("a/3", "Lake")]) }
        #expect(index.engine.documentCount == 1)
        #expect(try index.store.load().records.count == 1)
    }
}

/// Opens the file with plain SQLite through a second store connection.
func bumpUserVersion(_ path: String, to version: Int, readOnlyTrigger: Bool = false) throws {
    let store = try IndexStore(path: path)
    try store.executeForTesting(readOnlyTrigger
        ? "CREATE TRIGGER refuse BEFORE INSERT ON records BEGIN SELECT RAISE(ABORT, 'refused'); END;"
        : "PRAGMA user_version = \(version)")
}

@Suite struct ResourceTests {
    /// Descriptors of this process open on files in `folder` (other tests
    /// run in parallel and open their own, so the whole count would wander).
    func openDescriptors(in folder: String) -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { descriptor in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
            return target?.hasPrefix(folder + "/") == true
        }.count
    }

    @Test func openingAndClosingLeavesNoDescriptorsOrFiles() throws {
        let path = temporaryPath()
        let folder = (path as NSString).deletingLastPathComponent
        do {
            let (index, _) = try PersistentIndex.open(path: path, delegate: ListDelegate(items: [sampleItem("a/1", "Lake")]))
            try index.index([sampleItem("a/2", "Loch")])
        }
        #expect(openDescriptors(in: folder) == 0)
        for round in 0..<50 {
            let (index, _) = try PersistentIndex.open(path: path, delegate: nil)
            try index.index([sampleItem("r/\(round)", "Round \(round)")])
            _ = index.engine.search(SearchQuery("round"))
        }
        #expect(openDescriptors(in: folder) == 0)
        // The store and the engine's snapshot; no temporary files.
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == ["index.sqlite", "index.sqlite.snapshot"])
    }
}
