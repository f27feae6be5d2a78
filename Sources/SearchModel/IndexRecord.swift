/// An item in the index with the source that put it there: an app's Core
/// Spotlight item, or a crawled web page (also described as an item).
public struct IndexRecord: Sendable, Hashable, Codable {
    // The item first: the source's byte then fits in the item's last word
    // (56 bytes a record instead of 72).
    public var item: SearchableItem
    public var source: Source

    enum CodingKeys: String, CodingKey {
        case source, item
    }

    // Keys in their documented order, whatever the layout's.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(source, forKey: .source)
        try c.encode(item, forKey: .item)
    }
}

extension IndexRecord {
    // Delegates to the memberwise initialiser (see `SearchableItem`'s).
    public init(source: Source, item: SearchableItem) {
        self.init(item: item, source: source)
    }
}
