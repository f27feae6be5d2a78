/// What is known about one searchable thing, after `CSSearchableItemAttributeSet`.
///
/// Every text attribute is searchable. `title` and `displayName` weigh most,
/// then `keywords`, then the other attributes, then `contentDescription`.
public struct AttributeSet: Codable, Sendable, Hashable {
    /// A UTI: `public.contact`, `public.image`, `public.movie`, `public.item`, …
    public var contentType: String
    public var title: String?
    public var displayName: String?
    public var contentDescription: String?
    public var keywords: [String]
    public var thumbnail: Thumbnail?
    public var phoneNumbers: [String]
    public var emailAddresses: [String]
    public var supportsPhoneCall: Bool?
    public var rating: Double?
    public var relatedUniqueIdentifier: String?
    /// The item's web page.
    public var url: String?
    /// Free-form searchable strings.
    public var extras: [String: String]

    public init(
        contentType: String = "public.item", title: String? = nil, displayName: String? = nil,
        contentDescription: String? = nil, keywords: [String] = [], thumbnail: Thumbnail? = nil,
        phoneNumbers: [String] = [], emailAddresses: [String] = [], supportsPhoneCall: Bool? = nil,
        rating: Double? = nil, relatedUniqueIdentifier: String? = nil, url: String? = nil,
        extras: [String: String] = [:]
    ) {
        self.contentType = contentType
        self.title = title
        self.displayName = displayName
        self.contentDescription = contentDescription
        self.keywords = keywords
        self.thumbnail = thumbnail
        self.phoneNumbers = phoneNumbers
        self.emailAddresses = emailAddresses
        self.supportsPhoneCall = supportsPhoneCall
        self.rating = rating
        self.relatedUniqueIdentifier = relatedUniqueIdentifier
        self.url = url
        self.extras = extras
    }

    enum CodingKeys: String, CodingKey {
        case contentType, title, displayName, contentDescription, keywords, thumbnail
        case phoneNumbers, emailAddresses, supportsPhoneCall, rating, relatedUniqueIdentifier, url, extras
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        contentType = try c.decodeIfPresent(String.self, forKey: .contentType) ?? "public.item"
        title = try c.decodeIfPresent(String.self, forKey: .title)
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName)
        contentDescription = try c.decodeIfPresent(String.self, forKey: .contentDescription)
        keywords = try c.decodeIfPresent([String].self, forKey: .keywords) ?? []
        thumbnail = try c.decodeIfPresent(Thumbnail.self, forKey: .thumbnail)
        phoneNumbers = try c.decodeIfPresent([String].self, forKey: .phoneNumbers) ?? []
        emailAddresses = try c.decodeIfPresent([String].self, forKey: .emailAddresses) ?? []
        supportsPhoneCall = try c.decodeIfPresent(Bool.self, forKey: .supportsPhoneCall)
        rating = try c.decodeIfPresent(Double.self, forKey: .rating)
        relatedUniqueIdentifier = try c.decodeIfPresent(String.self, forKey: .relatedUniqueIdentifier)
        url = try c.decodeIfPresent(String.self, forKey: .url)
        extras = try c.decodeIfPresent([String: String].self, forKey: .extras) ?? [:]
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
