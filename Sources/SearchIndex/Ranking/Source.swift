/// What put a result in the index. A result indexed by several sources
/// ranks higher (fifth rule) and lists them all.
public enum Source: String, Sendable, Codable, Comparable, CaseIterable {
    /// A Core Spotlight item an app indexed.
    case item
    /// An `NSUserActivity` the user made current.
    case activity
    /// A crawled web page with markup.
    case web

    public static func < (lhs: Source, rhs: Source) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
