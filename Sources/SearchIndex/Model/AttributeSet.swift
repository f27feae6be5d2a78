/// What is known about one searchable thing, after `CSSearchableItemAttributeSet`.
///
/// Every text attribute is searchable. `title` and `displayName` weigh most,
/// then `keywords`, then the other attributes, then `contentDescription`.
public struct AttributeSet: Codable, Sendable, Hashable {
    /// The attributes, kept in one shared box and copied on write: a
    /// result carries its item's attribute set, and copying thirteen
    /// fields retained a dozen strings and arrays on other cache lines
    /// (a fifth of a short prefix's keystroke at a million items).
    private struct Fields: Hashable {
        var contentType: String
        var title: String?
        var displayName: String?
        var contentDescription: String?
        var keywords: [String]
        var thumbnail: Thumbnail?
        var phoneNumbers: [String]
        var emailAddresses: [String]
        var supportsPhoneCall: Bool?
        var rating: Double?
        var relatedUniqueIdentifier: String?
        var url: String?
        var extras: [String: String]
    }

    // Changed only through `fields`, which copies a shared box first.
    private final class Box: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    private var fields: Fields {
        get { box.fields }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }

    /// A UTI: `public.contact`, `public.image`, `public.movie`, `public.item`, …
    public var contentType: String {
        get { box.fields.contentType }
        set { fields.contentType = newValue }
    }
    public var title: String? {
        get { box.fields.title }
        set { fields.title = newValue }
    }
    public var displayName: String? {
        get { box.fields.displayName }
        set { fields.displayName = newValue }
    }
    public var contentDescription: String? {
        get { box.fields.contentDescription }
        set { fields.contentDescription = newValue }
    }
    public var keywords: [String] {
        get { box.fields.keywords }
        set { fields.keywords = newValue }
    }
    public var thumbnail: Thumbnail? {
        get { box.fields.thumbnail }
        set { fields.thumbnail = newValue }
    }
    public var phoneNumbers: [String] {
        get { box.fields.phoneNumbers }
        set { fields.phoneNumbers = newValue }
    }
    public var emailAddresses: [String] {
        get { box.fields.emailAddresses }
        set { fields.emailAddresses = newValue }
    }
    public var supportsPhoneCall: Bool? {
        get { box.fields.supportsPhoneCall }
        set { fields.supportsPhoneCall = newValue }
    }
    public var rating: Double? {
        get { box.fields.rating }
        set { fields.rating = newValue }
    }
    public var relatedUniqueIdentifier: String? {
        get { box.fields.relatedUniqueIdentifier }
        set { fields.relatedUniqueIdentifier = newValue }
    }
    /// The item's web page.
    public var url: String? {
        get { box.fields.url }
        set { fields.url = newValue }
    }
    /// Free-form searchable strings.
    public var extras: [String: String] {
        get { box.fields.extras }
        set { fields.extras = newValue }
    }

    public static func == (a: AttributeSet, b: AttributeSet) -> Bool {
        a.box === b.box || a.box.fields == b.box.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.fields)
    }

    public init(
        contentType: String = "public.item", title: String? = nil, displayName: String? = nil,
        contentDescription: String? = nil, keywords: [String] = [], thumbnail: Thumbnail? = nil,
        phoneNumbers: [String] = [], emailAddresses: [String] = [], supportsPhoneCall: Bool? = nil,
        rating: Double? = nil, relatedUniqueIdentifier: String? = nil, url: String? = nil,
        extras: [String: String] = [:]
    ) {
        box = Box(Fields(
            contentType: contentType, title: title, displayName: displayName,
            contentDescription: contentDescription, keywords: keywords, thumbnail: thumbnail,
            phoneNumbers: phoneNumbers, emailAddresses: emailAddresses, supportsPhoneCall: supportsPhoneCall,
            rating: rating, relatedUniqueIdentifier: relatedUniqueIdentifier, url: url, extras: extras))
    }

    enum CodingKeys: String, CodingKey {
        case contentType, title, displayName, contentDescription, keywords, thumbnail
        case phoneNumbers, emailAddresses, supportsPhoneCall, rating, relatedUniqueIdentifier, url, extras
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
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
            extras: try c.decodeIfPresent([String: String].self, forKey: .extras) ?? [:])
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
    }

    /// The name shown for a result: the title, else the display name.
    public var shownTitle: String { title ?? displayName ?? "" }
}
