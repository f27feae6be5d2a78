import SearchIndex

/// Apple's guidance for search results, as checks: what `index lint` reports.
public enum ResultGuidance {
    public static let maximumTitleLength = 90
    public static let maximumDescriptionLength = 300
    /// "A handful": more keywords than this dilute a result.
    public static let maximumKeywords = 10

    public struct Finding: Sendable, Hashable, Codable {
        public var uniqueIdentifier: String
        /// `title-too-long`, `description-too-long`, `no-thumbnail`,
        /// `too-many-keywords`, `activity-without-related-item`, `unreadable`.
        public var rule: String
        public var detail: String

        public init(uniqueIdentifier: String, rule: String, detail: String) {
            self.uniqueIdentifier = uniqueIdentifier
            self.rule = rule
            self.detail = detail
        }
    }

    public static func check(_ item: SearchableItem) -> [Finding] {
        var findings: [Finding] = []
        let id = item.uniqueIdentifier
        let attributes = item.attributeSet
        let title = attributes.shownTitle
        if title.count > maximumTitleLength {
            findings.append(Finding(uniqueIdentifier: id, rule: "title-too-long", detail: "title has \(title.count) characters (over \(maximumTitleLength))"))
        }
        if let description = attributes.contentDescription, description.count > maximumDescriptionLength {
            findings.append(Finding(uniqueIdentifier: id, rule: "description-too-long", detail: "description has \(description.count) characters (over \(maximumDescriptionLength))"))
        }
        if attributes.thumbnail == nil {
            findings.append(Finding(uniqueIdentifier: id, rule: "no-thumbnail", detail: "no thumbnail"))
        }
        if attributes.keywords.count > maximumKeywords {
            findings.append(Finding(uniqueIdentifier: id, rule: "too-many-keywords", detail: "\(attributes.keywords.count) keywords (over \(maximumKeywords))"))
        }
        return findings
    }

    public static func check(_ activity: UserActivity, identifier: String) -> [Finding] {
        guard activity.relatedUniqueIdentifier == nil else { return [] }
        return [Finding(uniqueIdentifier: identifier, rule: "activity-without-related-item",
                        detail: "activity \(activity.activityType) has no relatedUniqueIdentifier")]
    }
}
