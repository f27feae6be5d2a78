/// Why a snapshot could not be read. A snapshot is a cache of structures
/// that can always be rebuilt from the records, so every one of these means
/// "rebuild", never "give up".
public struct SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The bytes end before the structure they describe.
        case truncated
        /// Written by another build (format or memory layout differs).
        case incompatible
        /// A value no writer produces (an unknown enum case, a count that
        /// does not fit, tables of different lengths).
        case malformed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
