import Foundation
import TestSupport
import Testing
@testable import SearchIndex
@testable import SearchSnapshot
@testable import SearchModel

/// An engine loaded from its snapshot must be the same engine: same
/// records, same answers, and the same answers after the same changes.
@Suite struct SnapshotTests {
    static func bytes(of engine: SearchEngine) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try engine.writeSnapshot { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Whether `load` lends the engine the bytes (`loadBorrowing`) instead of copying.
    @TaskLocal static var loadsBorrow = false
    /// Whether loads take the bytes as verified (a file whose checksum held).
    @TaskLocal static var loadsVerified = false

    static func load(_ bytes: [UInt8]) throws -> SearchEngine {
        // The engine keeps what it borrows from alive.
        if loadsBorrow { return try loadBorrowing(bytes).0 }
        return try bytes.withUnsafeBytes { try SearchEngine(snapshot: $0, verified: loadsVerified) }
    }

    /// Bytes in an allocation of their own, freed when the last value
    /// borrowing them is gone (as a mapped snapshot file is unmapped).
    final class OwnedBytes: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer
        init(_ source: [UInt8]) {
            bytes = .allocate(byteCount: source.count, alignment: 16)
            source.withUnsafeBytes { bytes.copyMemory(from: $0) }
        }
        deinit { bytes.deallocate() }
    }

    /// Loads `bytes` as a mapped file is loaded: columns and attribute sets
    /// borrow them instead of copying.
    static func loadBorrowing(_ bytes: [UInt8]) throws -> (SearchEngine, OwnedBytes) {
        let owner = OwnedBytes(bytes)
        return (try SearchEngine(snapshot: UnsafeRawBufferPointer(owner.bytes), owner: owner, verified: loadsVerified), owner)
    }

    /// Items with every attribute the model has, some of them empty.
    func richItems(_ seed: UInt64, count: Int) -> [SearchableItem] {
        var generator = SeededGenerator(seed: seed)
        let base = ScanTests().corpus(seed, count: count)
        return base.enumerated().map { offset, plain in
            var item = plain
            if offset % 4 == 0 {
                item.attributeSet.thumbnail = Thumbnail(
                    format: "jpeg", width: 120 + offset, height: nil, byteCount: 4_096, dominantColor: "#A0B0C0",
                    caption: offset % 8 == 0 ? "caption \(offset) 北极" : nil)
            }
            if offset % 5 == 0 { item.attributeSet.extras = ["room": "R\(offset)", "floor": "\(offset % 7)"] }
            if offset % 6 == 0 { item.attributeSet.displayName = "Zoë \(offset)"; item.attributeSet.title = nil }
            if offset % 7 == 0 { item.attributeSet.phoneNumbers = ["+1 (555) 01\(offset % 90)"] }
            item.attributeSet.supportsPhoneCall = [nil, true, false][offset % 3]
            item.attributeSet.rating = offset % 2 == 0 ? Double(offset % 5) + 0.5 : nil
            item.attributeSet.contentType = ["public.item", "public.contact", "public.image"][offset % 3]
            item.visibility = Visibility.allCases[Int.random(in: 0..<3, using: &generator)]
            if offset % 11 == 0 { item.domainIdentifier = nil }
            return item
        }
    }

    /// An engine with every kind of state: merged web pages, standalone and
    /// related activities, views, expiring items, deletions (free slots,
    /// holes in the arena, pruned trie nodes) and cached best lists.
    func busyEngine(_ seed: UInt64) -> SearchEngine {
        var e = SearchEngine()
        e.topListThreshold = 50
        let items = richItems(seed, count: 1_200)
        e.index(items)
        e.index([item("doc/4", title: "page owner", url: "https://x.example/4")])
        // Pages at addresses several items share merge into the smallest identifier.
        e.index([item("https://x.example/4", title: "ka web page", url: "https://x.example/4"),
                 item("https://x.example/6", title: "shared page", url: "https://x.example/6"),
                 item("https://x.example/0", title: "shared page zero", url: "https://x.example/0"),
                  item("https://lonely.example/", title: "lonely page", url: "https://lonely.example/")], source: .web)
        for id in items.map(\.uniqueIdentifier).sorted().prefix(40) where id.hasSuffix("0") || id.hasSuffix("5") {
            e.becomeCurrent(activity(for: id), at: referenceNow.addingTimeInterval(-7_200))
        }
        e.becomeCurrent(UserActivity(activityType: "com.example.search", title: "Search for lanterns", keywords: ["lantern"],
                                     isEligibleForSearch: true), at: referenceNow.addingTimeInterval(-60))
        e.deleteItems(identifiers: items.map(\.uniqueIdentifier).filter { $0.hasSuffix("7") })
        e.index(richItems(seed + 1, count: 200).map { var changed = $0; changed.uniqueIdentifier = "new/\(changed.uniqueIdentifier)"; return changed })
        // Best lists cached for the short prefixes.
        for query in ["k", "ka", "r", "t", "mi", "s"] { _ = e.search(SearchQuery(query, now: referenceNow)) }
        return e
    }

