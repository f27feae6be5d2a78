import Foundation
import SearchIndex
import SearchStore
import SearchlightSpotlight
import Testing
import TestSupport

/// Code written for Core Spotlight, run on Linux against the store the
/// terminal UI browses (SPEC 8).
@Suite struct SpotlightAPITests {
    func index() -> CSSearchableIndex {
        CSSearchableIndex(path: scratchFolder("spotlight").appendingPathComponent("index.sqlite").path)
    }

    /// What the store holds now, read as a fresh process would.
    func engine(_ index: CSSearchableIndex) throws -> SearchEngine {
        try PersistentIndex.open(path: index.path, delegate: nil).index.engine
    }

    func employee(_ id: Int, name: String) -> CSSearchableItem {
        let attributes = CSSearchableItemAttributeSet(contentType: .contact)
        attributes.title = name
        attributes.phoneNumbers = ["+1 555 010 \(id)"]
        attributes.emailAddresses = ["\(name.lowercased().replacingOccurrences(of: " ", with: "."))@colleagues.example.com"]
        attributes.supportsPhoneCall = true
        attributes.keywords = ["swift", "search"]
        attributes.rankingHint = 3
        return CSSearchableItem(uniqueIdentifier: "employee \(id)", domainIdentifier: "com.example.colleagues.employee", attributeSet: attributes)
    }

    @Test func itemsIndexedThroughTheAPIAreSearchable() async throws {
        let index = index()
        try await index.indexSearchableItems([employee(1, name: "Brent Reid"), employee(2, name: "Brenda Okafor")])
        let engine = try engine(index)
        let results = engine.search(SearchQuery("bren", now: Date())).results
        #expect(Set(results.map(\.uniqueIdentifier)) == ["employee 1", "employee 2"])
        let brent = try #require(engine.records["employee 1"]?.item)
        #expect(brent.attributeSet.contentType == "public.contact")
        #expect(brent.attributeSet.supportsPhoneCall == true && brent.attributeSet.rankingHint == 3)
        #expect(brent.domainIdentifier == "com.example.colleagues.employee")
    }

