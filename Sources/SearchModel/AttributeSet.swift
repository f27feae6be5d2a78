import Foundation

/// What is known about one searchable thing, after `CSSearchableItemAttributeSet`.
///
/// Every text attribute is searchable. `title` and `displayName` weigh most,
/// then `keywords`, then the other attributes, then `contentDescription`.
public struct AttributeSet: Codable, Sendable, Hashable {
    /// The attributes, unpacked: what a set is built from and what
    /// setting one field goes through.
    struct Fields: Hashable {
        var contentType: String
        var title: String? = nil
        var displayName: String? = nil
        var contentDescription: String? = nil
        var keywords: [String] = []
        var thumbnail: Thumbnail? = nil
        var phoneNumbers: [String] = []
        var emailAddresses: [String] = []
        var supportsPhoneCall: Bool? = nil
        var rating: Double? = nil
        var relatedUniqueIdentifier: String? = nil
        var url: String? = nil
        var extras: [String: String] = [:]
        var rankingHint: Double? = nil
    }

    /// The fields packed in one shared, immutable allocation (see
    /// `PackedAttributes`): a copy is one retain, and a result carries
    /// its item's set without copying a field. Setting a field packs a
    /// new one: sets are built whole and rarely changed. Visible to
    /// inlined code: the engine wraps a document's set for every result.
    @usableFromInline var storage: PackedAttributes

    init(_ fields: Fields) {
        storage = PackedAttributes.make(fields)
    }

    @inlinable package init(packed: PackedAttributes) {
        storage = packed
    }

    @inlinable package var packed: PackedAttributes { storage }

    /// Every field, unpacked.
    var fields: Fields {
        get { storage.fields }
        set { storage = PackedAttributes.make(newValue) }
    }

    /// A UTI: `public.contact`, `public.image`, `public.movie`, `public.item`, …
    public var contentType: String {
        get { storage.read(.contentType) { $0.contentType() } }
        set { fields.contentType = newValue }
    }

    public var title: String? {
        get { storage.read(.title) { $0.optionalText() } }
        set { fields.title = newValue }
    }
    public var displayName: String? {
        get { storage.read(.displayName) { $0.optionalText() } }
        set { fields.displayName = newValue }
    }
    public var contentDescription: String? {
        get { storage.read(.contentDescription) { $0.optionalText() } }
        set { fields.contentDescription = newValue }
    }
    public var keywords: [String] {
        get { storage.read(.keywords) { $0.textList() } }
        set { fields.keywords = newValue }
    }
    public var thumbnail: Thumbnail? {
        get { storage.read(.thumbnail) { $0.thumbnail() } }
        set { fields.thumbnail = newValue }
    }
    public var phoneNumbers: [String] {
        get { storage.read(.phoneNumbers) { $0.list() } }
        set { fields.phoneNumbers = newValue }
    }
    public var emailAddresses: [String] {
        get { storage.read(.emailAddresses) { $0.list() } }
        set { fields.emailAddresses = newValue }
    }
    public var supportsPhoneCall: Bool? {
        get { storage.read(.supportsPhoneCall) { $0.optionalBool() } }
        set { fields.supportsPhoneCall = newValue }
    }
    public var rating: Double? {
        get { storage.read(.rating) { $0.optionalDouble() } }
        set { fields.rating = newValue }
    }
    public var relatedUniqueIdentifier: String? {
        get { storage.read(.relatedUniqueIdentifier) { $0.optionalString() } }
        set { fields.relatedUniqueIdentifier = newValue }
    }
    /// The item's web page.
    public var url: String? {
        get { storage.read(.url) { $0.optionalString() } }
        set { fields.url = newValue }
    }
    /// Free-form searchable strings.
    public var extras: [String: String] {
        get { storage.read(.extras) { $0.extras() } }
        set { fields.extras = newValue }
    }
    /// How important the item is among the app's items, as Core Spotlight's
    /// `rankingHint`: a finite number, 0 or more, higher first; absent is 0.
    public var rankingHint: Double? {
        get { storage.read(.rankingHint) { $0.optionalDouble() } }
        set { fields.rankingHint = newValue }
    }

    /// Whether `hint` is one a set may hold: finite and not negative.
    public static func isValidRankingHint(_ hint: Double) -> Bool {
        hint.isFinite && hint >= 0
    }

    // The packed form is canonical: equal sets have equal bytes (once
    // what a dictionary coded is decoded).
    public static func == (a: AttributeSet, b: AttributeSet) -> Bool {
        a.storage == b.storage
    }

    public func hash(into hasher: inout Hasher) {
        storage.withCanonicalBytesAndTail { bytes, _ in hasher.combine(bytes: bytes) }
    }

    /// This set with its titles, description and keywords coded by `dictionary`
    /// (itself when that saves nothing): the same fields in fewer bytes.
    func compressed(with dictionary: TextDictionary) -> AttributeSet {
        storage.compressed(with: dictionary).map(AttributeSet.init(packed:)) ?? self
    }

