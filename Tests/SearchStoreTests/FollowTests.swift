import Foundation
import Testing
import TestSupport
@testable import SearchIndex
@testable import SearchStore

/// Several processes on one index file (SPEC section 7): two
/// `PersistentIndex` instances on one file stand for two processes, each
/// with its own connection and engine.
@Suite struct FollowTests {
    static let queries = ["lake", "la", "brent", "aurora", "photo", "com", "seen", "tv", "zebra", "s"]

    /// Every answer of `index` to the fixed queries.
    static func answers(_ index: PersistentIndex) -> [SearchResponse] {
        queries.map { index.engine.search(SearchQuery($0, limit: 50, now: now)) }
    }

    /// Follows the store as the UI does: in place, or by a rebuild.
    static func follow(_ index: PersistentIndex) throws -> PersistentIndex.FollowOutcome {
        let outcome = try index.followStore()
        if outcome == .needsRebuild, let path = index.store.path {
            index.adopt(try PersistentIndex.readEngine(from: IndexStore(path: path, readOnly: true)))
        }
        return outcome
    }

    static func item(_ n: Int, domain: Int, words: String) -> SearchableItem {
        sampleItem("i/\(n)", "\(words) \(n)", domain: "com.example.d\(domain)")
    }

    /// One random write by `index`.
    static func randomWrite(on index: PersistentIndex, _ random: inout SeededGenerator, step: Int) throws {
        let words = ["Lake", "Brent Reid", "Aurora photo", "Seen on tv", "Zebra"]
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            let items = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                item(Int.random(in: 0..<30, using: &random), domain: Int.random(in: 0..<3, using: &random),
                     words: words.randomElement(using: &random)!)
            }
            try index.index(items, clientState: "step \(step)", at: now)
        case 4:
            try index.deleteItems(identifiers: ["i/\(Int.random(in: 0..<30, using: &random))"], at: now)
        case 5:
            try index.deleteItems(domainIdentifiers: ["com.example.d\(Int.random(in: 0..<3, using: &random))"], at: now)
        case 6:
            if Int.random(in: 0..<4, using: &random) == 0 { try index.deleteAll(at: now) }
        case 7, 8:
            var attributes = AttributeSet()
            attributes.relatedUniqueIdentifier = Bool.random(using: &random) ? "i/\(Int.random(in: 0..<30, using: &random))" : nil
            let view = UserActivity(activityType: "com.example.view.\(Int.random(in: 0..<5, using: &random))", title: "Seen",
                                    keywords: ["seen"], contentAttributeSet: attributes, isEligibleForSearch: true)
            try index.becomeCurrent(view, at: now.addingTimeInterval(Double(step)))
        default:
            try index.setPreference(index.preference == .disabled ? .viewedRecords : .disabled, at: now)
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func twoWritersEachAnswerAsAFreshlyOpenedIndexOnceCaughtUp(seed: UInt64) throws {
        let path = temporaryPath()
        let a = try PersistentIndex.open(path: path, delegate: nil).index
        let b = try PersistentIndex.open(path: path, delegate: nil).index
        var random = SeededGenerator(seed: seed)
        for step in 0..<60 {
            try Self.randomWrite(on: Bool.random(using: &random) ? a : b, &random, step: step)
            // Sometimes a writer falls behind by several writes before it follows.
            guard Int.random(in: 0..<3, using: &random) != 0 else { continue }
            let fresh = Self.answers(try PersistentIndex.open(path: path, delegate: nil).index)
            for index in [a, b] {
                _ = try Self.follow(index)
                #expect(Self.answers(index) == fresh, "step \(step)")
                #expect(index.preference == (try index.store.meta().preference))
            }
        }
    }

    @Test func aSmallChangeIsAppliedInPlaceAndSummarised() throws {
        let path = temporaryPath()
        let ui = try PersistentIndex.open(path: path, delegate: ListDelegate(items: [sampleItem("a/1", "Lake")])).index
        #expect(try ui.followStore() == .current)
        let other = try PersistentIndex.open(path: path, delegate: nil).index
        try other.index((0..<3).map { sampleItem("n/\($0)", "Walrus \($0)") }, at: now)
        try other.deleteItems(identifiers: ["a/1"], at: now)
        try other.setPreference(.disabled, at: now)
        guard case .caughtUp(let summary) = try ui.followStore() else {
            Issue.record("a small change is applied in place")
            return
        }
        #expect(summary.added == 3 && summary.removed == 1 && summary.preference == .disabled)
        #expect(summary.writers == [IndexStore.writerName])
        #expect(ui.engine.search(SearchQuery("walrus", now: now)).total == 3)
        #expect(ui.preference == .disabled)
        #expect(try ui.followStore() == .current)
    }

    @Test func aWriteTooLargeToListIsCaughtUpByARebuild() throws {
        let path = temporaryPath()
        let ui = try PersistentIndex.open(path: path, delegate: nil).index
        let other = try PersistentIndex.open(path: path, delegate: nil).index
        try other.index((0...IndexStore.changeListLimit).map { sampleItem("n/\($0)", "Walrus \($0)") }, at: now)
        #expect(try ui.followStore() == .needsRebuild)
        #expect(ui.engine.records.isEmpty)
        #expect(try Self.follow(ui) == .needsRebuild)
        #expect(ui.engine.search(SearchQuery("walrus", now: now)).total == IndexStore.changeListLimit + 1)
        #expect(try ui.followStore() == .current)
    }

    @Test func aWriteNeverStandsOnAStaleEngine() throws {
        let path = temporaryPath()
        let items = [sampleItem("show/6", "Northern Lights", domain: "com.example.tv"), sampleItem("show/7", "Lake")]
        let ui = try PersistentIndex.open(path: path, delegate: ListDelegate(items: items)).index
        let view = UserActivity(activityType: "com.example.view", title: "Northern Lights", isEligibleForSearch: true)
        // Another process disables indexing and deletes the item; the UI has not followed.
        let other = try PersistentIndex.open(path: path, delegate: nil).index
        try other.setPreference(.disabled, at: now)
        try other.deleteItems(identifiers: ["show/6"], at: now)
        #expect(ui.engine.records["show/6"] != nil)
        #expect(try ui.becomeCurrent(view, at: now, ifIndexed: "show/6") == nil)
        // A write of its own (deleting another item) does not bring show/6 back.
        try ui.deleteItems(identifiers: ["show/7"], at: now)
        let fresh = try PersistentIndex.open(path: path, delegate: nil).index
        #expect(fresh.engine.records.isEmpty)
        #expect(fresh.engine.engagements.isEmpty && fresh.engine.activities.isEmpty)
        #expect(fresh.preference == .disabled && ui.preference == .disabled)
        // A view under the preference it has now seen indexes no activity.
        try fresh.index([sampleItem("show/8", "Lake")], at: now)
        var attributes = AttributeSet()
        attributes.relatedUniqueIdentifier = "show/8"
        let related = UserActivity(activityType: "com.example.view", title: "Lake", contentAttributeSet: attributes, isEligibleForSearch: true)
        #expect(try ui.becomeCurrent(related, at: now, ifIndexed: "show/8") == .recordedOnly)
        #expect(try ui.store.activityIdentifiers().isEmpty)
    }

    @Test func theLogNamesEachWriter() throws {
        let path = temporaryPath()
        let index = try PersistentIndex.open(path: path, delegate: nil).index
        try index.index([sampleItem("a/1", "Lake")], at: now)
        #expect(try index.operationLog().last?.writer == IndexStore.writerName)
    }
}
