import Foundation
import Testing
import TestSupport
@testable import SearchIndex

/// Best lists, field maps and enumeration give the same answers when
/// most documents have expired (the first third of the identifiers, which
/// rank first on ties, and a share of the rest) and some have views:
/// the lists' first entries are then mostly skipped.
@Suite struct ExpiryAgreementTests {
    /// `count` items of short words; `expiredShare` percent of them (and
    /// the first third, unless none) expired a minute before `referenceNow`.
    func corpus(_ seed: UInt64, count: Int, expiredShare: Int) -> [SearchableItem] {
        var generator = SeededGenerator(seed: seed)
        let syllables = ["ka", "ren", "to", "mi", "sa", "lo", "k", "kar", "s", "qa", "kb"]
        func word() -> String { (0..<Int.random(in: 1...3, using: &generator)).map { _ in syllables.randomElement(using: &generator)! }.joined() }
        var items: [SearchableItem] = []
        for i in 0..<count {
            let id = String(format: "d/%05d", i)
            let titleWords: [String] = (0..<Int.random(in: 1...3, using: &generator)).map { _ in word() }
            let description: String? = Bool.random(using: &generator) ? word() + " " + word() : nil
            let keywords: [String] = Bool.random(using: &generator) ? [word()] : []
            let expired = Int.random(in: 0..<100, using: &generator) < expiredShare || (i < count / 3 && expiredShare > 0)
            items.append(item(id, title: titleWords.joined(separator: " "), description: description,
                              keywords: keywords, expires: expired ? referenceNow.addingTimeInterval(-60) : nil))
        }
        return items
    }

    @Test(arguments: [(1, 0), (2, 30), (3, 60), (4, 90), (5, 50)])
    func listsAndMapsAgreeWithEnumeration(seed: Int, expiredShare: Int) {
        let items = corpus(UInt64(seed), count: 3_000, expiredShare: expiredShare)
        var (mapped, slow) = mappedAndEnumeratingEngines(items, mapMinimum: 40)
        var fast = engine(items)
        fast.topListThreshold = 10
        fast.warmTopLists()
        // A few documents with views, some of them searchable activities.
        for n in stride(from: 0, to: 200, by: 17) {
            let id = String(format: "d/%05d", n * 7)
            let activity = activity(for: id, eligible: n % 34 == 0)
            let date = referenceNow.addingTimeInterval(-Double(n) * 60)
            fast.becomeCurrent(activity, at: date)
            mapped.becomeCurrent(activity, at: date)
            slow.becomeCurrent(activity, at: date)
        }
        let queries = ["k", "ka", "kar", "kare", "karen", "karto", "kbren", "qaren", "s", "sa", "sal", "salo", "mitok", "mitoka", "renkato",
                       "lorensa", "kamitosalo", "sarenlo", "ka s", "kar mi", "karen to", "s k", "mitoka sa", "lo renka"]
        for query in queries {
            for limit in [1, 7, 50, 100] {
                let expected = slow.search(SearchQuery(query, limit: limit, now: referenceNow))
                for (name, e) in [("fast", fast), ("mapped", mapped)] {
                    let got = e.search(SearchQuery(query, limit: limit, now: referenceNow))
                    #expect(got.results.map(\.uniqueIdentifier) == expected.results.map(\.uniqueIdentifier), "\(name) \(query) limit \(limit)")
                    #expect(got.total == expected.total, "\(name) \(query) limit \(limit) total")
                    #expect(got.results.map(\.highlights) == expected.results.map(\.highlights), "\(name) \(query) highlights")
                }
            }
        }
    }
}

/// A query before every expiration reads no expiration at all (the
/// engine keeps a bound below them); that bound must never hide an
/// expiry after the documents that set it are deleted, updated to a later
/// date or to none, or after a snapshot load.
@Suite struct ExpiryBoundTests {
    @Test func expiriesHoldThroughDeletesUpdatesAndLoads() throws {
        // 400 items titled "karen N"; every fourth expires, the earliest first.
        var expiries: [String: Date] = [:]
        var live: Set<String> = []
        var items: [SearchableItem] = []
        for n in 0..<400 {
            let id = String(format: "k/%03d", n)
            let expires = n % 4 == 0 ? referenceNow.addingTimeInterval(Double(100 + n)) : nil
            expiries[id] = expires
            live.insert(id)
            items.append(item(id, title: "karen \(n)", description: n % 2 == 0 ? "sato" : nil, expires: expires))
        }
        var (mapped, slow) = mappedAndEnumeratingEngines(items, mapMinimum: 40)
        var fast = engine(items)
        fast.topListThreshold = 10
        fast.warmTopLists()

        func expect(_ stage: String, at offset: Double) throws {
            let now = referenceNow.addingTimeInterval(offset)
            let loaded = try SnapshotTests.load(SnapshotTests.bytes(of: fast))
            let visible = live.filter { expiries[$0].map { $0 > now } ?? true }
            for query in ["karen", "ka", "k", "karen 1", "sato ka", "karen 12"] {
                var expected: Set<String> = []
                for id in visible {
                    let n = Int(id.dropFirst(2))!
                    let text = "karen \(n)" + (n % 2 == 0 ? " sato" : "")
                    let words = text.split(separator: " ")
                    if query.split(separator: " ").allSatisfy({ term in words.contains { $0.hasPrefix(term) } }) {
                        expected.insert(id)
                    }
                }
                for (name, e) in [("slow", slow), ("mapped", mapped), ("fast", fast), ("loaded", loaded)] {
                    let got = e.search(SearchQuery(query, limit: 500, now: now))
                    #expect(got.total == expected.count, "\(stage) \(name) \(query) total")
                    let ids = Set(got.results.map(\.uniqueIdentifier))
                    #expect(
                        ids.symmetricDifference(expected).isEmpty,
                        "\(stage) \(name) \(query): missing \(expected.subtracting(ids).sorted()), extra \(ids.subtracting(expected).sorted())")
                }
            }
        }
        func apply(_ change: (inout SearchEngine) -> Void) {
            change(&fast)
            change(&mapped)
            change(&slow)
        }

        try expect("before any expiry", at: 0)
        try expect("the first expired", at: 100.5)
        // The earliest two go: the bound stays below what is left.
        apply { _ = $0.deleteItems(identifiers: ["k/000", "k/004"]) }
        live.subtract(["k/000", "k/004"])
        try expect("after deleting the earliest", at: 109)
        try expect("after deleting the earliest, later", at: 300)
        // One moved later, one to never, one earlier than all.
        func update(_ id: String, expires: Date?) {
            let n = Int(id.dropFirst(2))!
            let updated = item(id, title: "karen \(n)", description: n % 2 == 0 ? "sato" : nil, expires: expires)
            apply { $0.index([updated]) }
            expiries[id] = expires
        }
        update("k/008", expires: referenceNow.addingTimeInterval(10_000))
        update("k/012", expires: nil)
        update("k/013", expires: referenceNow.addingTimeInterval(5))
        try expect("after updates, before any", at: 1)
        try expect("after updates, one early", at: 6)
        try expect("after updates, later", at: 200)
        try expect("after updates, all but one", at: 600)
        try expect("after updates, all", at: 20_000)
    }
}