    func expectSameAnswers(_ a: SearchEngine, _ b: SearchEngine, _ stage: String, seed: UInt64, queries count: Int = 120) {
        #expect(a.records == b.records, "\(stage): records")
        #expect(a.activities == b.activities, "\(stage): activities")
        #expect(a.engagements == b.engagements, "\(stage): views")
        #expect(a.documentCount == b.documentCount, "\(stage): documents")
        let queries = ScanTests().queries(seed, count: count) + ["lantern", "zoe", "北极", "r", "room r1", "ka web", "lonely", "555", "page owner", "renamed", "viewed", "viewed doc", "shared page", "shared"]
        for query in queries {
            for limit in [1, 50] {
                let request = SearchQuery(query, limit: limit, now: referenceNow)
                let x = a.search(request), y = b.search(request)
                #expect(x.results.map(\.uniqueIdentifier) == y.results.map(\.uniqueIdentifier), "\(stage): \(query)")
                #expect(x.results.map(\.explanation) == y.results.map(\.explanation), "\(stage): \(query)")
                #expect(x.results.map(\.attributes) == y.results.map(\.attributes), "\(stage): \(query)")
                #expect(x.results.map(\.highlights) == y.results.map(\.highlights), "\(stage): \(query)")
                #expect(x.total == y.total, "\(stage): \(query) total")
            }
        }
    }

    /// A snapshot stores a source and a visibility by its ordinal: each is
    /// its place in `allCases` (the order snapshots were written in before
    /// ordinals were named), and a byte no case has reads back as none.
    @Test func sourcesAndVisibilitiesKeepTheirStoredNumbers() {
        for (place, source) in Source.allCases.enumerated() {
            #expect(Int(source.ordinal) == place)
            #expect(Source(ordinal: source.ordinal) == source)
        }
        for (place, visibility) in Visibility.allCases.enumerated() {
            #expect(Int(visibility.ordinal) == place)
            #expect(Visibility(ordinal: visibility.ordinal) == visibility)
        }
        #expect(Source(ordinal: UInt8(Source.allCases.count)) == nil)
        #expect(Visibility(ordinal: UInt8(Visibility.allCases.count)) == nil)
        #expect(Source.allCases.sorted() == [.item, .activity, .web])
    }

    /// The best lists' threshold follows the index's size (a thousandth
    /// of its slots, from 500 to 2,000) until it is set; a snapshot keeps
    /// the value it was saved with, which a loaded index then holds.
    @Test func theListThresholdFollowsTheIndexSizeUntilSetAndLoadsAsSaved() throws {
        #expect(SearchEngine.sizedTopListThreshold(slots: 0) == 500)
        #expect(SearchEngine.sizedTopListThreshold(slots: 100_000) == 500)
        #expect(SearchEngine.sizedTopListThreshold(slots: 1_000_000) == 1_000)
        #expect(SearchEngine.sizedTopListThreshold(slots: 5_000_000) == 2_000)
        var engine = SearchEngine()
        #expect(engine.topListThreshold == 500)
        engine.topListThreshold = 7
        #expect(try Self.load(try Self.bytes(of: engine)).topListThreshold == 7)
        #expect(try Self.load(try Self.bytes(of: SearchEngine())).topListThreshold == 500)
    }

