import Foundation

/// One thing an app makes searchable, after `CSSearchableItem`.
public struct SearchableItem: Codable, Sendable, Hashable {
    /// Unique across the whole index; by convention `type/id` (`employee/7`).
    public var uniqueIdentifier: String
    /// Groups items for batch deletion; hierarchical on `.`.
    public var domainIdentifier: String?
    // The set before the date, so the date's flag and the visibility share
    // a word: 50 bytes instead of 57, and a record 56 instead of 72 (a
    // million-entry record table has two million buckets).
    public var attributeSet: AttributeSet
    /// Stored under another name so that the memberwise initialiser the
    /// initialisers delegate to is private: internal, it would be as good
    /// a match as the public one for calls that leave out the date.
    private var expiration: Date?
    public var visibility: Visibility

    /// Unlike Core Spotlight's one-month default, an item without one never expires.
    public var expirationDate: Date? {
        get { expiration }
        set { expiration = newValue }
    }

    enum CodingKeys: String, CodingKey {
        case uniqueIdentifier, domainIdentifier, expirationDate, attributeSet, visibility
    }

    // Keys in their documented order, whatever the layout's.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(uniqueIdentifier, forKey: .uniqueIdentifier)
        try c.encodeIfPresent(domainIdentifier, forKey: .domainIdentifier)
        try c.encodeIfPresent(expirationDate, forKey: .expirationDate)
        try c.encode(attributeSet, forKey: .attributeSet)
        try c.encode(visibility, forKey: .visibility)
    }

    /// Whether the item is gone at `now`.
    public func isExpired(at now: Date) -> Bool {
        guard let expirationDate else { return false }
        return expirationDate <= now
    }
}

// The initialisers delegate to the memberwise one: one that assigned each
// stored property itself had the compiler build the item, copy it and
// destroy the original (a retain and a release of each reference, a
// million of each when a snapshot loads).
extension SearchableItem {
    public init(
        uniqueIdentifier: String, domainIdentifier: String? = nil, expirationDate: Date? = nil,
        attributeSet: AttributeSet, visibility: Visibility = .private
    ) {
        self.init(
            uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier, attributeSet: attributeSet,
            expiration: expirationDate, visibility: visibility)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let uniqueIdentifier = try c.decode(String.self, forKey: .uniqueIdentifier)
        let domainIdentifier = try c.decodeIfPresent(String.self, forKey: .domainIdentifier)
        let expirationDate = try c.decodeIfPresent(Date.self, forKey: .expirationDate)
        // Before the set, so a bad value is named even when the set is missing.
        let visibility = try c.decodeIfPresent(Visibility.self, forKey: .visibility) ?? .private
        let attributeSet = try c.decode(AttributeSet.self, forKey: .attributeSet)
        self.init(
            uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier, attributeSet: attributeSet,
            expiration: expirationDate, visibility: visibility)
    }
}

extension SearchableItem {
    /// Whether `domain` names this item's domain or one of its ancestors:
    /// `com.acme.media` covers `com.acme.media.photo`, not `com.acme.mediakit`.
    public func belongs(toDomain domain: String) -> Bool {
        guard let own = domainIdentifier else { return false }
        return Self.domain(own, isWithin: domain)
    }

    /// Hierarchical domain test on `.` boundaries.
    public static func domain(_ domain: String, isWithin ancestor: String) -> Bool {
        guard domain.hasPrefix(ancestor) else { return false }
        if domain.count == ancestor.count { return true }
        return domain[domain.index(domain.startIndex, offsetBy: ancestor.count)] == "."
    }
}
