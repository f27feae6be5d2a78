import Dispatch
import Foundation
import Testing
@testable import SearchIndex
import TestSupport

/// A count's marking shared by two threads, run by run, sets the bits
/// and counts the documents that one thread's marking does.
@Suite struct SharedMarkingTests {
    /// Titles of made-up words from a few stems, so that five-letter terms
    /// reach many subtrees with their typos, one of them broad.
    func corpus() -> [SearchableItem] {
        var generator = SeededGenerator(seed: 29)
        let stems = ["mar", "mor", "ami", "tor", "mat", "rot", "ar", "ta", "ma", "o"]
        func word() -> String {
            (0..<Int.random(in: 2...4, using: &generator)).map { _ in stems.randomElement(using: &generator)! }.joined()
        }
        let words = (0..<2_500).map { index in
            item(String(format: "w/%05d", index), title: "\(word()) \(word())", keywords: [word()],
                 expires: index % 97 == 0 ? referenceNow.addingTimeInterval(-60) : nil)
        }
        // "zorb" is broad through one large word, its other words walked
        // (its cover's residual), and some of those documents are also
        // reached outside it ("zobex", one typo from "zorbe").
        return words + items(300, "large", title: { "zorbexx \($0)" })
            + items(3, "walked", title: { "zorbi zobex \($0)" }) + items(2, "walked-alone", title: { "zorba \($0)" })
            + items(5, "outside", title: { "zobex \($0)" })
    }

    func sharedEngine() -> SearchEngine {
        var (engine, _) = mappedAndEnumeratingEngines(corpus(), mapMinimum: 40)
        engine.tuning.sharedCountMinimum = 0
        return engine
    }

    /// Each way the runs can fall to the threads (all to one, all to the
    /// other, taken at once by two) gives `documentBits`' set and count.
    @Test func twoThreadsMarkWhatOneMarks() {
        let engine = sharedEngine()
        var (withBase, withoutBase, withResidual) = (0, 0, 0)
        for term in ["marto", "morta", "amito", "torma", "matar", "rotam", "tamor", "omama", "matam", "tarot", "amora", "motor", "rotar", "maram", "tomat", "armat", "zorbe"] {
            let matches = engine.termMatches.matches(for: term, in: engine.trie)
            let plan = engine.countPlan(matches, of: term, mapsBroadTerm: false)
            guard case .marked(let base)? = plan.counting else { continue }
            if base == nil { withoutBase += 1 } else { withBase += 1 }
            let cover = base.map(engine.subtreeCover)
            if cover?.residual.isEmpty == false { withResidual += 1 }
            let expected = engine.documentBits(of: matches, roots: plan.roots, outside: base.map { ($0, cover!) })
            for way in 0..<3 {
                let marking = engine.sharedMarking(of: matches, roots: plan.roots, outside: base)!
                switch way {
                case 0: engine.mark(marking, thread: 0, outside: cover)
                case 1: engine.mark(marking, thread: 1, outside: cover)
                default:
                    DispatchQueue.concurrentPerform(iterations: 2) { engine.mark(marking, thread: $0, outside: cover) }
                }
                let merged = engine.mergedBits(marking, outside: cover)
                #expect(merged.count == expected.count, "\(term), way \(way)")
                #expect(merged.bits == expected.bits, "\(term), way \(way)")
            }
        }
        #expect(withBase >= 1 && withoutBase >= 1, "terms counted outside a broad subtree and without one")
        #expect(withResidual >= 1, "a broad subtree whose cover leaves postings out of its map")
    }

    /// Answers and totals are enumeration's with the marking shared; and
    /// once a change makes a node the trie's order does not place, the
    /// marking is not shared (its runs would miss that node's postings)
    /// and the totals stay right.
    @Test func sharedCountsAreEnumerations() {
        var engine = sharedEngine()
        var enumerating = engine
        enumerating.tuning.scanEnabled = false
        enumerating.topListThreshold = .max
        func agree(_ note: String) {
            for text in ["marto", "morta", "amito", "torma", "matar", "rotam", "zorbe"] {
                let query = SearchQuery(text, limit: 20, now: referenceNow)
                let a = engine.search(query), b = enumerating.search(query)
                #expect(a.total == b.total, "\(text) \(note)")
                #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(text) \(note)")
            }
        }
        agree("as built")
        let added = [item("w/new", title: "martoxq mortaqz", keywords: ["amitozz"])]
        engine.index(added)
        enumerating.index(added)
        #expect(!engine.trie.allNodesOrdered)
        let matches = engine.termMatches.matches(for: "marto", in: engine.trie)
        #expect(engine.sharedMarking(of: matches, roots: engine.trie.topmost(of: matches.prefix), outside: nil) == nil)
        agree("after a change")
    }
}
