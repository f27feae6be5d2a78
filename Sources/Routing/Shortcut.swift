/// A quick action (a home-screen shortcut item) and the URL it opens.
public struct Shortcut: Sendable, Hashable, Codable {
    /// `com.example.searchlight.photos`.
    public var type: String
    public var title: String
    public var subtitle: String?
    /// `searchlight://photos/all`.
    public var url: String
}