    @Test func completionHandlersAreCalledOnceOffTheCallersThread() throws {
        let index = index()
        let calls = Counter()
        let done = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        index.indexSearchableItems([employee(1, name: "Brent Reid")]) { error in
            #expect(error == nil)
            #expect(pthread_equal(pthread_self(), caller) == 0)
            calls.add()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(calls.value == 1)
    }

    @Test func deletionsByIdentifierDomainAndAll() async throws {
        let index = index()
        let photo = CSSearchableItem(uniqueIdentifier: "photo/1", domainIdentifier: "com.example.photos.photo",
                                     attributeSet: CSSearchableItemAttributeSet(itemContentType: kUTTypeImage as String))
        try await index.indexSearchableItems([employee(1, name: "Brent Reid"), employee(2, name: "Grace Liu"), photo])
        try await index.deleteSearchableItems(withIdentifiers: ["employee 2"])
        #expect(try engine(index).records["employee 2"] == nil)
        try await index.deleteSearchableItems(withDomainIdentifiers: ["com.example.colleagues"])
        #expect(Array(try engine(index).records.keys) == ["photo/1"])
        try await index.deleteAllSearchableItems()
        #expect(try engine(index).records.isEmpty)
    }

    @Test func aBatchAppliesAtItsEndWithItsClientState() async throws {
        let index = index()
        index.beginBatch()
        try await index.indexSearchableItems([employee(1, name: "Brent Reid")])
        #expect(try engine(index).records.isEmpty)
        try await index.endBatch(withClientState: Data("page 7".utf8))
        #expect(try engine(index).records["employee 1"] != nil)
        #expect(try await index.fetchLastClientState() == Data("page 7".utf8))
        // A batch is one write: an item indexed and deleted in it never
        // lands, one deleted and indexed again stays, and the rest follow.
        index.beginBatch()
        try await index.indexSearchableItems([employee(2, name: "Grace Liu"), employee(3, name: "Yusuf Demir")])
        try await index.deleteSearchableItems(withIdentifiers: ["employee 2", "employee 1"])
        try await index.indexSearchableItems([employee(1, name: "Brent Reid")])
        try await index.endBatch(withClientState: Data("page 8".utf8))
        let engine = try engine(index)
        #expect(Set(engine.records.keys) == ["employee 1", "employee 3"])
        #expect(engine.search(SearchQuery("grace", now: Date())).total == 0)
        #expect(try await index.fetchLastClientState() == Data("page 8".utf8))
    }

    @Test func badItemsAreRefusedWithNothingApplied() async throws {
        let index = index()
        let bad = employee(3, name: "Bad Hint")
        bad.attributeSet.rankingHint = -1
        let empty = CSSearchableItem(uniqueIdentifier: "", domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet(contentType: .item))
        for items in [[employee(1, name: "Fine"), bad], [empty]] {
            do {
                try await index.indexSearchableItems(items)
                Issue.record("refused")
            } catch let error as CSIndexError {
                #expect(error.code == .invalidItemError)
            }
        }
        #expect(try engine(index).records.isEmpty)
    }

    @Test func theDelegateIsAskedToReindexAStoreMadeAnew() throws {
        let index = index()
        let delegate = Delegate()
        index.indexDelegate = delegate
        let done = DispatchSemaphore(value: 0)
        index.fetchLastClientState { _, _ in done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(delegate.asked.wait(timeout: .now() + 10) == .success)
    }

    @Test func theDelegateIsAskedToReindexADamagedStore() async throws {
        let folder = scratchFolder("damaged")
        let path = folder.appendingPathComponent("index.sqlite").path
        try Data(repeating: 0x5A, count: 8_192).write(to: URL(fileURLWithPath: path))
        let index = CSSearchableIndex(path: path)
        let delegate = Delegate()
        index.indexDelegate = delegate
        try await index.indexSearchableItems([employee(1, name: "Brent Reid")])
        #expect(delegate.asked.wait(timeout: .now() + 10) == .success)
        #expect(try engine(index).records["employee 1"] != nil)
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".broken-") }
        #expect(!aside.isEmpty)
    }

    @Test func aPNGThumbnailIsDescribedByItsHeader() async throws {
        let index = index()
        let attributes = CSSearchableItemAttributeSet(contentType: .image)
        attributes.title = "Lake"
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        png += [0, 0, 0, 120, 0, 0, 0, 80] + [UInt8](repeating: 0, count: 100)
        attributes.thumbnailData = Data(png)
        try await index.indexSearchableItems([CSSearchableItem(uniqueIdentifier: "photo 1", domainIdentifier: nil, attributeSet: attributes)])
        let thumbnail = try #require(try engine(index).records["photo 1"]?.item.attributeSet.thumbnail)
        #expect(thumbnail.format == "png" && thumbnail.width == 120 && thumbnail.height == 80 && thumbnail.byteCount == png.count)
    }

    #if !canImport(ObjectiveC)
    @Test func becomeCurrentIsInTheStoreWhenItReturns() async throws {
        let index = index()
        try await index.indexSearchableItems([employee(7, name: "Priya Raman")])
        let activity = NSUserActivity(activityType: "com.example.colleagues.view")
        activity.title = "Priya Raman"
        activity.keywords = ["colleague"]
        activity.isEligibleForSearch = true
        let attributes = CSSearchableItemAttributeSet(contentType: .contact)
        attributes.relatedUniqueIdentifier = "employee 7"
        activity.contentAttributeSet = attributes
        activity.searchableIndex = index
        #expect(!activity.isEligibleForPublicIndexing)
        activity.becomeCurrent()
        let engine = try engine(index)
        #expect(engine.engagements["employee 7"]?.count == 1)
        #expect(engine.search(SearchQuery("colleague", now: Date())).results.first?.uniqueIdentifier == "employee 7")
    }
    #endif

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    final class Delegate: CSSearchableIndexDelegate, @unchecked Sendable {
        let asked = DispatchSemaphore(value: 0)
        func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
            asked.signal()
            acknowledgementHandler()
        }
        func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String], acknowledgementHandler: @escaping () -> Void) {
            acknowledgementHandler()
        }
    }
}
