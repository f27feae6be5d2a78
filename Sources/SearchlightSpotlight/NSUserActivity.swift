import Foundation
import SearchIndex

#if !canImport(ObjectiveC)
/// `NSUserActivity` where Foundation has none (Linux), with Apple's names
/// and types; `becomeCurrent()` records the view in the default index
/// before it returns, so a command-line tool may exit on the next line.
open class NSUserActivity: @unchecked Sendable {
    public let activityType: String
    open var title: String?
    open var userInfo: [AnyHashable: Any]?
    open var requiredUserInfoKeys: Set<String>?
    open var keywords: Set<String> = []
    open var webpageURL: URL?
    open var contentAttributeSet: CSSearchableItemAttributeSet?
    open var isEligibleForSearch = false
    /// As Apple's: false unless set, or a web page URL or required keys are given.
    open var isEligibleForPublicIndexing: Bool {
        get { eligibleForPublicIndexing ?? (webpageURL != nil || !(requiredUserInfoKeys?.isEmpty ?? true)) }
        set { eligibleForPublicIndexing = newValue }
    }
    open var isEligibleForHandoff = true
    open var expirationDate: Date?
    private var eligibleForPublicIndexing: Bool?
    /// Whether it is the current activity (between `becomeCurrent` and `resignCurrent`).
    public private(set) var isCurrent = false
    public private(set) var isValid = true
    /// The index views are recorded in (the default one unless set).
    public var searchableIndex = CSSearchableIndex.default()

    public init(activityType: String) {
        self.activityType = activityType
    }

    /// Records a view now (an engagement, and a search result when
    /// eligible and the indexing preference allows).
    open func becomeCurrent() {
        guard isValid else { return }
        isCurrent = true
        try? searchableIndex.recordView(userActivity)
    }

    open func resignCurrent() {
        isCurrent = false
    }

    open func invalidate() {
        isCurrent = false
        isValid = false
    }

    /// The engine's value of this activity.
    var userActivity: UserActivity {
        var info: [String: String] = [:]
        for (key, value) in userInfo ?? [:] { info["\(key)"] = "\(value)" }
        return UserActivity(
            activityType: activityType, title: title, keywords: keywords.sorted(), userInfo: info,
            requiredUserInfoKeys: (requiredUserInfoKeys ?? []).sorted(), webpageURL: webpageURL?.absoluteString,
            contentAttributeSet: contentAttributeSet?.attributeSet, isEligibleForSearch: isEligibleForSearch,
            isEligibleForPublicIndexing: isEligibleForPublicIndexing, isEligibleForHandoff: isEligibleForHandoff,
            expirationDate: expirationDate)
    }
}
#endif
