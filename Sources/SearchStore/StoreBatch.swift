import Foundation
import SearchIndex

/// Every change of one operation, written to the store in one transaction.
public struct StoreBatch: Sendable {
    public var deleteEverything = false
    public var upsertedRecords: [IndexRecord] = []
    public var deletedRecordIDs: [String] = []
    /// Domains whose stored records go too, hierarchically: this reaches
    /// rows the engine does not hold (quarantined ones).
    public var deletedDomains: [String] = []
    public var upsertedActivities: [UserActivity] = []
    public var deletedActivityIDs: [String] = []
    public var engagements: [(identifier: String, date: Date)] = []
    public var deletedEngagementIDs: [String] = []
    public var preference: IndexingPreference?
    public var clientState: String?
    public var log: [(kind: String, detail: String)] = []
    /// A view this batch records and nothing else (`becomeCurrent`), made
    /// on the engine of generation `basedOn`: the store journals it, so a
    /// snapshot of that generation plus the view is this batch's engine
    /// (see `IndexStore.journal`). Any other batch clears the journal.
    public var replayableView: (activity: UserActivity, basedOn: String?)?

    public init() {}
}

/// One line of the log of index operations.
public struct OperationLogEntry: Sendable, Hashable, Codable {
    public var date: Date
    /// `indexed`, `updated`, `deleted`, `expired`, `activity`, `settings`, `reset`, …
    public var kind: String
    public var detail: String
    /// The process that wrote it (`IndexStore.writerName`); nil in stores
    /// written before writers were logged.
    public var writer: String?
}

/// Everything the store holds, read back at launch.
public struct StoredState: Sendable {
    /// In identifier order (UTF-8 bytes).
    public var records: [IndexRecord] = []
    public var activities: [UserActivity] = []
    public var engagements: [String: [Date]] = [:]
    public var preference: IndexingPreference = .viewedRecords
    public var clientState: String?
    /// The store's generation when this was read (see `IndexStore.generation`).
    public var generation: String?
    /// Rows that could not be read back: kept in the store, left out of the engine.
    public var quarantined: [QuarantinedRecord] = []
}

/// A stored record or activity that a load could not read: it stays in the
/// store (deleting or re-importing its identifier replaces it) and is left
/// out of search, so one bad row never costs the rest of the index.
public struct QuarantinedRecord: Sendable, Hashable {
    public var uniqueIdentifier: String
    public var problem: String
    public var isActivity: Bool

    public init(uniqueIdentifier: String, problem: String, isActivity: Bool = false) {
        self.uniqueIdentifier = uniqueIdentifier
        self.problem = problem
        self.isActivity = isActivity
    }
}
