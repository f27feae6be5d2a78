import TestSupport
import Testing
@testable import SearchIndex

/// The record table answers as a dictionary of the same records would,
/// through growth, removals that shift buckets back, and reused places.
@Suite struct RecordTableTests {
    func record(_ id: String, _ version: Int) -> IndexRecord {
        IndexRecord(source: version % 3 == 0 ? .web : .item, item: item(id, title: "title \(version)"))
    }

    func expectSame(_ table: RecordTable, _ model: [String: IndexRecord], _ stage: String) {
        #expect(table.count == model.count, "\(stage): count")
        #expect(table.isEmpty == model.isEmpty, "\(stage): isEmpty")
        #expect(table.keys.sorted() == model.keys.sorted(), "\(stage): keys")
        #expect(table.values.map(\.item.uniqueIdentifier).sorted() == model.values.map(\.item.uniqueIdentifier).sorted(), "\(stage): values")
        for (id, record) in model { #expect(table[id] == record, "\(stage): \(id)") }
    }

    @Test(arguments: [1, 2, 3])
    func aTableAnswersAsADictionaryThroughChanges(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var table = RecordTable()
        var model: [String: IndexRecord] = [:]
        // Few identifiers, many operations: long probe runs, repeated
        // removals and re-insertions, the table emptied and refilled.
        let pool = (0..<300).map { "doc/\($0)" }
        for step in 0..<6_000 {
            let id = pool.randomElement(using: &generator)!
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let new = record(id, step)
                #expect(table.updateValue(new, forKey: id) == model.updateValue(new, forKey: id), "update \(id)")
            case 5..<8:
                #expect(table.removeValue(forKey: id) == model.removeValue(forKey: id), "remove \(id)")
            case 8:
                table[id] = nil
                model[id] = nil
            default:
                #expect(table[id] == model[id], "read \(id)")
                #expect(table["missing/\(step)"] == nil)
            }
            if step % 500 == 0 { expectSame(table, model, "step \(step)") }
            if step == 3_000 {
                for id in model.keys { table[id] = nil }
                model = [:]
                expectSame(table, model, "emptied")
            }
        }
        expectSame(table, model, "end")
    }

    @Test func aTableMadeFromSavedRecordsKeepsTheLastOfARepeatedIdentifier() {
        let records = (0..<1_000).map { record("doc/\($0 % 700)", $0) }
        let table = RecordTable(records: records)
        var model: [String: IndexRecord] = [:]
        for record in records { model[record.item.uniqueIdentifier] = record }
        expectSame(table, model, "made")
        var changed = table
        changed["doc/5"] = nil
        changed.updateValue(record("doc/new", 1), forKey: "doc/new")
        model["doc/5"] = nil
        model["doc/new"] = record("doc/new", 1)
        expectSame(changed, model, "changed")
        #expect(table["doc/5"] != nil, "a copy changes alone")
    }
}
