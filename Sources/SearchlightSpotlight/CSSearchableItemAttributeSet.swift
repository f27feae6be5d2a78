import Foundation
import SearchIndex

/// What is known about an item, with Core Spotlight's names: a class, as
/// Apple's is, so code that sets properties on a `let` compiles unchanged.
public final class CSSearchableItemAttributeSet: @unchecked Sendable {
    public var contentType: String
    public var title: String?
    public var displayName: String?
    public var contentDescription: String?
    public var keywords: [String]?
    /// Kept as metadata only: format, pixel size and byte count read from
    /// a PNG or JPEG header (`ThumbnailHeader`).
    public var thumbnailData: Data?
    public var thumbnailURL: URL?
    public var phoneNumbers: [String]?
    public var emailAddresses: [String]?
    public var supportsPhoneCall: NSNumber?
    public var rating: NSNumber?
    public var relatedUniqueIdentifier: String?
    public var contentURL: URL?
    /// The item's web page.
    public var url: URL?
    /// How important the item is among the app's items (0 or more).
    public var rankingHint: NSNumber?

    public init(itemContentType: String) {
        contentType = itemContentType
    }

    public convenience init(contentType: UTType) {
        self.init(itemContentType: contentType.identifier)
    }

    /// The engine's value of this set.
    var attributeSet: AttributeSet {
        var thumbnail = thumbnailData.map(ThumbnailHeader.describe)
        if thumbnail == nil, let thumbnailURL {
            thumbnail = Thumbnail(format: thumbnailURL.pathExtension.isEmpty ? nil : thumbnailURL.pathExtension.lowercased(),
                                  caption: thumbnailURL.lastPathComponent)
        }
        return AttributeSet(
            contentType: contentType, title: title, displayName: displayName, contentDescription: contentDescription,
            keywords: keywords ?? [], thumbnail: thumbnail, phoneNumbers: phoneNumbers ?? [],
            emailAddresses: emailAddresses ?? [], supportsPhoneCall: supportsPhoneCall?.boolValue,
            rating: rating?.doubleValue, relatedUniqueIdentifier: relatedUniqueIdentifier,
            url: (url ?? contentURL)?.absoluteString, rankingHint: rankingHint?.doubleValue)
    }
}

/// A thumbnail's metadata from its first bytes: the index keeps no image.
enum ThumbnailHeader {
    static func describe(_ data: Data) -> Thumbnail {
        let bytes = [UInt8](data.prefix(64 * 1024))
        var thumbnail = Thumbnail(byteCount: data.count)
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            thumbnail.format = "png"
            thumbnail.width = Int(bigEndian: bytes[16..<20])
            thumbnail.height = Int(bigEndian: bytes[20..<24])
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            thumbnail.format = "jpeg"
            if let (width, height) = jpegSize(bytes) { (thumbnail.width, thumbnail.height) = (width, height) }
        }
        return thumbnail
    }

    /// The size in a JPEG's start-of-frame segment, walking the segments before it.
    private static func jpegSize(_ bytes: [UInt8]) -> (Int, Int)? {
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC3).contains(marker) {
                return (Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]), Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]))
            }
            index += 2 + length
        }
        return nil
    }
}

extension Int {
    init(bigEndian bytes: ArraySlice<UInt8>) {
        self = bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
