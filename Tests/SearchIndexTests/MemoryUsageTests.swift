import Foundation
import Testing
@testable import SearchIndex
@testable import SearchSnapshot

/// `memoryUsage()`, what `bench` reports of the engine's memory: each part
/// follows what the index holds, and what a load reads in place from the
/// snapshot is counted apart from the engine's own memory.
@Suite struct MemoryUsageTests {
    // Not "records": documents hold most records, and the table only the
    // rest (`RecordKeepingTests`).
    private let perItemParts = [
        "tokenArena", "attributeSets", "postings", "documents", "trie", "identifierMap", "slotColumns",
    ]

    @Test func everyPartGrowsWithTheIndexAndTheTotalIsTheirSum() {
        let corpus = ScanTests().corpus(41, count: 800)
        let small = engine(Array(corpus.prefix(200))).memoryUsage()
        let large = engine(corpus).memoryUsage()
        for name in perItemParts {
            #expect(small[name] > 0, "\(name)")
            #expect(large[name] > small[name], "\(name)")
        }
        #expect(large.total == large.parts.reduce(0) { $0 + $1.bytes })
        #expect(large.parts.map(\.bytes) == large.parts.map(\.bytes).sorted(by: >))
        #expect(large.borrowed == 0)
    }

    @Test func deletingEverythingGivesTheMemoryBack() {
        var index = engine(ScanTests().corpus(42, count: 400))
        let before = index.memoryUsage().total
        index.deleteAll()
        #expect(index.memoryUsage().total < before / 100)
    }

    @Test func anAttributeSetSharedByTwoItemsCountsOnce() {
        let first = item("a/1", title: "one shared set", description: String(repeating: "long text ", count: 50))
        var second = first
        second.uniqueIdentifier = "a/2"
        var other = first
        other.uniqueIdentifier = "a/3"
        other.attributeSet.title = "a set of its own"
        let shared = engine([first, second]).memoryUsage()["attributeSets"]
        let apart = engine([first, other]).memoryUsage()["attributeSets"]
        #expect(apart > shared + 400)
    }

    @Test func aBorrowingLoadCountsTheMappedBytesApartUntilItOwnsThem() throws {
        let original = SnapshotTests().busyEngine(5)
        let built = original.memoryUsage()
        let (borrowing, owner) = try SnapshotTests.loadBorrowing(try SnapshotTests.bytes(of: original))
        var loaded = borrowing
        let lent = loaded.memoryUsage()
        #expect(lent["tokenArena"] == 0 && lent["postings"] == 0)
        #expect(lent.borrowed >= built["tokenArena"] + built["postings"])
        // The sets are read in place through a few windows over the run of
        // sets, not an object each (`PackedStorage.window`).
        #expect(lent["attributeSets"] * 4 < built["attributeSets"])
        loaded.waitForLoadCopies()
        let tookTheCopies = loaded.settleLoadIfReady()
        #expect(tookTheCopies)
        let settled = loaded.memoryUsage()
        #expect(settled["tokenArena"] == built["tokenArena"] && settled["postings"] == built["postings"])
        #expect(settled.borrowed < lent.borrowed)
        withExtendedLifetime(owner) {}
    }
}
