import Foundation
import Testing
@testable import SearchIndex
import TestSupport

@Suite struct MappedTermCodeMapTests {
    /// Random field maps (one or two, some shorter than the slots) with
    /// their bases, as a term's nodes give them.
    func randomMaps(slotCount: Int, using generator: inout SeededGenerator) -> [(map: FieldMap, base: UInt8)] {
        (0..<Int.random(in: 1...EngineTuning.mappedTermMapLimit, using: &generator)).map { _ in
            let length = Bool.random(using: &generator) ? slotCount : Int.random(in: 0...slotCount, using: &generator)
            let fields = (0..<length).map { _ in
                Int.random(in: 0..<3, using: &generator) == 0 ? SearchEngine.noField : UInt8.random(in: 0...3, using: &generator)
            }
            return (FieldMap(unpacked: fields), UInt8.random(in: 0...2, using: &generator) * 8 + (Bool.random(using: &generator) ? 4 : 0))
        }
    }

    /// A run of slots read from a term's field maps and the postings
    /// beside them holds, slot for slot, what a code map of the same
    /// holds (the maps merged, the postings marked): runs that start and
    /// end inside a group of 32 or on its edge, past a short map's end,
    /// and of one slot; and a lookup of one slot reads the same.
    @Test func aRunOfSlotsHoldsWhatTheMergeWrites() {
        var generator = SeededGenerator(seed: 47)
        for slotCount in [1, 31, 32, 33, 100, 1_000, 5_000] {
            for _ in 0..<6 {
                let maps = randomMaps(slotCount: slotCount, using: &generator)
                var merged = [UInt8](repeating: 0x55, count: slotCount)
                _ = merged.withUnsafeMutableBufferPointer { TermCodeMap.merge(maps, into: $0) }
                // Postings beside the maps, some on one slot twice, lowering
                // the codes where they are less.
                var postings: [(slot: Int, code: UInt8)] = []
                for _ in 0..<Int.random(in: 0...12, using: &generator) {
                    postings.append((Int.random(in: 0..<slotCount, using: &generator), UInt8.random(in: 0...20, using: &generator)))
                }
                postings += postings.prefix(2).map { ($0.slot, $0.code &+ 1) }
                for (slot, code) in postings { merged[slot] = min(merged[slot], code) }
                let mapped = TermCodeMap.mapped(maps: maps, postings: postings)
                var starts = [0, 1, 31, 32, 33, slotCount - 1].filter { $0 >= 0 && $0 < slotCount }
                starts.append(Int.random(in: 0..<slotCount, using: &generator))
                for start in starts {
                    let ends: Set<Int> = [start + 1, min(slotCount, start + 32), min(slotCount, start + 77), slotCount]
                    for end in ends.sorted() where end > start {
                        var run = [UInt8](repeating: 0x33, count: end - start)
                        run.withUnsafeMutableBufferPointer { mapped.fill(start..<end, into: $0) }
                        #expect(run == Array(merged[start..<end]), "\(slotCount) slots, \(maps.count) maps, \(start)..<\(end)")
                    }
                }
                let lookup = SlotCodeLookup(map: mapped)
                let looked = withExtendedLifetime(mapped) { (0..<slotCount).map { lookup[$0] } }
                #expect(looked == merged, "\(slotCount) slots, \(maps.count) maps, looked up")
            }
        }
    }

    /// An engine where "r" (the subtree of "room" and "rope") is broad and
    /// read from one field map, and "quartz" is narrow.
    func engines() -> (mapped: SearchEngine, enumerating: SearchEngine) {
        let corpus = items(600, "broad", title: { "lantern \($0 % 2 == 0 ? "room" : "rope")" })
            + items(40, "narrow", title: { "quartz \($0 % 4 == 0 ? "rope" : "lamp")" })
            + items(6, "gone", expired: true, title: { _ in "lantern room quartz rope" })
            + items(200, "other", title: { "pebble \($0)" })
        return mappedAndEnumeratingEngines(corpus, mapMinimum: 30)
    }

