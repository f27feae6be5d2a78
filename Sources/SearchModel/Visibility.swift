/// Who may see an item outside this device.
///
/// Core Spotlight items are on-device, so `private` is the default.
/// Restricted items (for example a photo shared with a closed group) are,
/// like private ones, never eligible for public indexing.
public enum Visibility: String, Codable, Sendable, Hashable, CaseIterable {
    case `public`
    case `private`
    case restricted

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let value = Visibility(rawValue: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected public, private or restricted")
        }
        self = value
    }

    /// The visibility as a small number, its place in `allCases`: how a
    /// document's flags and a snapshot store it (so the numbers never change).
    @inlinable package var ordinal: UInt8 {
        switch self {
        case .public: 0
        case .private: 1
        case .restricted: 2
        }
    }

    /// The visibility whose `ordinal` is `ordinal`; nil for a number none has.
    @inlinable package init?(ordinal: UInt8) {
        switch ordinal {
        case 0: self = .public
        case 1: self = .private
        case 2: self = .restricted
        default: return nil
        }
    }
}
