import Testing
@testable import SearchIndex

/// The token arena keeps bits 10–15 of each posting's place: a word with
/// more than 65,536 postings has a window of 1,024 candidate places in
/// each run of 65,536, told apart by their documents. Deletes and updates in such a list must take
/// out exactly their own postings, wherever they sit.
@Suite struct LongPostingListTests {
    @Test func deletesAndUpdatesInAListPastSixteenBitsTakeOutTheirOwnPostings() throws {
        let count = 70_000
        var engine = SearchEngine()
        engine.index((0..<count).map { item("w/\($0)", title: "common word\($0 % 7)") })
        let node = try #require(engine.trie.node(ofToken: "common"))
        #expect(engine.trie[node].postingList.count == count)
        // Documents whose postings sit past the first 65,536, at places that
        // share their low bits with earlier ones, and some before.
        let doomed = [3, 4_464, 65_536, 65_537, 69_999, 12, 65_548].map { "w/\($0)" }
        engine.deleteItems(identifiers: doomed)
        engine.index([item("w/70", title: "rare"), item("w/65540", title: "rare")])
        let postings = engine.trie[node].postings
        let remaining = Set(postings.map(\.doc))
        #expect(engine.trie[node].postingList.count == count - doomed.count - 2)
        #expect(engine.search(SearchQuery("common", limit: 0, now: referenceNow)).total == count - doomed.count - 2)
        for id in doomed + ["w/70", "w/65540"] {
            #expect(!engine.ids("common " + id, limit: 1_000).contains(id))
        }
        #expect(engine.search(SearchQuery("rare", limit: 10, now: referenceNow)).results.map(\.uniqueIdentifier).sorted()
            == ["w/65540", "w/70"])
        // Every live document's posting is still in the list, found at its recorded place.
        for (slot, document) in engine.documents.enumerated() where document != nil {
            for index in engine.tokens.span(of: UInt32(slot)) where engine.tokens.nodes[index] == node {
                #expect(remaining.contains(UInt32(slot)))
                let place = engine.trie.position(of: UInt32(slot), in: node, place: engine.tokens.places[index])
                #expect(postings[Int(place)].doc == UInt32(slot))
                #expect(TokenArena.place(of: place) == engine.tokens.places[index])
            }
        }
    }
}
