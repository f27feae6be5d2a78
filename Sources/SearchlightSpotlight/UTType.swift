/// A uniform type identifier, as `UniformTypeIdentifiers.UTType` names the
/// few kinds the index knows; any other is kept by its identifier.
public struct UTType: Sendable, Hashable {
    public let identifier: String

    public init(_ identifier: String) {
        self.identifier = identifier
    }

    public static let item = UTType("public.item")
    public static let content = UTType("public.content")
    public static let contact = UTType("public.contact")
    public static let image = UTType("public.image")
    public static let movie = UTType("public.movie")
    public static let text = UTType("public.text")
    public static let url = UTType("public.url")
}

// The string constants older code passes with `as String`.
public let kUTTypeItem = UTType.item.identifier
public let kUTTypeContent = UTType.content.identifier
public let kUTTypeContact = UTType.contact.identifier
public let kUTTypeImage = UTType.image.identifier
public let kUTTypeMovie = UTType.movie.identifier
public let kUTTypeText = UTType.text.identifier
public let kUTTypeURL = UTType.url.identifier

/// The activity type of a Core Spotlight continuation.
public let CSSearchableItemActionType = "com.apple.corespotlightitem"
/// The `userInfo` key of the item's identifier in a continuation.
public let CSSearchableItemActivityIdentifier = "kCSSearchableItemActivityIdentifier"
