import Foundation

extension SearchableItem {
    /// The item in `bytes` (one JSON object, the shape `Codable` reads) when
    /// the text is plain: only the item's own keys, each once, standard JSON,
    /// dates as `YYYY-MM-DDTHH:MM:SSZ`. Otherwise nil, and the caller decodes
    /// with `Codable`, which gives the same item or names what is wrong.
    ///
    /// Why a second reader: Foundation's `JSONDecoder` is most of an import
    /// (much of it waiting on its type-metadata lock) and of reading a
    /// store's records back. This
    /// reader refuses rather than guesses, so it never accepts what
    /// `Codable` would refuse and never reads a value differently: an unknown
    /// or repeated key, an escaped key, a number `Int` might read otherwise
    /// (`1.0`, `-0`, nineteen digits), a lone surrogate, a raw control
    /// character, a non-canonical date or any syntax error all answer nil.
    public init?(plainJSON bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return nil }
        var reader = PlainJSONReader(base: base, end: bytes.count)
        guard let item = reader.item() else { return nil }
        self = item
    }
}
