import Foundation
import SearchIndex

// Items are the bulk of a snapshot, so they have a hand-written layout:
// strings as length and UTF-8, optionals behind a flag, enums as their
// index, and the attribute set as where its packed bytes lie in the
// snapshot's run of sets, their count and the offset of their tail
// (checked whole on load, unless the file's checksum vouches for them).

extension SnapshotWriter {
    /// Writes `item`, whose attribute set's bytes were written at
    /// `setStart` in the run of sets (after their record word); moves
    /// `setStart` past them.
    mutating func write(_ item: SearchableItem, attributesAt setStart: inout Int) throws {
        try write(item.uniqueIdentifier)
        try write(item.domainIdentifier)
        try write(item.expirationDate?.timeIntervalSinceReferenceDate)
        try write(item.visibility.ordinal)
        let (count, tail) = item.attributeSet.packed.canonicalLayout
        // Past the set's record word.
        try write(UInt64(setStart + PackedStorage.recordHeaderSize))
        try write(UInt32(count))
        try write(UInt32(tail))
        setStart += PackedStorage.recordHeaderSize + count
    }

    /// Writes `record`: its source's byte, then its item, whose attribute
    /// set's bytes were written at `setStart` in the run of sets.
    mutating func write(_ record: IndexRecord, attributesAt setStart: Int) throws {
        try write(record.source.ordinal)
        var start = setStart
        try write(record.item, attributesAt: &start)
    }
}

extension SnapshotReader {
    /// A record: its source's byte, then an item `write(_:attributesAt:)`
    /// wrote, its attribute set read from `sets`.
    mutating func readRecord(attributesIn sets: UnsafeRawBufferPointer) throws(SnapshotError) -> IndexRecord {
        let parts = try readRecordParts(attributesIn: sets, trustingWords: false)
        return IndexRecord(source: parts.source, item: SearchableItem(
            uniqueIdentifier: parts.identifier, domainIdentifier: parts.domain?.value,
            expirationDate: parts.expiration.map(Date.init(timeIntervalSinceReferenceDate:)), attributeSet: parts.attributes,
            visibility: parts.visibility))
    }

    /// The parts of a record as `write(_:attributesAt:)` wrote it, without
    /// making the record (a document that holds it is made from them): its
    /// strings, its domain's shared object, its expiration in seconds and
    /// its set, read in place (`trustingWords`: see `readAttributes`).
    mutating func readRecordParts(attributesIn sets: UnsafeRawBufferPointer, trustingWords: Bool) throws(SnapshotError) -> (
        source: Source, identifier: String, domain: DomainName?, expiration: Double?, visibility: Visibility,
        attributes: AttributeSet
    ) {
        let source = try readSource()
        let identifier = try readString()
        let domain = try readDomain()
        let expiration = try readOptional(Double.self)
        let visibility = try readVisibility()
        let attributes = try readAttributes(in: sets, trustingWords: trustingWords)
        return (source, identifier, domain, expiration, visibility, attributes)
    }

    @inline(__always)
    mutating func readVisibility() throws(SnapshotError) -> Visibility {
        let ordinal = try read(UInt8.self)
        guard let visibility = Visibility(ordinal: ordinal) else {
            throw SnapshotError(.malformed, "unknown visibility \(ordinal)")
        }
        return visibility
    }

    /// A set's bytes are walked whole before they are trusted, unless the
    /// file they come from was verified: then its stored tail is taken as
    /// written (walking every set is much of reading the records, and so
    /// of a cold start).
    ///
    /// With `trustingWords` (a verified file's documents), a set's record
    /// word is not read either: its writer put it there, and reading it
    /// would touch every page of the run during the load; results read it
    /// when they show
    /// the set.
    mutating func readAttributes(
        in sets: UnsafeRawBufferPointer, trustingWords: Bool = false
    ) throws(SnapshotError) -> AttributeSet {
        let start = try read(UInt64.self)
        let count = Int(try read(UInt32.self))
        let tail = Int(try read(UInt32.self))
        guard start <= UInt64(sets.count), count <= sets.count - Int(start) else {
            throw SnapshotError(.malformed, "an attribute set lies outside the run of sets")
        }
        let bytes = UnsafeRawBufferPointer(rebasing: sets[Int(start)..<(Int(start) + count)])
        // A set is read in place, through a window over the run of sets
        // that its neighbours share, when its record word says what the
        // record says (or is trusted) and the file was verified or its
        // bytes are a set.
        let recordStart = Int(start) - PackedStorage.recordHeaderSize
        if let owner = setsOwner, recordStart >= 0, let word = PackedStorage.recordWord(count: count, tail: tail),
            trustingWords || sets.loadUnaligned(fromByteOffset: recordStart, as: UInt32.self) == word,
            verified || PackedAttributes.wellFormedTail(bytes) == tail
        {
            if setWindow == nil || Int(start) + count - setWindow!.start > PackedStorage.windowLimit
                || recordStart < setWindow!.start
            {
                let length = min(sets.count - recordStart, PackedStorage.windowLimit)
                setWindow = (recordStart, PackedStorage.window(over: sets.baseAddress! + recordStart, count: length, owner: owner))
            }
            // Read in place: a copy of the window would retain and release its storage.
            return AttributeSet(packed: PackedAttributes(
                storage: setWindow.unsafelyUnwrapped.storage, offset: UInt32(recordStart - setWindow.unsafelyUnwrapped.start)))
        }
        let packed = verified && count > 0 && tail < count
            ? PackedAttributes.trusting(bytes, tail: tail, borrowingFrom: setsOwner)
            : PackedAttributes.validating(bytes, tail: tail, borrowingFrom: setsOwner)
        guard let packed else { throw SnapshotError(.malformed, "an attribute set does not decode") }
        return AttributeSet(packed: packed)
    }
}

/// The domain objects one reader has made from a snapshot's bytes lately,
/// found by those bytes: documents and records of a domain share one
/// object (and its string) without a string made for each. Each chunk of
/// a section is read by a reader of its own (a shared cache would take a
/// lock and retain the same objects from both cores), so a loaded index
/// has an object per domain in each chunk of 1,024 documents, not one.
struct SnapshotDomainNames {
    private var recent: [(bytes: UnsafeRawBufferPointer, name: DomainName)] = []

    /// Domains kept: a chunk of documents names a handful.
    static let capacity = 8

    /// The object for the UTF-8 `bytes`, which stay where they lie while this lives.
    mutating func name(for bytes: UnsafeRawBufferPointer) -> DomainName {
        for entry in recent where entry.bytes.count == bytes.count
            && (bytes.isEmpty || memcmp(entry.bytes.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        {
            return entry.name
        }
        let name = DomainName(String(decoding: bytes.bindMemory(to: UInt8.self), as: UTF8.self))
        if recent.count == Self.capacity { recent.removeFirst() }
        recent.append((bytes, name))
        return name
    }
}
