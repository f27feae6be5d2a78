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
