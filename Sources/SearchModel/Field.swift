/// Where a token was found, best first; the third ranking rule.
public enum Field: UInt8, Sendable, Comparable, CaseIterable, Codable {
    /// `title` and `displayName`.
    case title = 0
    case keywords = 1
    /// Every other text attribute: e-mails, phones, captions, extras, …
    case other = 2
    case contentDescription = 3

    public static func < (lhs: Field, rhs: Field) -> Bool { lhs.rawValue < rhs.rawValue }

    public var name: String {
        switch self {
        case .title: "title"
        case .keywords: "keywords"
        case .other: "other"
        case .contentDescription: "contentDescription"
        }
    }
}
