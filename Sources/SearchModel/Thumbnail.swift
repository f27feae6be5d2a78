/// A thumbnail described as metadata only: the terminal draws words, not pixels.
public struct Thumbnail: Codable, Sendable, Hashable {
    public var format: String?
    public var width: Int?
    public var height: Int?
    public var byteCount: Int?
    /// `#RRGGBB`.
    public var dominantColor: String?
    public var caption: String?

    public init(
        format: String? = nil, width: Int? = nil, height: Int? = nil, byteCount: Int? = nil,
        dominantColor: String? = nil, caption: String? = nil
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.byteCount = byteCount
        self.dominantColor = dominantColor
        self.caption = caption
    }
}
