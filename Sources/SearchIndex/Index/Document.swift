import Foundation

/// One result-to-be: an item, or a standalone web page or activity, with
/// every record that merged into it (activities naming it with
/// `relatedUniqueIdentifier`, web pages at its `url`).
///
/// It shares the attribute set its results show with the record (or
/// standalone activity) it was built from: one reference to the same
/// copy-on-write storage, not a copy of the fields in every slot.
package struct Document: Sendable {
    package var uniqueIdentifier: String
    /// Shared with the other documents of its domain (`DomainNames`).
    private(set) var domain: DomainName?
    /// What results show: the attribute set of what the document was built
    /// from (`SearchEngine.shownAttributes(of:)`), or, for a document a
    /// snapshot wrote whole (a standalone activity), only its title and
    /// content type (its set is found by identifier then). One word for
    /// either, the set's offset beside it (`offsetAndSources`).
    private var shown: Shown
    // The small fields last, two words for five, so a slot is 40 bytes; the
    // sources are bits, not an array. The expiration is the engine's
    // `expirations` column alone.
    //
    //  offsetAndSources   bits 0–23 the shown set's offset in its storage
    //                     (`PackedAttributes.offset`, below 2^24), 24–31 the sources
    //  titleAndFlags      bits 0–23 the title's length (clamped), 24–25 the
    //                     visibility, 26–28 the held record's source (7: none),
    //                     29–31 the content type's code (`contentTypeCode`)
    private var offsetAndSources: UInt32
    private var titleAndFlags: UInt32

    private enum Shown: @unchecked Sendable {
        // Sendable: a set's storage never changes once made.
        case attributes(PackedStorage)
        case standalone(StandaloneText)
    }

    private static let lowBits: UInt32 = (1 << 24) - 1

    /// The attribute set results show; nil for a document a snapshot wrote
    /// whole (see `shown`).
    @inline(__always) var attributes: AttributeSet? { packed.map(AttributeSet.init(packed:)) }

    /// The shown set as its storage and offset.
    @inline(__always) private var packed: PackedAttributes? {
        guard case .attributes(let storage) = shown else { return nil }
        return PackedAttributes(storage: storage, offset: offsetAndSources & Self.lowBits)
    }

    /// The title results show: the attribute set's shown title (it was
    /// built from it), else the document's own.
    @inline(__always) package var title: String {
        switch shown {
        case .attributes: attributes.unsafelyUnwrapped.shownTitle
        case .standalone(let text): text.title
        }
    }

    /// The content type results show, found the same way as the title.
    @inline(__always) package var contentType: String {
        if let common = commonContentType { return common }
        switch shown {
        case .attributes: return attributes.unsafelyUnwrapped.contentType
        case .standalone(let text): return text.contentType
        }
    }

    /// The content type as the slot codes it: 0 for "read it from the
    /// set", else one more than its index in
    /// `PackedAttributes.commonContentTypes`. Every result shows its type,
    /// and read from the set it would be a cache miss of its own.
    @inline(__always) package var contentTypeCode: UInt8 { UInt8(truncatingIfNeeded: titleAndFlags >> 29) }

    /// The content type when the slot codes it (a shared literal), else nil.
    @inline(__always) var commonContentType: String? {
        let code = Int(contentTypeCode)
        return code == 0 ? nil : PackedAttributes.commonContentTypes[code - 1]
    }

    /// The code of `contentType` (see `contentTypeCode`).
    static func contentTypeCode(of contentType: String) -> UInt8 {
        PackedAttributes.commonContentTypes.firstIndex(of: contentType).map { UInt8($0 + 1) } ?? 0
    }

    /// Whether a snapshot's stored code is one this build reads.
    package static func isContentTypeCode(_ code: UInt8) -> Bool { Int(code) <= PackedAttributes.commonContentTypes.count }

    /// The fields a result copies, read together (in place, through
    /// `withDocument`). Stored fields and bit operations on them only: a
    /// getter that calls out has the whole slot copied first.
    @inline(__always) var resultFields: ResultFields {
        ResultFields(
            identifier: uniqueIdentifier, domain: domainIdentifier, attributes: attributes, sources: sourceSet,
            visibility: visibility, commonContentType: commonContentType)
    }

    /// What `resultFields` reads. A struct, not a tuple, which the runtime
    /// would copy through its generic tuple copies.
    struct ResultFields {
        var identifier: String
        var domain: String?
        var attributes: AttributeSet?
        var sources: SourceSet
        var visibility: Visibility
        /// Nil when the set must be read for it.
        var commonContentType: String?
    }

    /// `PackedAttributes.leadingBytes` of the shown set (0 for none).
    @inline(__always) var leadingBytes: UInt8 { packed?.leadingBytes ?? 0 }
    /// `PackedAttributes.headerByte` of the shown set (0 for none).
    @inline(__always) var storageHeaderByte: UInt8 { packed?.headerByte ?? 0 }
    /// A byte of the slot itself, read to bring it into the cache.
    @inline(__always) var slotByte: UInt8 { UInt8(truncatingIfNeeded: titleAndFlags) }

    @inline(__always) package var domainIdentifier: String? { domain?.value }
    /// The title's length in characters (the rank's shorter-title rule),
    /// up to `titleLengthLimit`.
    @inline(__always) package var titleLength: Int { Int(titleAndFlags & Self.lowBits) }
    /// Every source that indexes this document, in `Source` order.
    @inline(__always) package var sources: [Source] { sourceSet.list }
    @inline(__always) var sourceCount: Int { sourceSet.count }
    @inline(__always) var sourceSet: SourceSet { SourceSet(bits: UInt8(truncatingIfNeeded: offsetAndSources >> 24)) }
    @inline(__always) package var visibility: Visibility {
        Visibility(ordinal: UInt8(truncatingIfNeeded: titleAndFlags >> 24 & 3)) ?? .restricted
    }
    /// The source of the record this document holds (see `heldRecord`),
    /// as its `ordinal`; `Self.holdsNoRecord` when the engine keeps the
    /// document's record in its table, or it has none.
    @inline(__always) private var heldRecordSource: UInt8 { UInt8(truncatingIfNeeded: titleAndFlags >> 26 & 7) }

    /// The first eight bytes of the identifier, big-endian: most identifier
    /// comparisons end here without touching the string.
    var identifierPrefix: UInt64 { TokenArena.head(of: uniqueIdentifier) }

    static let holdsNoRecord: UInt8 = 7

    /// The longest title length the rank tells apart: longer titles rank
    /// as this long (`StaticRank` keeps a byte of it).
    static let titleLengthLimit = 255

    /// Whether the engine keeps this document's record here only (see `heldRecord`).
    package var holdsRecord: Bool { heldRecordSource != Self.holdsNoRecord }

    /// The record this document holds, given the document's expiration
    /// (`SearchEngine.expirations`): one whose item is all in the
    /// document's fields (identifier, domain, set, expiration, visibility),
    /// so the engine keeps it nowhere else (`SearchEngine+Records`).
    package func heldRecord(expiration: Double) -> IndexRecord? {
        guard holdsRecord, let attributes else { return nil }
        return IndexRecord(
            source: Source(ordinal: heldRecordSource)!,
            item: SearchableItem(
                uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier,
                expirationDate: Self.date(expiration), attributeSet: attributes, visibility: visibility))
    }

    /// Whether this document, built from `record`, says all of its item:
    /// the same set (the same storage, as a build shares it), the same
    /// other fields, and an expiration that reads back as the same date.
    func canHold(_ record: IndexRecord) -> Bool {
        guard let attributes, attributes.packed.isSameSet(as: record.item.attributeSet.packed) else { return false }
        return uniqueIdentifier == record.item.uniqueIdentifier && domainIdentifier == record.item.domainIdentifier
            && Self.date(Self.seconds(record.item.expirationDate)) == record.item.expirationDate
            && visibility == record.item.visibility
    }

    /// Makes this document hold `record` (it must `canHold` it).
    mutating func hold(_ record: IndexRecord) {
        assert(canHold(record), "a document holds only a record its fields say all of")
        setHeldRecordSource(record.source.ordinal)
    }

    private mutating func setHeldRecordSource(_ source: UInt8) {
        titleAndFlags = titleAndFlags & ~(7 << 26) | UInt32(source) << 26
    }

    /// Hands the held record back (the engine's table takes it), if any.
    mutating func releaseRecord(expiration: Double) -> IndexRecord? {
        defer { setHeldRecordSource(Self.holdsNoRecord) }
        return heldRecord(expiration: expiration)
    }
}

