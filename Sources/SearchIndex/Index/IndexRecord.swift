/// An item in the index with the source that put it there: an app's Core
/// Spotlight item, or a crawled web page (also described as an item).
public struct IndexRecord: Sendable, Hashable, Codable {
    public var source: Source
    public var item: SearchableItem

    public init(source: Source, item: SearchableItem) {
        self.source = source
        self.item = item
    }
}
