import Foundation
import SearchIndex

extension PersistentIndex {
    /// One step of a batch (`apply(_:clientState:at:)`).
    public enum BatchStep: Sendable {
        case index([SearchableItem])
        case deleteIdentifiers([String])
        case deleteDomains([String])
        case deleteAll
    }

    /// Applies `steps` in order as one write: the store holds all of them
    /// or none. The store batch is what the steps leave, the engine before
    /// against the engine after, so an item indexed then deleted in the
    /// same batch is never written.
    public func apply(_ steps: [BatchStep], clientState: String?, at date: Date = Date()) throws {
        try write(at: date) { _ in
            let engine = self.engine
            var next = engine
            var indexed: [String: SearchableItem] = [:]
            var batch = StoreBatch()
            for step in steps {
                switch step {
                case .index(let items):
                    next.index(items)
                    for item in items { indexed[item.uniqueIdentifier] = item }
                case .deleteIdentifiers(let ids): next.deleteItems(identifiers: ids)
                case .deleteDomains(let domains):
                    next.deleteItems(domainIdentifiers: domains)
                    batch.deletedDomains += domains
                case .deleteAll:
                    next.deleteAll()
                    batch.deleteEverything = true
                }
            }
            batch.upsertedRecords = indexed.values.filter { next.records[$0.uniqueIdentifier] != nil }
                .sorted { $0.uniqueIdentifier < $1.uniqueIdentifier }.map { IndexRecord(source: .item, item: $0) }
            batch.deletedRecordIDs = engine.records.keys.filter { next.records[$0] == nil }.sorted()
            batch.deletedActivityIDs = engine.activities.keys.filter { next.activities[$0] == nil }.sorted()
            batch.deletedEngagementIDs = engine.engagements.keys.filter { next.engagements[$0] == nil }.sorted()
            batch.clientState = clientState
            batch.log = [("batch", "\(steps.count) operation\(steps.count == 1 ? "" : "s"): \(batch.upsertedRecords.count) indexed, \(batch.deletedRecordIDs.count) deleted")]
            return WritePlan(batch: batch, next: next)
        }
        knownQuarantine = nil
    }
}
