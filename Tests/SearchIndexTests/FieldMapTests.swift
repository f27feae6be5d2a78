import Foundation
import TestSupport
import Testing
@testable import SearchIndex

/// `FieldMap`, four bits a slot, behaves as the byte-a-slot map it
/// replaced: the same field in every slot after any run of changes.
@Suite struct FieldMapTests {
    /// Random lowers (inside, at and past the end), clears and minimums
    /// with other maps, each checked against a plain array of bytes.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func changesKeepTheSameFieldsAsAByteASlot(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        func randomField() -> UInt8 {
            Int.random(in: 0..<4, using: &generator) == 0 ? SearchEngine.noField : UInt8.random(in: 0...3, using: &generator)
        }
        for start in [0, 1, 31, 32, 33, 100] {
            var model = (0..<start).map { _ in randomField() }
            var map = FieldMap(unpacked: model)
            #expect(map.unpacked == model)
            for _ in 0..<300 {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:
                    let slot = Int.random(in: 0...(model.count + 40), using: &generator)
                    let field = UInt8.random(in: 0...3, using: &generator)
                    map.lower(slot, to: field)
                    if slot >= model.count { model += repeatElement(SearchEngine.noField, count: slot + 1 - model.count) }
                    model[slot] = min(model[slot], field)
                case 1:
                    let slot = Int.random(in: 0...(model.count + 5), using: &generator)
                    map.clear(slot)
                    if slot < model.count { model[slot] = SearchEngine.noField }
                default:
                    // Another map, shorter or longer: slots past this one's end stay out of it.
                    let other = (0..<Int.random(in: 0...(model.count + 40), using: &generator)).map { _ in randomField() }
                    map.formMinimum(with: FieldMap(unpacked: other))
                    for slot in model.indices where slot < other.count { model[slot] = min(model[slot], other[slot]) }
                }
                #expect(map.count == model.count)
                #expect((0..<(model.count + 3)).map { map[$0] } == model + repeatElement(SearchEngine.noField, count: 3))
            }
        }
    }

    /// Half a byte a slot, in whole groups of 32.
    @Test func aMillionSlotsTakeHalfAMegabyte() {
        #expect(FieldMap(count: 1_000_000).byteCount == 500_000)
        #expect(FieldMap(count: 33).byteCount == 32)
        #expect(FieldMap(count: 0).byteCount == 0)
    }
}

/// A one-term count run on the other core beside the ranking gives what
/// the same count gives after it.
@Suite struct SharedCountTests {
    @Test func sharedAndSerialCountsAgree() {
        var generator = SeededGenerator(seed: 11)
        let syllables = ["ka", "ren", "to", "mi", "sa", "lo", "k", "kar", "s", "qa", "kb", "ston", "ton", "sto"]
        func word() -> String { (0..<Int.random(in: 1...4, using: &generator)).map { _ in syllables.randomElement(using: &generator)! }.joined() }
        let items = (0..<3_000).map { i in
            item(String(format: "d/%05d", i), title: (0..<3).map { _ in word() }.joined(separator: " "),
                 description: word() + " " + word(), keywords: [word()])
        }
        var (serial, _) = mappedAndEnumeratingEngines(items, mapMinimum: 40)
        serial.tuning.sharedCountMinimum = .max
        var shared = serial
        shared.tuning.sharedCountMinimum = 0
        var marking = 0
        for query in ["k", "ka", "karen", "karto", "stoni", "stonk", "tonsa", "mitok", "salom", "kbren", "ston ", "karen "] {
            let terms = Tokenizer.queryTerms(query)
            let matches = shared.termMatches.matches(for: terms[0], in: shared.trie)
            if shared.countPlan(matches, of: terms[0], mapsBroadTerm: query.hasSuffix(" ")).markedPostings > 0 { marking += 1 }
            let expected = serial.search(SearchQuery(query, limit: 20, now: referenceNow))
            let got = shared.search(SearchQuery(query, limit: 20, now: referenceNow))
            #expect(got.total == expected.total, "\(query)")
            #expect(got.results.map(\.uniqueIdentifier) == expected.results.map(\.uniqueIdentifier), "\(query)")
        }
        // Some of the counts did mark postings (the path shared with the other core).
        #expect(marking >= 3)
    }
}

