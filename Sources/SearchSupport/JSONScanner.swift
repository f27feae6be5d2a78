import Foundation

/// A one-pass reader of standard JSON values over raw bytes, for readers of
/// a known shape (the items' fast path, `SearchableItem(plainJSON:)`).
///
/// Every method answers nil (or false) at the first thing it does not
/// plainly understand, and then the caller decodes with `Codable`, which
/// names the problem: it never accepts what `JSONDecoder` refuses, and never
/// reads a value otherwise. Inlinable: a million lines call it for every value.
public struct JSONScanner {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let end: Int
    /// The next byte to read.
    @usableFromInline var i = 0
    /// Reused for strings with escapes.
    @usableFromInline var scratch: [UInt8] = []

    @inlinable
    public init(base: UnsafePointer<UInt8>, end: Int) {
        self.base = base
        self.end = end
    }

    /// Whether every byte has been read.
    @inlinable public var isAtEnd: Bool { i == end }

    /// Consumes `byte` if it is next.
    @inlinable
    public mutating func take(_ byte: UInt8) -> Bool {
        guard i < end, base[i] == byte else { return false }
        i += 1
        return true
    }

    /// Whitespace as JSON has it; always true, for use in `guard` chains.
    @inlinable @discardableResult
    public mutating func skipSpace() -> Bool {
        while i < end, base[i] == 0x20 || base[i] == 0x0A || base[i] == 0x0D || base[i] == 0x09 { i += 1 }
        return true
    }

    /// Consumes `null` if it is next.
    @inlinable
    public mutating func null() -> Bool { literal("null") }

