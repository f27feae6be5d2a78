/// Why something could not be routed; one line for the user.
public struct RoutingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Neither an identifier nor a URL nor a quick action.
        case notRoutable
        /// A scheme the app refuses (`javascript:`, `file:`, …).
        case refusedScheme
        /// An app activity without the `userInfo` keys it requires.
        case missingUserInfo
        /// An activity type the app does not handle.
        case unknownActivityType
        /// Hostile or malformed (traversal, control characters, too long).
        case unsafe
        /// A bundled association or shortcut file is broken.
        case badAssociation
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