/// A term's code map whose postings two cores mark, the second into a
/// borrowed map (`SlotScratch`), is the map one core makes, hits
/// included, and the borrowed map is handed back clean: a code left in
/// it would be a false hit for the next term marked there.
@Suite struct SharedCodeMapTests {
    @Test func aCodeMapMarkedOnTwoCoresIsTheOneCoresAndLeavesItsBorrowedMapClean() {
        var generator = SeededGenerator(seed: 23)
        let syllables = ["ka", "ren", "to", "mi", "sa", "lo", "k", "kar", "s", "qa", "ston", "ton", "sto"]
        func word() -> String { (0..<Int.random(in: 1...4, using: &generator)).map { _ in syllables.randomElement(using: &generator)! }.joined() }
        // 3,001 slots: neither half of the merge a whole number of its blocks.
        let items = (0..<3_001).map { i in
            item(String(format: "c/%05d", i), title: (0..<3).map { _ in word() }.joined(separator: " "),
                 description: word() + " " + word(), keywords: [word()])
        }
        var (serial, _) = mappedAndEnumeratingEngines(items, mapMinimum: 40)
        serial.tuning.sharedMarkingMinimum = .max
        var shared = serial
        shared.tuning.sharedMarkingMinimum = 1
        shared.tuning.parallelScanMinimum = 1
        var nonEmpty = 0
        for term in ["k", "ka", "karen", "karto", "stoni", "stonk", "tonsa", "mitok", "salom", "renka", "lomisa"] {
            let matches = shared.termMatches.matches(for: term, in: shared.trie)
            guard case .made(let oneCodes, let oneHits) = serial.termCodeMap(matches),
                  case .made(let twoCodes, let twoHits) = shared.termCodeMap(matches)
            else {
                Issue.record("\(term): a code map is made")
                continue
            }
            let (one, two) = ((codes: oneCodes, hits: oneHits), (codes: twoCodes, hits: twoHits))
            #expect(two.codes.count == one.codes.count, "\(term)")
            #expect(zip(two.codes, one.codes).filter { $0 != $1 }.count == 0, "\(term): slots whose codes differ")
            #expect(two.hits == one.hits, "\(term)")
            #expect(SearchEngine.slotScratch.idleMapsAreClean, "\(term): the borrowed map is clean again")
            if one.hits > 0 { nonEmpty += 1 }
        }
        #expect(nonEmpty >= 8)
    }
}

/// A term between one slot in sixty-four and one in sixteen, with as
/// many postings, is answered from code maps with the broad terms of its
/// query (`EngineTuning.fieldMapQueryShare`), with enumeration's answers; one below
/// it still drives a scan.
@Suite struct FieldMapQueryShareTests {
    @Test func aTermInOneSlotInFortyIsAnsweredFromCodeMaps() {
        // 6,400 items: "vexa" in one in forty (160), "quor" in one in
        // a hundred (64), "lumo" and "tarn" in most.
        let items = (0..<6_400).map { i -> SearchableItem in
            var words = [i % 3 == 0 ? "lumo" : "tarn", i % 5 == 0 ? "tarn" : "lumo"]
            if i % 40 == 7 { words.append("vexa") }
            if i % 100 == 11 { words.append("quor") }
            return item(String(format: "s/%05d", i), title: words.joined(separator: " "), description: "filler \(i % 13)")
        }
        let (mapped, enumerating) = mappedAndEnumeratingEngines(items, mapMinimum: 40)
        func plan(_ text: String) -> QueryPlan.Strategy {
            mapped.search(SearchQuery(text, limit: 20, now: referenceNow)).plan.strategy
        }
        #expect(plan("lumo vexa") == .fieldMaps)
        #expect(plan("vexa t") == .fieldMaps)
        #expect(plan("lumo quor") == .scan, "one slot in a hundred drives a scan")
        #expect(enumerating.search(SearchQuery("lumo vexa", now: referenceNow)).plan.strategy == .enumeration)
        for text in ["lumo vexa", "vexa t", "vexa lumo tarn", "lumo quor", "vex l"] {
            for limit in [1, 20, 200] {
                let request = SearchQuery(text, limit: limit, now: referenceNow)
                let (a, b) = (mapped.search(request), enumerating.search(request))
                #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(text) limit \(limit)")
                #expect(a.results.map(\.explanation) == b.results.map(\.explanation), "\(text) limit \(limit)")
                #expect(a.total == b.total, "\(text) total")
            }
        }
    }
}