    @Test(arguments: [5, 6])
    func loadedEngineAnswersAndChangesAsTheOriginal(seed: UInt64) throws {
        var original = busyEngine(seed)
        // Large enough that the load takes its parallel paths.
        #expect(original.trie.nodes.count > EngineTuning.parallelNodeMinimum)
        #expect(original.records.count > 1_024)
        var loaded = try Self.load(try Self.bytes(of: original))
        expectSameAnswers(original, loaded, "loaded", seed: seed)

        // The same changes to both, compared after each: slots, nodes and
        // postings are reused from the same free lists, and merges follow
        // the maps the load derived, so the two must stay alike.
        let changes: [(String, (inout SearchEngine) -> Void)] = [
            ("re-index", { $0.index(self.richItems(seed + 2, count: 300)) }),
            ("re-index a viewed item", { e in
                let viewed = e.activities.values.compactMap(\.relatedUniqueIdentifier).sorted()[0]
                var changed = e.records[viewed]!.item
                changed.attributeSet.title = "renamed lantern"
                e.index([changed])
            }),
            ("delete viewed items", { e in e.deleteItems(identifiers: Array(e.records.keys.sorted().prefix(120))) }),
            ("delete a domain", { $0.deleteItems(domainIdentifiers: ["com.a.b"]) }),
            ("delete the item a page merged into", { $0.deleteItems(identifiers: ["doc/4"]) }),
            ("view", { e in e.becomeCurrent(activity(for: e.records.keys.sorted()[3]), at: referenceNow) }),
            ("disable", { $0.setPreference(.disabled) }),
        ]
        for (offset, (name, change)) in changes.enumerated() {
            change(&original)
            change(&loaded)
            expectSameAnswers(original, loaded, name, seed: seed + UInt64(offset), queries: 30)
        }
        // And a snapshot of the changed copy loads the same again.
        expectSameAnswers(original, try Self.load(try Self.bytes(of: loaded)), "reloaded", seed: seed + 2)
    }

    /// The same, every load borrowing its bytes as a load from a mapped
    /// file does (the arena's columns, the posting lists and the attribute
    /// sets read in place; the tables built on another thread).
    @Test(arguments: [5, 6])
    func aBorrowingLoadAnswersAndChangesAsTheOriginal(seed: UInt64) throws {
        try Self.$loadsBorrow.withValue(true) { try loadedEngineAnswersAndChangesAsTheOriginal(seed: seed) }
    }

    /// The same, loaded as a file whose checksum held is: borrowing, and
    /// taking each attribute set's stored tail instead of walking it.
    @Test func aVerifiedLoadAnswersAndChangesAsTheOriginal() throws {
        try Self.$loadsBorrow.withValue(true) {
            try Self.$loadsVerified.withValue(true) { try loadedEngineAnswersAndChangesAsTheOriginal(seed: 7) }
        }
    }

    @Test func changesAfterABorrowingLoadNeverWriteTheBorrowedBytes() throws {
        var original = busyEngine(3)
        let bytes = try Self.bytes(of: original)
        let (borrowing, owner) = try Self.loadBorrowing(bytes)
        var loaded = borrowing
        #expect(loaded.tokens.nodes.isBorrowed && loaded.tokens.places.isBorrowed)
        #expect(loaded.trie.nodes.contains { $0.postingList.isBorrowed })
        #expect(loaded.records.values.contains { $0.item.attributeSet.packed.isBorrowed })
        let changes: [(inout SearchEngine) -> Void] = [
            { $0.index(self.richItems(4, count: 300)) },
            { e in e.deleteItems(identifiers: Array(e.records.keys.sorted().prefix(200))) },
            { e in e.becomeCurrent(activity(for: e.records.keys.sorted()[5]), at: referenceNow) },
        ]
        for change in changes {
            change(&original)
            change(&loaded)
        }
        expectSameAnswers(original, loaded, "changed", seed: 3, queries: 30)
        let unchanged = UnsafeRawBufferPointer(owner.bytes).elementsEqual(bytes)
        #expect(unchanged)
    }

    @Test func borrowedBytesLiveAsLongAsWhatBorrowsThem() throws {
        let bytes = try Self.bytes(of: busyEngine(8))
        weak var released: OwnedBytes?
        var copy: SearchEngine?
        do {
            let (engine, owner) = try Self.loadBorrowing(bytes)
            released = owner
            copy = engine
        }
        // The engine's copy still borrows them: they must be there.
        #expect(released != nil)
        let before = copy!.search(SearchQuery("ka", now: referenceNow)).results.map(\.title)
        #expect(!before.isEmpty)
        #expect(copy!.records.count > 1_000) // waits for the tables built on another thread
        copy!.waitForLoadCopies()
        copy = nil
        // That thread lets go of its work a moment after handing it over
        // (longer on a machine busy with other suites: up to ten seconds).
        for _ in 0..<2_000 where released != nil { usleep(5_000) }
        #expect(released == nil)
    }

