import Foundation

/// A state of the app the user was in, after `NSUserActivity`.
///
/// Defaults follow Apple's: not eligible for search; eligible for public
/// indexing only with a `webpageURL` or `requiredUserInfoKeys`; eligible for
/// handoff. Making it current (`becomeCurrent` on the index) records a view.
public struct UserActivity: Codable, Sendable, Hashable {
    /// The Core Spotlight continuation type.
    public static let searchableItemActionType = "com.apple.corespotlightitem"
    /// The `userInfo` key that carries the item's identifier in a continuation.
    public static let searchableItemIdentifierKey = "kCSSearchableItemActivityIdentifier"
    /// The activity type of web browsing.
    public static let browsingWebType = "NSUserActivityTypeBrowsingWeb"

    /// Reverse DNS, e.g. `com.example.searchlight.view-employee`.
    public var activityType: String
    public var title: String?
    public var keywords: [String]
    public var userInfo: [String: String]
    public var requiredUserInfoKeys: [String]
    public var webpageURL: String?
    public var contentAttributeSet: AttributeSet?
    public var isEligibleForSearch: Bool
    public var isEligibleForPublicIndexing: Bool
    public var isEligibleForHandoff: Bool
    public var expirationDate: Date?
    /// Names the activity across launches; derived when not given.
    public var persistentIdentifier: String?

    public init(
        activityType: String, title: String? = nil, keywords: [String] = [],
        userInfo: [String: String] = [:], requiredUserInfoKeys: [String] = [],
        webpageURL: String? = nil, contentAttributeSet: AttributeSet? = nil,
        isEligibleForSearch: Bool = false, isEligibleForPublicIndexing: Bool? = nil,
        isEligibleForHandoff: Bool = true, expirationDate: Date? = nil,
        persistentIdentifier: String? = nil
    ) {
        self.activityType = activityType
        self.title = title
        self.keywords = keywords
        self.userInfo = userInfo
        self.requiredUserInfoKeys = requiredUserInfoKeys
        self.webpageURL = webpageURL
        self.contentAttributeSet = contentAttributeSet
        self.isEligibleForSearch = isEligibleForSearch
        self.isEligibleForPublicIndexing =
            isEligibleForPublicIndexing ?? (webpageURL != nil || !requiredUserInfoKeys.isEmpty)
        self.isEligibleForHandoff = isEligibleForHandoff
        self.expirationDate = expirationDate
        self.persistentIdentifier = persistentIdentifier
    }

    enum CodingKeys: String, CodingKey {
        case activityType, title, keywords, userInfo, requiredUserInfoKeys, webpageURL, contentAttributeSet
        case isEligibleForSearch, isEligibleForPublicIndexing, isEligibleForHandoff, expirationDate, persistentIdentifier
    }

    /// Missing fields take Apple's defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            activityType: try c.decode(String.self, forKey: .activityType),
            title: try c.decodeIfPresent(String.self, forKey: .title),
            keywords: try c.decodeIfPresent([String].self, forKey: .keywords) ?? [],
            userInfo: try c.decodeIfPresent([String: String].self, forKey: .userInfo) ?? [:],
            requiredUserInfoKeys: try c.decodeIfPresent([String].self, forKey: .requiredUserInfoKeys) ?? [],
            webpageURL: try c.decodeIfPresent(String.self, forKey: .webpageURL),
            contentAttributeSet: try c.decodeIfPresent(AttributeSet.self, forKey: .contentAttributeSet),
            isEligibleForSearch: try c.decodeIfPresent(Bool.self, forKey: .isEligibleForSearch) ?? false,
            isEligibleForPublicIndexing: try c.decodeIfPresent(Bool.self, forKey: .isEligibleForPublicIndexing),
            isEligibleForHandoff: try c.decodeIfPresent(Bool.self, forKey: .isEligibleForHandoff) ?? true,
            expirationDate: try c.decodeIfPresent(Date.self, forKey: .expirationDate),
            persistentIdentifier: try c.decodeIfPresent(String.self, forKey: .persistentIdentifier))
    }

    /// The item this activity is about, if any.
    public var relatedUniqueIdentifier: String? { contentAttributeSet?.relatedUniqueIdentifier }

    /// A stable identifier: the persistent one, else one derived from the type
    /// and what the activity points at.
    public var identifier: String {
        if let persistentIdentifier, !persistentIdentifier.isEmpty { return persistentIdentifier }
        let target = relatedUniqueIdentifier ?? webpageURL
            ?? userInfo.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        return "activity/\(activityType)/\(target)"
    }

    /// The identifier that engagement counts toward: the related item, else the activity.
    public var engagementIdentifier: String { relatedUniqueIdentifier ?? identifier }

    public func isExpired(at now: Date) -> Bool {
        guard let expirationDate else { return false }
        return expirationDate <= now
    }

    /// The activity seen as a searchable entry: its attribute set with its
    /// title and keywords folded in.
    public var searchableAttributes: AttributeSet {
        var attributes = contentAttributeSet ?? AttributeSet()
        if attributes.title == nil { attributes.title = title }
        attributes.keywords = Array(Set(attributes.keywords + keywords)).sorted()
        if attributes.url == nil { attributes.url = webpageURL }
        return attributes
    }
}