    /// A broad term its field maps alone cover is read from them, whether
    /// the query sums every slot's rules (both terms broad) or scans a
    /// narrow term's documents and looks it up for each: the answers and
    /// totals are enumeration's, and no code map is made for it (one was
    /// made and kept before, a megabyte at a million items written for a
    /// single keystroke).
    @Test func aTermItsMapsCoverIsReadFromThemWithoutACodeMap() {
        let (mapped, enumerating) = engines()
        let matches = mapped.termMatches.matches(for: "r", in: mapped.trie)
        #expect(mapped.isBroad(matches))
        #expect(mapped.mappedTermCodes(matches) != nil, "\"r\" is covered by its maps")
        for text in ["lantern r", "quartz r", "r lantern", "lantern ro", "quartz ro", "lan r"] {
            let request = SearchQuery(text, limit: 10, now: referenceNow)
            let a = mapped.search(request), b = enumerating.search(request)
            #expect(a.total == b.total && a.total > 0, "\(text) total")
            #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(text)")
        }
        for term in ["r", "ro"] {
            let madeMap = mapped.termMatches.knownCodeMap(for: term) != nil
            #expect(!madeMap, "\(term) read from its maps, no code map made")
        }
    }

    /// A term with a few postings beside its maps (a whole word too rare
    /// for a map of its own) is read from them and those postings; one
    /// with more than `EngineTuning.mappedTermExtraLimit` beside them gets its
    /// code map. Either way the answers are enumeration's.
    @Test(arguments: [30, 400])
    func postingsBesideTheMapsAreReadOrMapped(mapMinimum: Int) {
        var corpus = items(600, "broad", title: { "lantern \($0 % 2 == 0 ? "room" : "rope")" })
        corpus += items(300, "letter", title: { "lantern r \($0 % 100 == 0 ? "" : "stone")" })
        corpus += items(40, "narrow", title: { _ in "quartz r" })
        let (mapped, enumerating) = mappedAndEnumeratingEngines(corpus, mapMinimum: mapMinimum)
        let matches = mapped.termMatches.matches(for: "r", in: mapped.trie)
        // At 30 the word "r" (340 documents) keeps a map of its own; at 400 not.
        let aside = mapMinimum == 400
        #expect((mapped.mappedTermCodes(matches) == nil) == aside)
        for text in ["lantern r", "quartz r", "r lantern"] {
            let request = SearchQuery(text, limit: 10, now: referenceNow)
            let a = mapped.search(request), b = enumerating.search(request)
            #expect(a.total == b.total && a.total > 0, "\(text) total")
            #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(text)")
        }
        let madeMap = mapped.termMatches.knownCodeMap(for: "r") != nil
        #expect(madeMap == aside)

        // Three documents with the word: postings beside the maps, read.
        var few = items(600, "broad", title: { "lantern \($0 % 2 == 0 ? "room" : "rope")" })
        few += items(3, "letter", title: { _ in "lantern r" })
        let (fewMapped, fewEnumerating) = mappedAndEnumeratingEngines(few, mapMinimum: 30)
        let fewMatches = fewMapped.termMatches.matches(for: "r", in: fewMapped.trie)
        guard case .mapped(_, let extras)? = fewMapped.mappedTermCodes(fewMatches) else {
            Issue.record("\"r\" is read from its maps")
            return
        }
        #expect(extras.count == 3)
        let request = SearchQuery("lantern r", limit: 10, now: referenceNow)
        let a = fewMapped.search(request), b = fewEnumerating.search(request)
        #expect(a.total == b.total && a.total == 603)
        #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier))
        #expect(a.results.first?.uniqueIdentifier.hasPrefix("letter") == true, "the whole word ranks first")
        let fewMadeMap = fewMapped.termMatches.knownCodeMap(for: "r") != nil
        #expect(!fewMadeMap)
    }
}
