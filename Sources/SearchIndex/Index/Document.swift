import Foundation

/// One result-to-be: an item, or a standalone web page or activity, with
/// every record that merged into it (activities naming it with
/// `relatedUniqueIdentifier`, web pages at its `url`).
///
/// It shares the attribute set its results show with the record (or
/// standalone activity) it was built from: one reference to the same
/// copy-on-write storage, where a copy of the fields was a quarter of a
/// kilobyte a slot.
struct Document: Sendable {
    var uniqueIdentifier: String
    var title: String
    var titleLength: Int
    var contentType: String
    var domainIdentifier: String?
    var sources: [Source]
    var expirationDate: Date?
    var visibility: Visibility
    /// The attribute set results show: that of what the document was built
    /// from (`SearchEngine.shownAttributes(of:)`). Nil for a document a
    /// snapshot wrote whole (a standalone activity): found by identifier then.
    var attributes: AttributeSet?
    /// Distinct tokens and the best field each appears in, waiting to be
    /// inserted in the trie (only while building: afterwards they live in
    /// the engine's `TokenArena`).
    var pendingTokens: [String] = []
    var pendingFields: [Field] = []

    /// The first eight bytes of the identifier, big-endian: most identifier
    /// comparisons end here without touching the string.
    var identifierPrefix: UInt64 { TokenArena.head(of: uniqueIdentifier) }

    func isVisible(at now: Date) -> Bool {
        guard let expirationDate else { return true }
        return expirationDate > now
    }
}

/// The searchable text of one attribute set, field by field.
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
