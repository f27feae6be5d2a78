import TestSupport
import Testing
@testable import SearchIndex

/// The slot table finds each document's slot by identifier as a
/// dictionary would, through inserts, removals that shift buckets back
/// (made after the document left its slot, as the engine does) and growth.
@Suite struct SlotTableTests {
    func document(_ id: String) -> Document {
        Document(
            uniqueIdentifier: id, title: id, titleLength: id.count, contentType: "public.item", domainIdentifier: nil,
            sources: [.item], visibility: .public)
    }

    @Test(arguments: [1, 2, 3])
    func aSlotTableAnswersAsADictionaryThroughChanges(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var table = SlotTable()
        var model: [String: UInt32] = [:]
        var documents: [Document?] = []
        var free: [UInt32] = []
        let pool = (0..<400).map { "doc/\($0)" }
        for step in 0..<8_000 {
            let id = pool.randomElement(using: &generator)!
            if let slot = model[id] {
                #expect(table.slot(of: id, in: documents) == slot, "step \(step): \(id)")
                if Bool.random(using: &generator) {
                    // As the engine: the document goes, then its slot.
                    documents[Int(slot)] = nil
                    table.remove(id, slot: slot, in: documents)
                    model[id] = nil
                    free.append(slot)
                }
            } else {
                #expect(table.slot(of: id, in: documents) == nil, "step \(step): \(id) absent")
                let slot: UInt32
                if let reused = free.popLast() { slot = reused } else {
                    documents.append(nil)
                    slot = UInt32(documents.count - 1)
                }
                // As the engine: the slot first, then its document.
                table.insert(id, slot: slot, in: documents)
                documents[Int(slot)] = document(id)
                model[id] = slot
            }
            #expect(table.count == model.count)
        }
        for id in pool { #expect(table.slot(of: id, in: documents) == model[id], "\(id)") }
        let view = DocumentIndex(table: table, documents: documents)
        #expect(view == DocumentIndex(table: table, documents: documents))
    }
}
