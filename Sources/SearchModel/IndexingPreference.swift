/// Whether viewed records (activities) may become search results.
public enum IndexingPreference: String, Codable, Sendable, CaseIterable {
    case disabled
    case viewedRecords = "viewed-records"
}