    public init(
        contentType: String = "public.item", title: String? = nil, displayName: String? = nil,
        contentDescription: String? = nil, keywords: [String] = [], thumbnail: Thumbnail? = nil,
        phoneNumbers: [String] = [], emailAddresses: [String] = [], supportsPhoneCall: Bool? = nil,
        rating: Double? = nil, relatedUniqueIdentifier: String? = nil, url: String? = nil,
        extras: [String: String] = [:], rankingHint: Double? = nil
    ) {
        self.init(Fields(
            contentType: contentType, title: title, displayName: displayName,
            contentDescription: contentDescription, keywords: keywords, thumbnail: thumbnail,
            phoneNumbers: phoneNumbers, emailAddresses: emailAddresses, supportsPhoneCall: supportsPhoneCall,
            rating: rating, relatedUniqueIdentifier: relatedUniqueIdentifier, url: url, extras: extras,
            rankingHint: rankingHint))
    }

    enum CodingKeys: String, CodingKey {
        case contentType, title, displayName, contentDescription, keywords, thumbnail
        case phoneNumbers, emailAddresses, supportsPhoneCall, rating, relatedUniqueIdentifier, url, extras
        case rankingHint
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let hint = try c.decodeIfPresent(Double.self, forKey: .rankingHint)
        if let hint, !Self.isValidRankingHint(hint) {
            throw DecodingError.dataCorruptedError(
                forKey: .rankingHint, in: c, debugDescription: "a ranking hint must be a finite number, 0 or more (got \(hint))")
        }
        self.init(
            contentType: try c.decodeIfPresent(String.self, forKey: .contentType) ?? "public.item",
            title: try c.decodeIfPresent(String.self, forKey: .title),
            displayName: try c.decodeIfPresent(String.self, forKey: .displayName),
            contentDescription: try c.decodeIfPresent(String.self, forKey: .contentDescription),
            keywords: try c.decodeIfPresent([String].self, forKey: .keywords) ?? [],
            thumbnail: try c.decodeIfPresent(Thumbnail.self, forKey: .thumbnail),
            phoneNumbers: try c.decodeIfPresent([String].self, forKey: .phoneNumbers) ?? [],
            emailAddresses: try c.decodeIfPresent([String].self, forKey: .emailAddresses) ?? [],
            supportsPhoneCall: try c.decodeIfPresent(Bool.self, forKey: .supportsPhoneCall),
            rating: try c.decodeIfPresent(Double.self, forKey: .rating),
            relatedUniqueIdentifier: try c.decodeIfPresent(String.self, forKey: .relatedUniqueIdentifier),
            url: try c.decodeIfPresent(String.self, forKey: .url),
            extras: try c.decodeIfPresent([String: String].self, forKey: .extras) ?? [:],
            rankingHint: hint)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(contentType, forKey: .contentType)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(displayName, forKey: .displayName)
        try c.encodeIfPresent(contentDescription, forKey: .contentDescription)
        if !keywords.isEmpty { try c.encode(keywords, forKey: .keywords) }
        try c.encodeIfPresent(thumbnail, forKey: .thumbnail)
        if !phoneNumbers.isEmpty { try c.encode(phoneNumbers, forKey: .phoneNumbers) }
        if !emailAddresses.isEmpty { try c.encode(emailAddresses, forKey: .emailAddresses) }
        try c.encodeIfPresent(supportsPhoneCall, forKey: .supportsPhoneCall)
        try c.encodeIfPresent(rating, forKey: .rating)
        try c.encodeIfPresent(relatedUniqueIdentifier, forKey: .relatedUniqueIdentifier)
        try c.encodeIfPresent(url, forKey: .url)
        if !extras.isEmpty { try c.encode(extras, forKey: .extras) }
        try c.encodeIfPresent(rankingHint, forKey: .rankingHint)
    }

    /// The name shown for a result: the title, else the display name.
    public var shownTitle: String {
        var title = ""
        readShownTitleUTF8 { title = String(decoding: $0, as: UTF8.self) }
        return title
    }

    /// Calls `body` once with `shownTitle` as UTF-8, decoded into a buffer
    /// that lives for the call (no string made). Not generic: the engine
    /// calls it for every result, and a generic call from another module
    /// would go unspecialized.
    package func readShownTitleUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        storage.read(.title) { cursor in
            var called = false
            cursor.withOptionalText { body($0); called = true }
            if !called { cursor.withOptionalText { body($0); called = true } }
            if !called { body(UnsafeBufferPointer(start: nil, count: 0)) }
        }
    }
}

extension AttributeSet.Fields {
    /// No attributes but a content type (the memberwise initializer,
    /// which names them all, stays available beside it).
    init(contentType: String = "public.item") {
        self.init(contentType: contentType, title: nil)
    }
}
