import Foundation

/// An item as the store keeps it: a short header and its attribute set's
/// packed bytes, the same bytes a loaded engine reads its sets from.
///
/// ```
///  0      tag 0xA5 (a packed body; a JSON body starts with `{`)
///  1      visibility (`Visibility.ordinal`)
///  2      flags: bit 0 set when the item expires
///  3      zero
///  4…7    the set's tail offset (`PackedAttributes`), little-endian
///  8…15   expiration, seconds since 2001 (a Double), zero when none
/// 16…19   the set's record word (`PackedStorage.recordWord`, all ones when too large)
/// 20…     the set's canonical packed bytes
/// ```
///
/// From byte 16 a body is one entry of a run of sets as a snapshot reads
/// it, so a snapshot's sets are the store's bodies laid end to end, never
/// a second copy (`StoredRun`). The identifier, domain and source are the
/// row's own columns.
extension SearchableItem {
    /// The first byte of a packed body.
    public static let storedBodyTag: UInt8 = 0xA5

    /// Bytes before a body's entry in a run of sets.
    public static let storedBodyHeaderSize = 16

    /// Bytes of an entry's record word, before its set.
    public static let storedBodyWordSize = PackedStorage.recordHeaderSize

    /// This item's stored body.
    public var storedBody: [UInt8] {
        attributeSet.packed.withCanonicalBytesAndTail { bytes, tail in
            var body = [UInt8](repeating: 0, count: Self.storedBodyHeaderSize + PackedStorage.recordHeaderSize + bytes.count)
            body.withUnsafeMutableBytes { out in
                out[0] = Self.storedBodyTag
                out[1] = visibility.ordinal
                out[2] = expirationDate == nil ? 0 : 1
                out.storeBytes(of: UInt32(tail).littleEndian, toByteOffset: 4, as: UInt32.self)
                let seconds = expirationDate?.timeIntervalSinceReferenceDate ?? 0
                out.storeBytes(of: seconds.bitPattern.littleEndian, toByteOffset: 8, as: UInt64.self)
                let word = PackedStorage.recordWord(count: bytes.count, tail: tail) ?? .max
                out.storeBytes(of: word.littleEndian, toByteOffset: Self.storedBodyHeaderSize, as: UInt32.self)
                let start = Self.storedBodyHeaderSize + PackedStorage.recordHeaderSize
                UnsafeMutableRawBufferPointer(rebasing: out[start...]).copyMemory(from: bytes)
            }
            return body
        }
    }

    /// The item a stored body holds, its set checked byte by byte; nil when
    /// the body is not one `storedBody` wrote.
    public init?(storedBody body: UnsafeRawBufferPointer, uniqueIdentifier: String, domainIdentifier: String?) {
        let start = Self.storedBodyHeaderSize + PackedStorage.recordHeaderSize
        guard body.count > start, body[0] == Self.storedBodyTag, body[3] == 0, body[2] <= 1,
              let visibility = Visibility(ordinal: body[1])
        else { return nil }
        let tail = Int(UInt32(littleEndian: body.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
        let seconds = Double(bitPattern: UInt64(littleEndian: body.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        let bytes = UnsafeRawBufferPointer(rebasing: body[start...])
        let word = UInt32(littleEndian: body.loadUnaligned(fromByteOffset: Self.storedBodyHeaderSize, as: UInt32.self))
        guard word == PackedStorage.recordWord(count: bytes.count, tail: tail) ?? .max,
              let packed = PackedAttributes.validating(bytes, tail: tail)
        else { return nil }
        self.init(
            uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier,
            expirationDate: body[2] == 1 ? Date(timeIntervalSinceReferenceDate: seconds) : nil,
            attributeSet: AttributeSet(packed: packed), visibility: visibility)
    }
}