    @Test func theFirstChangeAfterABorrowingLoadTakesTheCopiesMadeBehindIt() throws {
        var original = busyEngine(2)
        let (borrowing, owner) = try Self.loadBorrowing(try Self.bytes(of: original))
        var loaded = borrowing
        #expect(loaded.tokens.isBorrowed && loaded.trie.nodes.contains { $0.postingList.isBorrowed })
        loaded.waitForLoadCopies()
        let change: (inout SearchEngine) -> Void = { $0.index(self.richItems(7, count: 50)) }
        change(&original)
        change(&loaded)
        // Nothing borrowed is left, and the copies answer as the original.
        #expect(!loaded.tokens.nodes.isBorrowed && !loaded.tokens.counts.isBorrowed)
        #expect(!loaded.trie.nodes.contains { $0.postingList.isBorrowed })
        expectSameAnswers(original, loaded, "after the copies", seed: 2, queries: 40)
        let deletions: (inout SearchEngine) -> Void = { e in e.deleteItems(identifiers: Array(e.records.keys.sorted().prefix(300))) }
        deletions(&original)
        deletions(&loaded)
        expectSameAnswers(original, loaded, "deleted after the copies", seed: 3, queries: 40)
        withExtendedLifetime(owner) {}
    }

    /// Bytes that record which of their pages a load asks to drop.
    final class RecordingBytes: DroppablePages, @unchecked Sendable {
        private let storage: OwnedBytes
        private let lock = NSLock()
        private var dropped: [(start: UInt, count: Int)] = []
        init(_ source: [UInt8]) { storage = OwnedBytes(source) }
        var bytes: UnsafeMutableRawBufferPointer { storage.bytes }
        func dropPages() {}
        func dropPages(in part: UnsafeRawBufferPointer) {
            lock.lock(); defer { lock.unlock() }
            dropped.append((UInt(bitPattern: part.baseAddress), part.count))
        }
        var droppedParts: [(start: UInt, count: Int)] {
            lock.lock(); defer { lock.unlock() }
            return dropped
        }
    }

    /// The background copies drop the pages of what they copied, each
    /// part once, and nothing else: dropping the whole mapping took the
    /// pages of the sets and lists that queries were reading meanwhile.
    @Test func theCopiesDropThePagesOfWhatTheyCopiedAlone() throws {
        let original = busyEngine(14)
        let owner = RecordingBytes(try Self.bytes(of: original))
        var loaded = try SearchEngine(snapshot: UnsafeRawBufferPointer(owner.bytes), owner: owner, verified: Self.loadsVerified)
        func part(_ bytes: UnsafeRawBufferPointer) -> (start: UInt, count: Int) { (UInt(bitPattern: bytes.baseAddress), bytes.count) }
        var expected = [part(loaded.tokens.words.borrowedBytes), part(loaded.tokens.starts.borrowedBytes), part(loaded.tokens.counts.borrowedBytes)]
        let lists = loaded.trie.nodes.map(\.postingList).filter { $0.isBorrowed && !$0.isEmpty }.map { part($0.borrowedBytes) }
        let low = lists.map(\.start).min()!, high = lists.map { $0.start + UInt($0.count) }.max()!
        expected.append((low, Int(high - low)))
        loaded.waitForLoadCopies()
        let dropped = owner.droppedParts
        #expect(dropped.map(\.start) == expected.map(\.start) && dropped.map(\.count) == expected.map(\.count))
        // Each inside the snapshot, and the sets' bytes in none of them.
        let base = UInt(bitPattern: owner.bytes.baseAddress)
        #expect(dropped.allSatisfy { $0.start >= base && $0.start + UInt($0.count) <= base + UInt(owner.bytes.count) })
        #expect(dropped.reduce(0) { $0 + $1.count } < owner.bytes.count / 2)
        var changed = original
        changed.index([item("z/1", title: "after")])
        loaded.index([item("z/1", title: "after")])
        #expect(!loaded.tokens.isBorrowed, "the change took the copies")
        expectSameAnswers(changed, loaded, "copies taken", seed: 14, queries: 20)
        withExtendedLifetime(owner) {}
    }

    @Test func anIdleOwnerTakesTheLoadsWorkOnceItIsDone() throws {
        let original = busyEngine(12)
        let (borrowing, owner) = try Self.loadBorrowing(try Self.bytes(of: original))
        var loaded = borrowing
        loaded.waitForLoadCopies()
        #expect(loaded.tokens.isBorrowed)
        let settled = loaded.settleLoadIfReady()
        #expect(settled)
        #expect(loaded.pendingTables == nil && !loaded.tokens.nodes.isBorrowed)
        #expect(!loaded.trie.nodes.contains { $0.postingList.isBorrowed })
        let again = loaded.settleLoadIfReady()
        #expect(!again)
        expectSameAnswers(original, loaded, "settled", seed: 12, queries: 40)
        withExtendedLifetime(owner) {}
    }