// The initialisers delegate to the memberwise one: one that assigned each
// stored property itself had the compiler build the document, copy it and
// destroy the original (a retain and a release of each reference, a
// million of each when a snapshot loads).
extension Document {
    /// A document showing `attributes`, or, with none, `title` and
    /// `contentType` (with a set, `contentType` must be the set's); its
    /// domain's object from `domains` (shared with the documents before it
    /// there), else its own.
    package init(
        uniqueIdentifier: String, title: String, titleLength: Int, contentType: String, domainIdentifier: String?,
        sources: SourceSet, visibility: Visibility, attributes: AttributeSet? = nil, domains: DomainNames? = nil
    ) {
        self.init(
            uniqueIdentifier: uniqueIdentifier,
            domain: domains.map { $0.name(for: domainIdentifier) } ?? domainIdentifier.map(DomainName.init),
            shown: attributes.map { .attributes($0.packed.storage) } ?? .standalone(StandaloneText(title: title, contentType: contentType)),
            offsetAndSources: Self.offsetAndSources(attributes?.packed.offset ?? 0, sources),
            titleAndFlags: Self.titleAndFlags(
                titleLength, visibility, Self.holdsNoRecord, contentTypeCode: Self.contentTypeCode(of: contentType)))
    }

    private static func offsetAndSources(_ offset: UInt32, _ sources: SourceSet) -> UInt32 {
        precondition(offset <= lowBits, "a shared storage's records lie below 2^24")
        return offset | UInt32(sources.bits) << 24
    }

