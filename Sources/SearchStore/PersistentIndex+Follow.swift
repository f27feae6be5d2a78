import Foundation
import SearchIndex

/// Following the store: other processes write to the same file, and the
/// engine in memory catches up with them by applying the rows they touched
/// (`IndexStore+Changes.swift`), or by reading everything again when the
/// change log does not reach back.
extension PersistentIndex {
    /// What `followStore` found.
    public enum FollowOutcome: Sendable, Equatable {
        /// Nobody wrote since the engine's generation.
        case current
        /// Others' writes were applied to the engine in place.
        case caughtUp(ChangeSummary)
        /// Only reading the engine again catches up (`readEngine`): the engine is as it was.
        case needsRebuild
    }

    /// What a catch-up changed, for a one-line notice.
    public struct ChangeSummary: Sendable, Equatable {
        public var added = 0
        public var updated = 0
        public var removed = 0
        /// Activities and views touched.
        public var activities = 0
        public var views = 0
        /// The new preference, when it changed.
        public var preference: IndexingPreference?
        /// Who wrote, in order of first write (`IndexStore.writerName`).
        public var writers: [String] = []

        public init() {}
    }

    /// Applies what other processes wrote since the engine's generation.
    /// Cheap when nothing changed (two reads of the store's meta table).
    public func followStore() throws -> FollowOutcome {
        guard loadedEngine != nil else {
            (preference, lastClientState) = try store.meta()
            return .current
        }
        guard let generation = engineGeneration else { return .needsRebuild }
        switch try store.changes(since: generation) {
        case .current: return .current
        case .tooFar: return .needsRebuild
        case .changes(let changes): return .caughtUp(apply(changes))
        }
    }

    /// Brings the engine to the store's state inside a write transaction,
    /// rebuilding it there when the change log does not reach back.
    func catchUp(in transaction: StoreTransaction) throws {
        (preference, lastClientState) = try transaction.meta()
        guard loadedEngine != nil, let current = try transaction.generation(), current != engineGeneration else { return }
        if let generation = engineGeneration, case .changes(let changes) = try transaction.changes(since: generation) {
            _ = apply(changes)
        } else {
            var state = try transaction.load()
            adopt(Self.engine(from: &state), generation: state.generation, quarantined: state.quarantined)
        }
    }

    /// Makes the engine hold what `changes` says the store holds now.
    /// Deletions first, then each touched row as it is now: the order the
    /// writes came in does not matter, only their result.
    func apply(_ changes: StoreChanges) -> ChangeSummary {
        var summary = ChangeSummary()
        for writer in changes.writers where !summary.writers.contains(writer) { summary.writers.append(writer) }
        let known = Set(changes.records.keys.filter { loadedEngine!.records[$0] != nil })
        if loadedEngine!.preference != changes.preference {
            loadedEngine!.setPreference(changes.preference)
            summary.preference = changes.preference
        }
        if !changes.deletedDomains.isEmpty {
            let gone = loadedEngine!.deleteItems(domainIdentifiers: changes.deletedDomains)
            summary.removed += gone.filter { changes.records[$0] == nil }.count
        }
        var upserts: [Source: [SearchableItem]] = [:]
        var deleted: [String] = []
        for (id, record) in changes.records {
            if let record {
                upserts[record.source, default: []].append(record.item)
                if known.contains(id) { summary.updated += 1 } else { summary.added += 1 }
            } else {
                if known.contains(id) { summary.removed += 1 }
                if loadedEngine!.records[id] != nil { deleted.append(id) }
            }
        }
        loadedEngine!.deleteItems(identifiers: deleted.sorted())
        for source in Source.allCases {
            if let items = upserts[source] { loadedEngine!.index(items.sorted { $0.uniqueIdentifier < $1.uniqueIdentifier }, source: source) }
        }
        for (id, activity) in changes.activities.sorted(by: { $0.key < $1.key }) {
            if let activity { loadedEngine!.restoreActivity(activity) } else { loadedEngine!.removeActivities([id]) }
        }
        for (id, dates) in changes.engagements { loadedEngine!.replaceEngagement(id, with: dates) }
        summary.activities = changes.activities.count
        summary.views = changes.engagements.count
        preference = changes.preference
        lastClientState = changes.clientState
        engineGeneration = changes.generation
        knownQuarantine = nil
        return summary
    }
}
