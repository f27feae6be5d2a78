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
        lhs.ordinal < rhs.ordinal
    }

    /// The source as a small number, its place in `allCases`: how a
    /// document's flags and a snapshot store it (so the numbers never change).
    @inlinable package var ordinal: UInt8 {
        switch self {
        case .item: 0
        case .activity: 1
        case .web: 2
        }
    }

    /// The source whose `ordinal` is `ordinal`; nil for a number no source has.
    @inlinable package init?(ordinal: UInt8) {
        switch ordinal {
        case 0: self = .item
        case 1: self = .activity
        case 2: self = .web
        default: return nil
        }
    }
}
