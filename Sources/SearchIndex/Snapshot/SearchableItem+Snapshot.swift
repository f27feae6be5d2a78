import Foundation

// Items are the bulk of a snapshot, so they have a hand-written layout:
// strings as length and UTF-8, optionals behind a flag, enums as their
// index, the attribute set as its packed bytes and where their tail starts
// (checked whole on load, unless the file's checksum vouches for them).

extension SnapshotWriter {
    mutating func write(_ item: SearchableItem) throws {
        try write(item.uniqueIdentifier)
        try write(item.domainIdentifier)
        try write(item.expirationDate?.timeIntervalSinceReferenceDate)
        try write(UInt8(Visibility.allCases.firstIndex(of: item.visibility)!))
        try write(item.attributeSet)
    }

    /// An attribute set as its packed bytes (`PackedAttributes`), after
    /// their count and the offset of their tail.
    mutating func write(_ attributes: AttributeSet) throws {
        try attributes.packed.withBytesAndTail { bytes, tail in
            try write(UInt32(bytes.count))
            try write(UInt32(tail))
            try write(raw: bytes)
        }
    }
}

extension SnapshotReader {
    mutating func readItem() throws(SnapshotError) -> SearchableItem {
        let identifier = try readString()
        let domain = try readRepeatedOptionalString()
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

    /// A set's bytes are walked whole before they are trusted, unless the
    /// file they come from was verified: then its stored tail is taken as
    /// written (walking a million sets was half of reading the records, a
    /// sixth of a cold start at a million items).
    mutating func readAttributes() throws(SnapshotError) -> AttributeSet {
        let count = Int(try read(UInt32.self))
        let tail = Int(try read(UInt32.self))
        let bytes = try readBytes(count)
        let packed = verified && count > 0 && tail < count
            ? PackedAttributes.trusting(bytes, tail: tail, borrowingFrom: owner)
            : PackedAttributes.validating(bytes, tail: tail, borrowingFrom: owner)
        guard let packed else { throw SnapshotError(.malformed, "an attribute set does not decode") }
        return AttributeSet(packed: packed)
    }
}
