/// Why the store could not be used as it is.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// Not a database, truncated, or otherwise unreadable.
        case corrupt
        /// Written by a newer Searchlight.
        case newerFormat
        /// Another process holds the write lock for too long.
        case busy
        /// A write to a store this process may only read.
        case readOnly
        /// Anything else SQLite reported.
        case other
    }

    public var kind: Kind
    public var path: String
    public var message: String

    public init(_ kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
