import Foundation

// Items are the bulk of a snapshot, so they have a hand-written layout:
// strings as length and UTF-8, optionals behind a flag, enums as their index.

extension SnapshotWriter {
    mutating func write(_ item: SearchableItem) throws {
        try write(item.uniqueIdentifier)
        try write(item.domainIdentifier)
        try write(item.expirationDate?.timeIntervalSinceReferenceDate)
        try write(UInt8(Visibility.allCases.firstIndex(of: item.visibility)!))
        try write(item.attributeSet)
    }

    mutating func write(_ attributes: AttributeSet) throws {
        try write(attributes.contentType)
        try write(attributes.title)
        try write(attributes.displayName)
        try write(attributes.contentDescription)
        try write(attributes.keywords)
        try write(attributes.thumbnail != nil)
        if let thumbnail = attributes.thumbnail {
            try write(thumbnail.format)
            try write(thumbnail.width)
            try write(thumbnail.height)
            try write(thumbnail.byteCount)
            try write(thumbnail.dominantColor)
            try write(thumbnail.caption)
        }
        try write(attributes.phoneNumbers)
        try write(attributes.emailAddresses)
        try write(attributes.supportsPhoneCall)
        try write(attributes.rating)
        try write(attributes.relatedUniqueIdentifier)
        try write(attributes.url)
        let keys = attributes.extras.keys.sorted()
        try write(keys)
        try write(keys.map { attributes.extras[$0]! })
    }
}

extension SnapshotReader {
    mutating func readItem() throws(SnapshotError) -> SearchableItem {
        let identifier = try readString()
        let domain = try readOptionalString()
        let expiry = try readOptional(Double.self).map(Date.init(timeIntervalSinceReferenceDate:))
        let visibility = try readVisibility()
        return SearchableItem(
            uniqueIdentifier: identifier, domainIdentifier: domain, expirationDate: expiry,
            attributeSet: try readAttributes(), visibility: visibility)
    }

    mutating func readVisibility() throws(SnapshotError) -> Visibility {
        let index = Int(try read(UInt8.self))
        guard index < Visibility.allCases.count else { throw SnapshotError(.malformed, "unknown visibility \(index)") }
        return Visibility.allCases[index]
    }

    mutating func readAttributes() throws(SnapshotError) -> AttributeSet {
        var attributes = AttributeSet(contentType: try readString())
        attributes.title = try readOptionalString()
        attributes.displayName = try readOptionalString()
        attributes.contentDescription = try readOptionalString()
        attributes.keywords = try readStrings()
        if try readBool() {
            attributes.thumbnail = Thumbnail(
                format: try readOptionalString(), width: try readOptional(Int.self), height: try readOptional(Int.self),
                byteCount: try readOptional(Int.self), dominantColor: try readOptionalString(),
                caption: try readOptionalString())
        }
        attributes.phoneNumbers = try readStrings()
        attributes.emailAddresses = try readStrings()
        attributes.supportsPhoneCall = try readOptional(UInt8.self).map { $0 != 0 }
        attributes.rating = try readOptional(Double.self)
        attributes.relatedUniqueIdentifier = try readOptionalString()
        attributes.url = try readOptionalString()
        let keys = try readStrings()
        let values = try readStrings()
        guard keys.count == values.count else { throw SnapshotError(.malformed, "extras keys and values differ in number") }
        if !keys.isEmpty {
            var extras: [String: String] = [:]
            for (key, value) in zip(keys, values) { extras[key] = value }
            attributes.extras = extras
        }
        return attributes
    }
}