    private static func titleAndFlags(_ titleLength: Int, _ visibility: Visibility, _ held: UInt8, contentTypeCode: UInt8) -> UInt32 {
        precondition(isContentTypeCode(contentTypeCode), "a content type's code is 0 or a common type's")
        return UInt32(min(titleLength, titleLengthLimit)) | UInt32(visibility.ordinal) << 24 | UInt32(held) << 26
            | UInt32(contentTypeCode) << 29
    }

    /// An expiration as the engine stores it (infinity for none).
    static func seconds(_ date: Date?) -> Double { date?.timeIntervalSinceReferenceDate ?? .infinity }

    /// A stored expiration as a date (nil for none).
    package static func date(_ seconds: Double) -> Date? {
        seconds == .infinity ? nil : Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// The document that is what its record alone says (a loaded
    /// snapshot's usual kind), made from that record's parts as a snapshot
    /// has them, without making the record: it holds it (`heldRecord`).
    /// `contentTypeCode` is the set's, as the snapshot has it (reading the
    /// set for it would bring every set's page in at a load).
    package init(
        holding source: Source, uniqueIdentifier: consuming String, domain: consuming DomainName?,
        attributes: consuming AttributeSet, visibility: Visibility, titleLength: Int, sources: SourceSet,
        contentTypeCode: UInt8
    ) {
        self.init(
            uniqueIdentifier: uniqueIdentifier, domain: domain, shown: .attributes(attributes.packed.storage),
            offsetAndSources: Self.offsetAndSources(attributes.packed.offset, sources),
            titleAndFlags: Self.titleAndFlags(titleLength, visibility, source.ordinal, contentTypeCode: contentTypeCode))
    }
}

/// The title and content type of a document with no attribute set.
final class StandaloneText: Sendable {
    let title: String
    let contentType: String

    init(title: String, contentType: String) {
        self.title = title
        self.contentType = contentType
    }
}

/// A document as a build makes it, with its distinct tokens and the best
/// field each occurs in, waiting to go into the trie (afterwards they
/// live in the engine's `TokenArena`; the slot keeps only the document).
struct BuiltDocument: Sendable {
    var document: Document
    /// Its expiration, as the engine's `expirations` column will hold it.
    var expiration: Double
    var pendingTokens: [String]
    var pendingFields: [Field]
    /// The shown set's `rankingHint`, for the document's `StaticRank`.
    var rankingHint: Double = 0
    /// The shown set's names, for `ExactNames`.
    var names = ExactNames.Signatures()
}

/// A set of sources in one byte, a bit per case of `Source`.
package struct SourceSet: Sendable, Equatable, ExpressibleByArrayLiteral {
    fileprivate(set) var bits: UInt8 = 0

    fileprivate init(bits: UInt8) {
        self.bits = bits
    }

    init<S: Sequence>(_ sources: S) where S.Element == Source {
        for source in sources { insert(source) }
    }

    package init(arrayLiteral sources: Source...) {
        self.init(sources)
    }

    package mutating func insert(_ source: Source) {
        bits |= 1 << source.ordinal
    }

    var count: Int { bits.nonzeroBitCount }

    func contains(_ source: Source) -> Bool { bits & (1 << source.ordinal) != 0 }

    /// The sources in `Source` order, one shared array for each set (a
    /// result's list is then a retain, not an allocation).
    var list: [Source] { Self.lists[Int(bits)] }

    private static let lists: [[Source]] = (0..<(1 << Source.allCases.count)).map { bits in
        Source.allCases.filter { bits & (1 << $0.ordinal) != 0 }
    }
}

/// The searchable text of one attribute set, field by field, in the order
/// indexing reads it (`PackedAttributes.forEachSearchableText` walks the
/// packed bytes in this order; tests hold the two to the same tokens).
enum FieldText {
    static func texts(of attributes: AttributeSet) -> [(Field, String)] {
        var out: [(Field, String)] = []
        if let title = attributes.title { out.append((.title, title)) }
        if let name = attributes.displayName { out.append((.title, name)) }
        for keyword in attributes.keywords { out.append((.keywords, keyword)) }
        for email in attributes.emailAddresses { out.append((.other, email)) }
        for phone in attributes.phoneNumbers { out.append((.other, phone)) }
        if let caption = attributes.thumbnail?.caption { out.append((.other, caption)) }
        for key in attributes.extras.keys.sorted() { out.append((.other, attributes.extras[key]!)) }
        if let description = attributes.contentDescription { out.append((.contentDescription, description)) }
        return out
    }
}

extension AttributeSet {
    /// `readShownTitleUTF8` with a result, specialized here in the engine
    /// for each caller's result type.
    @inline(__always) func withShownTitleUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var result: R?
        readShownTitleUTF8 { result = body($0) }
        return result.unsafelyUnwrapped
    }
}