    /// While a load's identifier map is being built, a query finds the
    /// viewed documents from the per-slot flags: the two must agree.
    @Test func viewedDocumentsFromTheFlagsAreThoseTheMapFinds() throws {
        var engine = busyEngine(13)
        func agree(_ stage: String) {
            let fromMap = Set(engine.engagements.keys.compactMap { engine.documentIndex[$0] })
            #expect(!fromMap.isEmpty, "\(stage)")
            #expect(engine.engagedDocumentsFromFlags() == fromMap, "\(stage)")
        }
        agree("built")
        let viewed = engine.engagements.keys.sorted()
        engine.deleteItems(identifiers: Array(viewed.prefix(2)))
        agree("viewed items deleted")
        engine.index(richItems(14, count: 100))
        agree("slots reused")
        engine.becomeCurrent(activity(for: engine.records.keys.sorted()[9]), at: referenceNow)
        agree("viewed again")
        let (loaded, owner) = try Self.loadBorrowing(try Self.bytes(of: engine))
        #expect(loaded.engagedDocumentsFromFlags() == engine.engagedDocumentsFromFlags())
        // What a query uses until the loaded engine's map is taken in.
        #expect(loaded.engagedAtLoad == engine.engagedDocumentsFromFlags())
        withExtendedLifetime(owner) {}
    }

    @Test func theFirstReadOfALoadedTableWaitsForIt() throws {
        let original = busyEngine(4)
        let (loaded, owner) = try Self.loadBorrowing(try Self.bytes(of: original))
        // A copy taken while the tables are still being built, and changed,
        // changes alone (the tables are shared until then).
        var copy = loaded
        let doomed = original.records.keys.sorted()[0]
        copy.deleteItems(identifiers: [doomed])
        #expect(copy.records[doomed] == nil && loaded.records[doomed] != nil)
        #expect(loaded.records == original.records)
        #expect(loaded.documentIndex == original.documentIndex)
        #expect(loaded.itemsByURL == original.itemsByURL && loaded.webByURL == original.webByURL)
        #expect(loaded.expiringDocuments == original.expiringDocuments)
        #expect(loaded.documentCount == copy.documentCount + 1)
        withExtendedLifetime(owner) {}
    }

    @Test func emptyEngineRoundTrips() throws {
        var empty = SearchEngine(preference: .disabled)
        empty.topListThreshold = 7
        let loaded = try Self.load(try Self.bytes(of: empty))
        #expect(loaded.preference == .disabled)
        #expect(loaded.topListThreshold == 7)
        #expect(loaded.documentCount == 0)
        #expect(loaded.search(SearchQuery("a", now: referenceNow)).total == 0)
    }

    @Test func fieldMapSettingsRoundTrip() throws {
        var engine = SearchEngine()
        engine.tuning.fieldMapMinimumDocuments = 9
        engine.tuning.fieldMapQueryMinimumSlots = 11
        let loaded = try Self.load(try Self.bytes(of: engine))
        #expect(loaded.tuning.fieldMapMinimumDocuments == 9)
        #expect(loaded.tuning.fieldMapQueryMinimumSlots == 11)
    }

    @Test func cutShortOrForeignBytesAreRefusedNotTrusted() throws {
        let bytes = try Self.bytes(of: busyEngine(9))
        // Every cut, from the header to the last byte, throws.
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) + [bytes.count - 1] {
            #expect(throws: SnapshotError.self) { try Self.load(Array(bytes.prefix(cut))) }
        }
        // Damaged values (the file's checksum catches these before the
        // engine sees them) are refused or read, never a crash.
        for offset in stride(from: 40, to: bytes.count, by: max(1, bytes.count / 400)) {
            var damaged = bytes
            damaged[offset] ^= 0xA5
            _ = try? Self.load(damaged)
        }
        var foreign = bytes
        foreign[8] ^= 0xFF // the format number
        #expect(throws: SnapshotError(.incompatible, "the snapshot was written by another build")) { try Self.load(foreign) }
        #expect(throws: SnapshotError.self) { try Self.load(bytes + [0]) }
    }
}
