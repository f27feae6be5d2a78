import Foundation
import Testing
@testable import SearchIndex
@testable import SearchStore

/// The engine saved beside the store is used only while it is the store's
/// current state; anything else is rebuilt from the records, never trusted.
@Suite struct SnapshotFileTests {
    static let items = (0..<300).map { sampleItem("a/\($0)", "Lake \($0) cabin \($0 % 7)") }

    /// Opens `path` and returns the index with its engine loaded.
    func open(_ path: String) throws -> PersistentIndex {
        let (index, _) = try PersistentIndex.open(path: path, delegate: ListDelegate(items: Self.items))
        return index
    }

    func answers(_ index: PersistentIndex) -> [[String]] {
        ["lake", "cab", "lake 12", "cabin 3", "lkae"].map {
            index.engine.search(SearchQuery($0, limit: 20, now: now)).results.map(\.uniqueIdentifier)
        }
    }

    @Test func aSecondProcessLoadsTheSnapshotTheFirstLeft() throws {
        let path = temporaryPath()
        let expected: [[String]]
        do {
            let first = try open(path)
            #expect(first.engineOrigin == .records)
            expected = answers(first)
        }
        #expect(FileManager.default.fileExists(atPath: path + ".snapshot"))
        let second = try open(path)
        #expect(second.engineOrigin == .snapshot)
        #expect(answers(second) == expected)
        #expect(!expected[0].isEmpty)
        // Nothing changed: no second write.
        #expect(try second.saveSnapshot() == false)
    }

    /// A writer stopped mid-write leaves its temporary: the next write
    /// removes it, and leaves a running process's alone.
    @Test func temporariesOfEndedWritersAreRemovedByTheNextWrite() throws {
        let path = temporaryPath()
        let snapshot = SnapshotFile.path(forStore: path)
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let endedTemporary = snapshot + ".tmp-\(ended.processIdentifier)"
        let running = Process()
        running.executableURL = URL(fileURLWithPath: "/bin/sleep")
        running.arguments = ["30"]
        try running.run()
        defer { running.terminate() }
        let runningTemporary = snapshot + ".tmp-\(running.processIdentifier)"
        #expect(FileManager.default.createFile(atPath: endedTemporary, contents: Data(repeating: 1, count: 4_096)))
        #expect(FileManager.default.createFile(atPath: runningTemporary, contents: Data(repeating: 1, count: 4_096)))
        _ = try open(path)
        #expect(FileManager.default.fileExists(atPath: snapshot))
        #expect(!FileManager.default.fileExists(atPath: endedTemporary))
        #expect(FileManager.default.fileExists(atPath: runningTemporary))
    }

    @Test func aWriteMakesTheSnapshotStaleAndTheNextOneIsSaved() throws {
        let path = temporaryPath()
        _ = try open(path)
        do {
            // Written by a process that never loads the engine (like `index import`).
            let writer = try PersistentIndex(store: IndexStore(path: path))
            try writer.index([sampleItem("b/1", "Lakeshore lodge")])
        }
        let reader = try open(path)
        #expect(reader.engineOrigin == .records)
        #expect(reader.engine.search(SearchQuery("lodge", now: now)).results.map(\.uniqueIdentifier) == ["b/1"])
        #expect(try reader.saveSnapshot())
        try reader.deleteItems(identifiers: ["a/1"])
        // Its own writes keep the engine in step: it saves that state too.
        #expect(try reader.saveSnapshot())
        let next = try open(path)
        #expect(next.engineOrigin == .snapshot)
        #expect(next.engine.records["a/1"] == nil)
        #expect(next.engine.records["b/1"] != nil)
    }

    /// A new store, its snapshot's path and the snapshot's bytes.
    func storeWithSnapshot() throws -> (path: String, snapshot: String, bytes: Data) {
        let path = temporaryPath()
        _ = try open(path)
        let snapshot = SnapshotFile.path(forStore: path)
        return (path, snapshot, try Data(contentsOf: URL(fileURLWithPath: snapshot)))
    }

