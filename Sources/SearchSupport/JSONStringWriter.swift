/// JSON string literals appended to a byte buffer, for the writers that
/// make JSON by hand instead of through a coder (the export's plain lines,
/// the store's lists of identifiers): the one place that says how a
/// string is escaped.
public enum JSONStringWriter {
    /// Appends `text` as a JSON string, quotes and backslashes escaped.
    /// A control character (below U+0020, or DEL) is written as `\u00XX`
    /// when `escapingControls`; otherwise it makes the call answer false,
    /// the string left unfinished, for a writer that must match
    /// Foundation's bytes (which spells some of them its own way).
    @discardableResult
    public static func append(_ text: String, to bytes: inout [UInt8], escapingControls: Bool) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case ..<0x20, 0x7F:
                    guard escapingControls else { return false }
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                default:
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
            return true
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
