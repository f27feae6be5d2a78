/// A colour as the data gives it (`#RRGGBB`) or as the UI chooses it; the
/// driver maps it to the nearest colour the terminal has.
public struct RGB: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#RRGGBB`.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"), let value = UInt32(String(hex.dropFirst()), radix: 16) else {
            return nil
        }
        self.init(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    static let accent = RGB(0xE0, 0xB0, 0x30)
    static let badge = RGB(0x30, 0xA0, 0xC0)
    static let muted = RGB(0x90, 0x90, 0x90)
    static let alert = RGB(0xD0, 0x40, 0x40)
}

/// How one cell is drawn.
public struct Style: Sendable, Hashable {
    public var bold = false
    public var dim = false
    public var reverse = false
    public var underline = false
    public var foreground: RGB?
    public var background: RGB?

    public init(bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false,
                foreground: RGB? = nil, background: RGB? = nil) {
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
        self.foreground = foreground
        self.background = background
    }

    public static let plain = Style()

    /// The same style without colours (for `NO_COLOR`).
    public var withoutColor: Style {
        var copy = self
        copy.foreground = nil
        copy.background = nil
        return copy
    }
}