    /// A process that records views and is stopped before its snapshot is
    /// written (the old one is put back here, as such a stop leaves it)
    /// costs the next one no rebuild: the views, and nothing else, since
    /// the snapshot are replayed on it. The replayed engine answers as a
    /// rebuilt one: same results, same engagement, same activities.
    @Test func viewsSinceTheSnapshotAreReplayedOnIt() throws {
        let (path, snapshot, saved) = try storeWithSnapshot()
        do {
            let viewer = try open(path)
            #expect(viewer.engineOrigin == .snapshot)
            var related = AttributeSet(title: "Cabin visit")
            related.relatedUniqueIdentifier = "a/3"
            try viewer.becomeCurrent(UserActivity(activityType: "v", title: "Lake 3", contentAttributeSet: related,
                                                  isEligibleForSearch: true), at: now.addingTimeInterval(-3_600))
            try viewer.becomeCurrent(UserActivity(activityType: "com.example.note", title: "Harbour notes",
                                                  keywords: ["harbour"], isEligibleForSearch: true), at: now.addingTimeInterval(-60))
            try viewer.becomeCurrent(UserActivity(activityType: "v", title: "Lake 5"), at: now)
        }
        try saved.write(to: URL(fileURLWithPath: snapshot))
        let replayed = try open(path)
        #expect(replayed.engineOrigin == .snapshot)
        try FileManager.default.removeItem(atPath: snapshot)
        let rebuilt = try PersistentIndex(store: IndexStore(path: path))
        _ = try rebuilt.loadEngine()
        #expect(rebuilt.engineOrigin == .records)
        for query in ["lake", "cabin", "harbour", "lake 3", "notes", "lkae"] {
            let request = SearchQuery(query, limit: 20, now: now, explainsMatches: true)
            let a = replayed.engine.search(request), b = rebuilt.engine.search(request)
            #expect(a.results == b.results, "\(query)")
            #expect(a.total == b.total, "\(query)")
        }
        #expect(replayed.engine.search(SearchQuery("harbour", now: now)).total == 1)
        #expect(replayed.engine.engagements == rebuilt.engine.engagements)
        #expect(replayed.engine.engagements.count == 3)
        #expect(Set(replayed.engine.activities.keys) == Set(rebuilt.engine.activities.keys))
    }

    /// A batch of any other kind ends the journal: a snapshot older than
    /// it is stale, and the engine is rebuilt with every change. So is
    /// one older than more views than are replayed.
    @Test func aWriteAfterTheViewsOrTooManyViewsMakeTheOldSnapshotStale() throws {
        let (path, snapshot, saved) = try storeWithSnapshot()
        do {
            let viewer = try open(path)
            try viewer.becomeCurrent(UserActivity(activityType: "com.example.note", title: "Harbour notes",
                                                  isEligibleForSearch: true), at: now)
        }
        do {
            // A process that writes without loading the engine (`index import`).
            let writer = try PersistentIndex(store: IndexStore(path: path))
            try writer.index([sampleItem("b/1", "Lakeshore lodge")])
        }
        try saved.write(to: URL(fileURLWithPath: snapshot))
        let reader = try open(path)
        #expect(reader.engineOrigin == .records)
        #expect(reader.engine.search(SearchQuery("lodge", now: now)).results.map(\.uniqueIdentifier) == ["b/1"])
        #expect(reader.engine.search(SearchQuery("harbour", now: now)).total == 1)
        try reader.saveSnapshot()

        let current = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        do {
            let viewer = try open(path)
            for n in 0...PersistentIndex.replayLimit {
                try viewer.becomeCurrent(UserActivity(activityType: "v", title: "Lake \(n)"), at: now.addingTimeInterval(Double(n)))
            }
        }
        try current.write(to: URL(fileURLWithPath: snapshot))
        let next = try open(path)
        #expect(next.engineOrigin == .records)
        #expect(next.engine.engagements.values.reduce(0) { $0 + $1.count } == PersistentIndex.replayLimit + 2)
    }

