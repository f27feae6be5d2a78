import Foundation
import SearchIndex

/// Every change of one operation, written to the store in one transaction.
public struct StoreBatch: Sendable {
    public var deleteEverything = false
    public var upsertedRecords: [IndexRecord] = []
    public var deletedRecordIDs: [String] = []
    public var upsertedActivities: [UserActivity] = []
    public var deletedActivityIDs: [String] = []
    public var engagements: [(identifier: String, date: Date)] = []
    public var deletedEngagementIDs: [String] = []
    public var preference: IndexingPreference?
    public var clientState: String?
    public var log: [(kind: String, detail: String)] = []

    public init() {}
}

/// One line of the log of index operations.
public struct OperationLogEntry: Sendable, Hashable, Codable {
    public var date: Date
    /// `indexed`, `updated`, `deleted`, `expired`, `activity`, `settings`, `reset`, …
    public var kind: String
    public var detail: String
}

/// Everything the store holds, read back at launch.
public struct StoredState: Sendable {
    public var records: [IndexRecord] = []
    public var activities: [UserActivity] = []
    public var engagements: [String: [Date]] = [:]
    public var preference: IndexingPreference = .viewedRecords
    public var clientState: String?
    /// The store's generation when this was read (see `IndexStore.generation`).
    public var generation: String?
}
