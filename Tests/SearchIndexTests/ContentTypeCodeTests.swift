import Foundation
import Testing
@testable import SearchIndex

/// A document's slot codes its content type when it is a common one
/// (`Document.contentTypeCode`), so that results need not read the set:
/// the code must say the set's type through builds, updates and
/// snapshots, and results must show every type as indexed.
@Suite struct ContentTypeCodeTests {
    static let types = PackedAttributes.commonContentTypes + ["com.example.recipe", "public.audio", ""]

    func items(shift: Int) -> [SearchableItem] {
        (0..<120).map { i in
            var made = item("t/\(i)", title: "Lantern \(i)", keywords: ["harbor"])
            made.attributeSet.contentType = Self.types[(i + shift) % Self.types.count]
            return made
        }
    }

    /// Every document's type, read through its code, is its set's; and
    /// results of two queries (one a word, one a prefix) show the types
    /// the items were indexed with.
    func check(_ e: SearchEngine, indexed: [SearchableItem], _ stage: String) {
        var coded = 0
        for expected in indexed {
            guard let slot = e.slot(of: expected.uniqueIdentifier), let document = e.documents[Int(slot)] else {
                Issue.record("\(stage): \(expected.uniqueIdentifier) has no document")
                continue
            }
            let type = expected.attributeSet.contentType
            #expect(document.contentType == type, "\(stage): \(expected.uniqueIdentifier)")
            #expect(e.shownAttributes(of: document).contentType == type, "\(stage): \(expected.uniqueIdentifier)")
            let common = PackedAttributes.commonContentTypes.contains(type)
            #expect((document.contentTypeCode != 0) == common, "\(stage): \(expected.uniqueIdentifier) \(type)")
            if common { coded += 1 }
        }
        #expect(coded > 0 && coded < indexed.count, "\(stage): both kinds")
        let byID = Dictionary(uniqueKeysWithValues: indexed.map { ($0.uniqueIdentifier, $0.attributeSet.contentType) })
        for text in ["lantern", "harb"] {
            let results = e.search(SearchQuery(text, limit: 1_000, now: referenceNow)).results
            #expect(results.count == indexed.count, "\(stage): \(text)")
            for result in results {
                #expect(result.contentType == byID[result.uniqueIdentifier], "\(stage): \(text) \(result.uniqueIdentifier)")
            }
        }
    }

    @Test(arguments: [false, true])
    func theSlotSaysTheSetsType(bestLists: Bool) throws {
        var e = engine(items(shift: 0))
        if bestLists {
            e.topListThreshold = 10
            e.warmTopLists()
        }
        check(e, indexed: items(shift: 0), "built")
        // Every item's type changes: common to other, other to common.
        e.index(items(shift: 4))
        check(e, indexed: items(shift: 4), "updated")
        let bytes = try SnapshotTests.bytes(of: e)
        check(try SnapshotTests.load(bytes), indexed: items(shift: 4), "loaded")
        let (borrowing, owner) = try SnapshotTests.loadBorrowing(bytes)
        check(borrowing, indexed: items(shift: 4), "loaded borrowing")
        withExtendedLifetime(owner) {}
    }
}