    /// The journal keeps the newest 1,024 views (four times what a load
    /// replays), however many are recorded without another write.
    @Test func theJournalStaysBounded() throws {
        let store = try IndexStore(path: temporaryPath())
        var generations = [try store.generation()!]
        for n in 0..<1_100 {
            var batch = StoreBatch()
            let view = UserActivity(activityType: "v", title: "Lake \(n)")
            batch.engagements = [(view.engagementIdentifier, now)]
            batch.replayableView = (view, generations.last)
            generations.append(try store.apply(batch, at: now).current)
        }
        let last = generations.last!
        #expect(try store.journal(from: generations[0], to: last, limit: 5_000) == nil)
        let kept = try store.journal(from: generations[1_100 - 1_024], to: last, limit: 5_000)
        #expect(kept?.count == 1_024)
        #expect(kept?.first?.activity.title == "Lake \(1_100 - 1_024)")
        #expect(try store.journal(from: generations[1_100 - 1_025], to: last, limit: 5_000) == nil)
    }

    @Test func aWriteCatchesUpWithAnotherWriterSoItsSnapshotHoldsBoth() throws {
        let path = temporaryPath()
        let a = try open(path)
        _ = a.engine
        let b = try open(path)
        try b.index([sampleItem("b/1", "Written by b")])
        try a.index([sampleItem("c/1", "Written by a")])
        // a's write first took in b's item: its engine is the store's.
        #expect(a.engine.records["b/1"] != nil)
        #expect(try a.saveSnapshot() == true)
        #expect(try b.saveSnapshot() == false)
        let c = try open(path)
        #expect(c.engineOrigin == .snapshot)
        #expect(c.engine.records["b/1"] != nil && c.engine.records["c/1"] != nil)
    }

    @Test func anEngineBehindAnotherWriterSavesNothing() throws {
        let path = temporaryPath()
        let a = try open(path)
        _ = a.engine
        try open(path).index([sampleItem("b/1", "Written by b")])
        // a has not caught up: saving its engine would hide b's item.
        #expect(try a.saveSnapshot() == false)
        #expect(try open(path).engine.records["b/1"] != nil)
    }

    @Test(arguments: ["flip", "truncate", "empty", "garbage"])
    func aDamagedSnapshotIsRebuiltFromTheRecords(damage: String) throws {
        let path = temporaryPath()
        let expected = answers(try open(path))
        let snapshot = path + ".snapshot"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: snapshot)))
        switch damage {
        case "flip":
            for offset in stride(from: 64, to: bytes.count, by: bytes.count / 13) { bytes[offset] ^= 0x5A }
        case "truncate": bytes = Array(bytes.prefix(bytes.count * 2 / 3))
        case "empty": bytes = []
        default: bytes = Array(repeating: 0xAB, count: 4_096)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: snapshot))
        let reopened = try open(path)
        #expect(reopened.engineOrigin == .records)
        #expect(answers(reopened) == expected)
        // And the damaged file is replaced by a good one.
        #expect(try reopened.saveSnapshot())
        #expect(try open(path).engineOrigin == .snapshot)
    }

    @Test func aSnapshotOfAnotherStoreAtThePathIsNotUsed() throws {
        let path = temporaryPath()
        _ = try open(path)
        let saved = try Data(contentsOf: URL(fileURLWithPath: path + ".snapshot"))
        // The store is replaced by a new one (as `index reset` does); the old
        // snapshot is put back beside it.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let (fresh, _) = try PersistentIndex.open(path: path, delegate: ListDelegate(items: [sampleItem("z/1", "Zebra")]))
        try saved.write(to: URL(fileURLWithPath: path + ".snapshot"))
        _ = fresh
        let reopened = try PersistentIndex(store: IndexStore(path: path))
        #expect(reopened.engine.records.keys.sorted() == ["z/1"])
        #expect(reopened.engineOrigin == .records)
    }
}
