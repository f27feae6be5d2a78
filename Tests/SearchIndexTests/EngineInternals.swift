import Foundation
@testable import SearchIndex

// Looks into the engine's caches and tables that only tests need: each
// reads what the engine keeps, under the lock the engine takes.

extension TopListCache {
    /// Every cached field map, by node, a byte a slot (for tests).
    var allFieldMaps: [Int32: [UInt8]] {
        lock.lock(); defer { lock.unlock() }
        return summaries.compactMapValues(\.fieldMap?.unpacked)
    }

    /// Every cached own field map, by node, a byte a slot (for tests).
    var allOwnFieldMaps: [Int32: [UInt8]] {
        lock.lock(); defer { lock.unlock() }
        return summaries.compactMapValues(\.ownFieldMap?.unpacked)
    }

    /// Nodes whose remembered tail is not their list's own (a check for
    /// tests: a wrong tail lets a change skip a list it should enter).
    func nodesWithWrongTails(ranks: [StaticRank]) -> [Int32] {
        lock.lock(); defer { lock.unlock() }
        return ranks.withUnsafeBufferPointer { ranks in
            func wrong(_ tail: ListTail?, _ list: [TopEntry]?) -> Bool {
                guard let tail, let list else { return false }
                guard let actual = ListTail(of: list, ranks: ranks) else { return true }
                return tail.count != actual.count || tail.last.compare(actual.last) != 0
            }
            return summaries.compactMap { node, summary in
                wrong(summary.subtreeTail, summary.subtree) || wrong(summary.ownTail, summary.own) ? node : nil
            }
        }
    }
}

extension SlotScratch {
    /// Whether every idle map is clean (for tests: a mark a query left
    /// behind would give a later query a false candidate).
    var idleMapsAreClean: Bool {
        lock.lock(); defer { lock.unlock() }
        return idle.allSatisfy { maps in
            maps.codes.allSatisfy { $0 == TermProbe.miss } && maps.bits.allSatisfy { $0 == 0 }
        }
    }
}

extension TermMatchCache {
    /// The scan candidates of `term` if remembered (for tests: a look,
    /// not a use).
    func knownScanCandidates(for term: String) -> SearchEngine.ScanCandidates? {
        lock.lock(); defer { lock.unlock() }
        return candidateLists.peek(term)
    }
}

extension TokenTrie {
    /// Scalars in the label pool, and how many of them no node uses.
    var labelPoolUse: (total: Int, unused: Int) { (labels.count, unusedLabelScalars) }
}

extension Document {
    /// The domain's shared object (for tests).
    var domainObject: DomainName? { domain }
}
