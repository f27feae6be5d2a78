import Catalog
import Foundation
import Testing
import TestSupport
@testable import SearchIndex
@testable import SearchStore

/// Core Spotlight's `rankingHint` in the model (SPEC 1): imported, stored,
/// saved in the snapshot and exported as given; bad values refused.
@Suite struct RankingHintTests {
    static let lines = [
        #"{"uniqueIdentifier":"h/1","attributeSet":{"title":"Whole","rankingHint":7066}}"#,
        #"{"uniqueIdentifier":"h/2","attributeSet":{"title":"Fraction","rankingHint":2.5}}"#,
        #"{"uniqueIdentifier":"h/3","attributeSet":{"title":"Zero","rankingHint":0}}"#,
        #"{"uniqueIdentifier":"h/4","attributeSet":{"title":"None"}}"#,
    ]
    static let expected: [String: Double?] = ["h/1": 7066, "h/2": 2.5, "h/3": 0, "h/4": nil]

    func hints(_ engine: SearchEngine) -> [String: Double?] {
        Dictionary(uniqueKeysWithValues: Self.expected.keys.map { ($0, engine.records[$0]?.item.attributeSet.rankingHint) })
    }

    @Test func hintsSurviveTheStoreTheSnapshotAndExport() throws {
        let items = try ItemImporter.items(from: Array(Self.lines.joined(separator: "\n").utf8), file: "hints.jsonl")
        #expect(Dictionary(uniqueKeysWithValues: items.map { ($0.uniqueIdentifier, $0.attributeSet.rankingHint) }) == Self.expected)
        let path = temporaryPath()
        do {
            let index = try PersistentIndex.open(path: path, delegate: nil).index
            try index.index(items)
            #expect(hints(index.engine) == Self.expected)
            #expect(try index.saveSnapshot())
        }
        let fromSnapshot = try PersistentIndex.open(path: path, delegate: nil).index
        #expect(fromSnapshot.engineOrigin == .snapshot)
        #expect(hints(fromSnapshot.engine) == Self.expected)
        try FileManager.default.removeItem(atPath: SnapshotFile.path(forStore: path))
        let fromRecords = try PersistentIndex.open(path: path, delegate: nil).index
        #expect(fromRecords.engineOrigin == .records)
        #expect(hints(fromRecords.engine) == Self.expected)
        // The stored body keeps the hint as it was given.
        let stored = try IndexStore(path: path).load().records.first { $0.item.uniqueIdentifier == "h/1" }
        #expect(stored?.item.attributeSet.rankingHint == 7066)
    }

    /// The hint's place in the order and the exact-name table come back
    /// the same from the snapshot and from the records.
    @Test func theOrderIsTheSameFromTheSnapshotAndFromTheRecords() throws {
        let lines = [
            #"{"uniqueIdentifier":"r/1","attributeSet":{"title":"Requests","rankingHint":10}}"#,
            #"{"uniqueIdentifier":"r/2","attributeSet":{"title":"Requests Toolbelt","rankingHint":90000}}"#,
            #"{"uniqueIdentifier":"r/3","attributeSet":{"title":"Requestsx"}}"#,
            #"{"uniqueIdentifier":"r/4","attributeSet":{"title":"Reqs","displayName":"Requests","rankingHint":5}}"#,
        ]
        let items = try ItemImporter.items(from: Array(lines.joined(separator: "\n").utf8), file: "r.jsonl")
        func order(_ index: PersistentIndex, _ text: String) -> [String] {
            index.engine.search(SearchQuery(text)).results.map(\.uniqueIdentifier)
        }
        let expected = [["r/2", "r/1", "r/4", "r/3"], ["r/1", "r/4", "r/2", "r/3"]]
        let path = temporaryPath()
        do {
            let index = try PersistentIndex.open(path: path, delegate: nil).index
            try index.index(items)
            #expect([order(index, "request"), order(index, "requests")] == expected)
            #expect(try index.saveSnapshot())
        }
        let fromSnapshot = try PersistentIndex.open(path: path, delegate: nil).index
        #expect(fromSnapshot.engineOrigin == .snapshot)
        #expect([order(fromSnapshot, "request"), order(fromSnapshot, "requests")] == expected)
        try FileManager.default.removeItem(atPath: SnapshotFile.path(forStore: path))
        let fromRecords = try PersistentIndex.open(path: path, delegate: nil).index
        #expect(fromRecords.engineOrigin == .records)
        #expect([order(fromRecords, "request"), order(fromRecords, "requests")] == expected)
    }

    @Test(arguments: [
        (#"{"uniqueIdentifier":"x","attributeSet":{"rankingHint":-1}}"#, "finite number, 0 or more"),
        (#"{"uniqueIdentifier":"x","attributeSet":{"rankingHint":1e999}}"#, "number out of range"),
        (#"{"uniqueIdentifier":"x","attributeSet":{"rankingHint":"high"}}"#, "expected a number"),
    ])
    func aBadHintRefusesTheFileNamingTheField(line: String, problem: String) throws {
        let text = Self.lines[0] + "\n" + line
        let error = try #require(throws: ImportError.self) { try ItemImporter.items(from: Array(text.utf8), file: "bad.jsonl") }
        #expect(error.line == 2)
        #expect(error.field == "attributeSet.rankingHint")
        #expect(error.message.contains(problem))
    }
}
