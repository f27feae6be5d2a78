/// Who may see an item outside this device.
///
/// Core Spotlight items are on-device, so `private` is the default.
/// Restricted items (for example a photo shared with a closed group) are,
/// like private ones, never eligible for public indexing.
public enum Visibility: String, Codable, Sendable, Hashable, CaseIterable {
    case `public`
    case `private`
    case restricted
}
