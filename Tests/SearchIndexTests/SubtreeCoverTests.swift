import Foundation
import Testing
@testable import SearchIndex

/// A large subtree whose postings nearly all lie in the maps below it
/// keeps no field map of its own; code maps and counts read it as those
/// maps plus its few other lists, and must answer as enumeration does.
@Suite struct SubtreeCoverTests {
    func engines() -> (covering: SearchEngine, enumerating: SearchEngine) {
        // "lantern": a word with its own map; "lanterns", "lanternfish" and
        // "lanxy" the few postings beside it under "lan" (and "lantern").
        let corpus = items(600, "broad", title: { "lantern \($0 % 30 == 0 ? "lamtern" : "room")" })
            + items(4, "plural", title: { _ in "lanterns lamtern bright" })
            + items(2, "fish", title: { _ in "lanternfish deep" })
            + items(1, "gone", expired: true, title: { _ in "lanternfish lamtern" })
            + items(2, "cove", title: { _ in "lanxy cove" })
            + items(20, "near", title: { "lamtern \($0 % 5 == 0 ? "kantern" : "gate")" })
            + items(200, "other", title: { "pebble \($0)" })
        let (covering, enumerating) = mappedAndEnumeratingEngines(corpus, mapMinimum: 40)
        return (covering, enumerating)
    }

    @Test func nestedSubtreesKeepNoMapOfTheirOwn() throws {
        let (covering, _) = engines()
        let lan = try #require(covering.trie.find("lan"))
        let lantern = try #require(covering.trie.node(ofToken: "lantern"))
        #expect(covering.fieldMapWalkLimit >= 9, "the test's few postings fit under the limit")
        for node in [lan, lantern] {
            #expect(covering.trie[node].documentCount >= covering.fieldMapMinimum)
            #expect(!covering.keepsFieldMap(ofSubtree: node))
            #expect(covering.topLists.fieldMap(node) == nil, "no map kept for \(node)")
        }
        // "lan" is read as the word's own map and the three small lists,
        // kept gathered once the warm has made them.
        let cover = covering.subtreeCover(lan)
        #expect(cover.map == covering.fieldMap(ofOwnPostings: lantern))
        let residual = Set(cover.residual.map { covering.documents[Int($0.doc)]!.uniqueIdentifier })
        let expected = Set(["plural/0", "plural/1", "plural/2", "plural/3", "fish/0", "fish/1", "gone/0", "cove/0", "cove/1"])
        #expect(residual == expected)
        #expect(covering.topLists.residual(lan, minimum: covering.fieldMapMinimum)?.count == 9, "the residual kept")
        // The map such a cover stands for is still made whole on request.
        var fresh = covering
        fresh.topLists = TopListCache()
        #expect(covering.subtreeFieldMap(lan) == fresh.subtreeFieldMap(lan))
        #expect(covering.subtreeFieldMap(lan).filter { $0 != SearchEngine.noField }.count == 609)
    }

    @Test func answersAreEnumerationsBeforeAndAfterChanges() {
        var (covering, enumerating) = engines()
        let queries = [
            "lan", "lant", "lante", "lanter", "lantern", "lanterns", "lanternf", "lamte", "lante ", "lante roo",
            "lantern b", "lan d", "lanx", "lamtern l", "pebble lan", "kante",
        ]
        func expectSame(_ stage: String) {
            for text in queries {
                let request = SearchQuery(text, limit: 10, now: referenceNow)
                let a = covering.search(request), b = enumerating.search(request)
                #expect(a.total == b.total, "\(stage): \(text) total")
                #expect(a.results.map(\.uniqueIdentifier) == b.results.map(\.uniqueIdentifier), "\(stage): \(text)")
            }
        }
        expectSame("warmed")
        let lan = covering.trie.find("lan")!
        func kept(_ minimum: Int) -> Bool { covering.topLists.residual(lan, minimum: minimum) != nil }
        // Items with nothing under "lan" leave its residual alone, though
        // they raise the map minimum (a sixteenth of the slots): the next
        // queries gather it again under the new one.
        let before = covering.fieldMapMinimum
        let others = (0..<40).map { item("more/\($0)", title: "pebble more \($0)") }
        covering.index(others)
        enumerating.index(others)
        #expect(kept(before), "a change elsewhere keeps the residual")
        #expect(covering.fieldMapMinimum > before)
        expectSame("grown")
        // New postings beside the word, and some of the word's own gone.
        let grown = covering.fieldMapMinimum
        #expect(kept(grown))
        let added = (0..<5).map { item("added/\($0)", title: "lanternx lamtern \($0)") }
        covering.index(added)
        enumerating.index(added)
        #expect(!kept(grown), "a change under the node drops its residual")
        let gone = (0..<40).map { "broad/\($0)" } + ["plural/0", "cove/1"]
        covering.deleteItems(identifiers: gone)
        enumerating.deleteItems(identifiers: gone)
        expectSame("changed")
    }
}
