import Foundation

/// Writes an item the way `JSONEncoder` does with `[.sortedKeys,
/// .withoutEscapingSlashes]` and `StoredDate`'s dates: no spaces, keys in
/// byte order, the same string escapes. Answers false for anything whose
/// spelling it would have to guess (see `SearchableItem.plainJSON`).
struct PlainJSONWriter {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(512) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Keys in sorted order, as the encoders write them (`SearchableItem`'s
    /// synthesized encoding, `AttributeSet.encode(to:)`, `Thumbnail`'s).
    mutating func write(_ item: SearchableItem) -> Bool {
        let set = item.attributeSet
        guard set.rating == nil, set.extras.isEmpty else { return false }
        // A whole hint is spelt as `JSONEncoder` spells it, without a
        // fraction; any other is left to it.
        let hint = set.rankingHint
        if let hint, !(hint == hint.rounded() && hint < 1e15) { return false }
        let date = item.expirationDate.map(StoredDate.formatBytes)
        bytes.append(contentsOf: #"{"attributeSet":{"#.utf8)
        var first = true
        func key(_ name: StaticString, _ writer: inout PlainJSONWriter) {
            if !first { writer.bytes.append(UInt8(ascii: ",")) }
            first = false
            writer.bytes.append(UInt8(ascii: "\""))
            writer.bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            writer.bytes.append(contentsOf: #"":"#.utf8)
        }
        if let value = set.contentDescription { key("contentDescription", &self); string(value) }
        key("contentType", &self); string(set.contentType)
        if let value = set.displayName { key("displayName", &self); string(value) }
        if !set.emailAddresses.isEmpty { key("emailAddresses", &self); strings(set.emailAddresses) }
        if !set.keywords.isEmpty { key("keywords", &self); strings(set.keywords) }
        if !set.phoneNumbers.isEmpty { key("phoneNumbers", &self); strings(set.phoneNumbers) }
        if let hint { key("rankingHint", &self); int(Int(hint)) }
        if let value = set.relatedUniqueIdentifier { key("relatedUniqueIdentifier", &self); string(value) }
        if let value = set.supportsPhoneCall { key("supportsPhoneCall", &self); bytes.append(contentsOf: (value ? "true" : "false").utf8) }
        if let thumbnail = set.thumbnail {
            key("thumbnail", &self)
            bytes.append(UInt8(ascii: "{"))
            first = true
            if let value = thumbnail.byteCount { key("byteCount", &self); int(value) }
            if let value = thumbnail.caption { key("caption", &self); string(value) }
            if let value = thumbnail.dominantColor { key("dominantColor", &self); string(value) }
            if let value = thumbnail.format { key("format", &self); string(value) }
            if let value = thumbnail.height { key("height", &self); int(value) }
            if let value = thumbnail.width { key("width", &self); int(value) }
            bytes.append(UInt8(ascii: "}"))
            first = false
        }
        if let value = set.title { key("title", &self); string(value) }
        if let value = set.url { key("url", &self); string(value) }
        bytes.append(UInt8(ascii: "}"))
        if let value = item.domainIdentifier { key("domainIdentifier", &self); string(value) }
        if let date {
            key("expirationDate", &self)
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: date)
            bytes.append(UInt8(ascii: "\""))
        }
        key("uniqueIdentifier", &self); string(item.uniqueIdentifier)
        key("visibility", &self); string(item.visibility.rawValue)
        bytes.append(UInt8(ascii: "}"))
        return true
    }

    private mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func strings(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
                case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
                default:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