    @inlinable
    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - i >= count, memcmp(base + i, word.utf8Start, count) == 0 else { return false }
        // `nullx` is not `null`.
        if i + count < end, Self.isWordByte(base[i + count]) { return false }
        i += count
        return true
    }

    @inlinable
    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte >= 0x80
    }

    @inlinable
    public mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// A key's bytes when it has no escape (`"name"`), consumed.
    @inlinable
    public mutating func plainKey() -> UnsafeBufferPointer<UInt8>? {
        guard i < end, base[i] == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        var j = start
        while j < end, base[j] != UInt8(ascii: "\""), base[j] != UInt8(ascii: "\\") { j += 1 }
        guard j < end, base[j] == UInt8(ascii: "\"") else { return nil }
        i = j + 1
        return UnsafeBufferPointer(start: base + start, count: j - start)
    }

    /// The `count` bytes of a string of exactly that many plain bytes
    /// (`"…"`), not consumed: the caller checks them, then `skip`s.
    @inlinable
    public func peekQuoted(count: Int) -> UnsafeBufferPointer<UInt8>? {
        guard end - i >= count + 2, base[i] == UInt8(ascii: "\""), base[i + count + 1] == UInt8(ascii: "\"") else { return nil }
        return UnsafeBufferPointer(start: base + i + 1, count: count)
    }

    /// Moves past `count` bytes the caller has read.
    @inlinable
    public mutating func skip(_ count: Int) { i += count }

    @inlinable
    public mutating func string() -> String? {
        guard i < end, base[i] == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        var j = start
        while j < end {
            let byte = base[j]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            j += 1
        }
        guard j < end else { return nil }
        if base[j] == UInt8(ascii: "\"") {
            i = j + 1
            return Self.validString(UnsafeBufferPointer(start: base + start, count: j - start))
        }
        guard base[j] == UInt8(ascii: "\\") else { return nil }  // a raw control character
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: j - start))
        i = j
        return escapedRest()
    }

    /// The rest of a string with escapes, from `i`, after `scratch`.
    @usableFromInline
    mutating func escapedRest() -> String? {
        while i < end {
            let byte = base[i]
            if byte == UInt8(ascii: "\"") {
                i += 1
                return scratch.withUnsafeBufferPointer(Self.validString)
            }
            if byte < 0x20 { return nil }
            if byte != UInt8(ascii: "\\") {
                scratch.append(byte)
                i += 1
                continue
            }
            guard i + 1 < end else { return nil }
            let escape = base[i + 1]
            i += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escape)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                guard let scalar = escapedScalar() else { return nil }
                scratch.append(contentsOf: UTF8.encode(scalar)!)
            default: return nil
            }
        }
        return nil
    }

    /// The scalar of a `\u` escape (a surrogate pair's two), after the `\u`.
    /// An escaped NUL is left to `Codable`, where the importer refuses it.
    @usableFromInline
    mutating func escapedScalar() -> Unicode.Scalar? {
        guard let unit = hex4(), unit != 0 else { return nil }
        var scalarValue = UInt32(unit)
        if (0xD800...0xDBFF).contains(unit) {
            guard end - i >= 2, base[i] == UInt8(ascii: "\\"), base[i + 1] == UInt8(ascii: "u") else { return nil }
            i += 2
            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(unit) {
            return nil
        }
        return Unicode.Scalar(scalarValue)
    }

    /// The string of valid UTF-8 bytes, or nil. `String(validating:)` is
    /// generic and unspecialised here: it looked up type metadata on every
    /// call (under a lock the decoding threads share). Decoding repairs
    /// invalid bytes, so a repaired string differs from its bytes.
    @usableFromInline
    static func validString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        if !bytes.contains(where: { $0 >= 0x80 }) { return text }
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    @usableFromInline
    mutating func hex4() -> UInt16? {
        guard end - i >= 4 else { return nil }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = base[i]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
            i += 1
        }
        return value
    }

    @inlinable
    public mutating func strings() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var values: [String] = []
        guard skipSpace(), i < end else { return nil }
        if take(UInt8(ascii: "]")) { return values }
        while true {
            guard let value = string() else { return nil }
            values.append(value)
            guard skipSpace(), i < end else { return nil }
            if take(UInt8(ascii: ",")) { skipSpace(); continue }
            return take(UInt8(ascii: "]")) ? values : nil
        }
    }

    /// An object of strings, each key once.
    @inlinable
    public mutating func stringDictionary() -> [String: String]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var values: [String: String] = [:]
        guard skipSpace(), i < end else { return nil }
        if take(UInt8(ascii: "}")) { return values }
        while true {
            guard let key = string(), skipSpace(), take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            guard let value = string(), values.updateValue(value, forKey: key) == nil else { return nil }
            guard skipSpace(), i < end else { return nil }
            if take(UInt8(ascii: ",")) { skipSpace(); continue }
            return take(UInt8(ascii: "}")) ? values : nil
        }
    }

    /// The text of a JSON number at `i` (standard grammar), consumed.
    @usableFromInline
    mutating func numberText() -> UnsafeBufferPointer<UInt8>? {
        let start = i
        func digits(_ scanner: inout JSONScanner) -> Int {
            let first = scanner.i
            while scanner.i < scanner.end, scanner.base[scanner.i] >= UInt8(ascii: "0"), scanner.base[scanner.i] <= UInt8(ascii: "9") {
                scanner.i += 1
            }
            return scanner.i - first
        }
        _ = take(UInt8(ascii: "-"))
        let integerStart = i
        let integerDigits = digits(&self)
        guard integerDigits > 0, integerDigits == 1 || base[integerStart] != UInt8(ascii: "0") else { return nil }
        if take(UInt8(ascii: ".")) {
            guard digits(&self) > 0 else { return nil }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits(&self) > 0 else { return nil }
        }
        if i < end, Self.isWordByte(base[i]) { return nil }
        return UnsafeBufferPointer(start: base + start, count: i - start)
    }

    /// Plain integers only (`-?[1-9][0-9]{0,17}` or `0`): every such text
    /// is an `Int` to any reader.
    @inlinable
    public mutating func int() -> Int? {
        guard let text = numberText() else { return nil }
        let negative = text.first == UInt8(ascii: "-")
        let digits = text.dropFirst(negative ? 1 : 0)
        // Eighteen digits never overflow; a fraction or exponent is refused.
        guard digits.count <= 18 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard !(negative && value == 0) else { return nil }
        return negative ? -value : value
    }

    /// A finite double, correctly rounded (as Foundation's reader is).
    /// Exponents are left to `Codable`: Foundation refuses `0e1` but takes
    /// `0e-1`, and no reader should have to match that.
    @inlinable
    public mutating func double() -> Double? {
        guard let text = numberText(), !text.contains(UInt8(ascii: "e")), !text.contains(UInt8(ascii: "E")),
            let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite
        else { return nil }
        return value
    }
}
