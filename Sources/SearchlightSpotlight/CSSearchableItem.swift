import Foundation
import SearchIndex

/// One item to index, with Core Spotlight's names.
public final class CSSearchableItem: @unchecked Sendable {
    /// Any non-empty string (`type/id` is only a convention); a new UUID
    /// when none is given, as Core Spotlight does.
    public var uniqueIdentifier: String
    public var domainIdentifier: String?
    public var attributeSet: CSSearchableItemAttributeSet
    /// Unlike Core Spotlight's default of a month, none: the item never expires.
    public var expirationDate: Date?

    public init(uniqueIdentifier: String?, domainIdentifier: String?, attributeSet: CSSearchableItemAttributeSet) {
        self.uniqueIdentifier = uniqueIdentifier ?? UUID().uuidString
        self.domainIdentifier = domainIdentifier
        self.attributeSet = attributeSet
    }

    /// The engine's value, or why the index refuses it.
    func searchableItem() throws(CSIndexError) -> SearchableItem {
        guard !uniqueIdentifier.isEmpty else { throw CSIndexError(.invalidItemError, "an item needs a non-empty uniqueIdentifier") }
        if let hint = attributeSet.rankingHint?.doubleValue, !AttributeSet.isValidRankingHint(hint) {
            throw CSIndexError(.invalidItemError, "\(uniqueIdentifier): rankingHint must be a finite number, 0 or more")
        }
        return SearchableItem(
            uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier, expirationDate: expirationDate,
            attributeSet: attributeSet.attributeSet)
    }
}

/// Why an index operation failed, after `CSIndexError`.
public struct CSIndexError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: Int, Sendable {
        case unknownError = -1
        case indexUnavailableError = -1000
        case invalidItemError = -1001
        case invalidClientStateError = -1002
        case remoteConnectionError = -1003
        case quotaExceeded = -1004
        case indexingUnsupported = -1005
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
