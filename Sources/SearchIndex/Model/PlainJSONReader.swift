import Foundation

/// A one-pass reader of the item shape over raw bytes; every method answers
/// nil (or false) at the first thing it does not plainly understand.
struct PlainJSONReader {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var i = 0
    /// Reused for strings with escapes.
    private var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, end: Int) {
        self.base = base
        self.end = end
    }

    mutating func item() -> SearchableItem? {
        var uniqueIdentifier: String?
        var domainIdentifier: String?
        var expirationDate: Date?
        var attributeSet: AttributeSet?
        var visibility = Visibility.private
        let object = readObject { reader, key in
            switch key {
            case .uniqueIdentifier:
                guard let value = reader.string() else { return false }
                uniqueIdentifier = value
            case .domainIdentifier:
                guard reader.optional({ $0.string() }, into: &domainIdentifier) else { return false }
            case .expirationDate:
                guard reader.optional({ $0.date() }, into: &expirationDate) else { return false }
            case .attributeSet:
                guard let value = reader.attributeSet() else { return false }
                attributeSet = value
            case .visibility:
                var raw: String?
                guard reader.optional({ $0.string() }, into: &raw) else { return false }
                if let raw {
                    guard let value = Visibility(rawValue: raw) else { return false }
                    visibility = value
                }
            default: return false
            }
            return true
        }
        guard object, skipSpace(), i == end, let uniqueIdentifier, let attributeSet else { return nil }
        return SearchableItem(
            uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier,
            expirationDate: expirationDate, attributeSet: attributeSet, visibility: visibility)
    }

    private mutating func attributeSet() -> AttributeSet? {
        var set = AttributeSet.Fields()
        let object = readObject { reader, key in
            switch key {
            case .contentType:
                var value: String?
                guard reader.optional({ $0.string() }, into: &value) else { return false }
                set.contentType = value ?? "public.item"
            case .title: return reader.optional({ $0.string() }, into: &set.title)
            case .displayName: return reader.optional({ $0.string() }, into: &set.displayName)
            case .contentDescription: return reader.optional({ $0.string() }, into: &set.contentDescription)
            case .keywords: return reader.optionalStrings(into: &set.keywords)
            case .thumbnail: return reader.optional({ $0.thumbnail() }, into: &set.thumbnail)
            case .phoneNumbers: return reader.optionalStrings(into: &set.phoneNumbers)
            case .emailAddresses: return reader.optionalStrings(into: &set.emailAddresses)
            case .supportsPhoneCall: return reader.optional({ $0.bool() }, into: &set.supportsPhoneCall)
            case .rating: return reader.optional({ $0.double() }, into: &set.rating)
            case .relatedUniqueIdentifier: return reader.optional({ $0.string() }, into: &set.relatedUniqueIdentifier)
            case .url: return reader.optional({ $0.string() }, into: &set.url)
            case .rankingHint:
                // A hint `AttributeSet` refuses is left to `Codable`, which names the problem.
                return reader.optional({ $0.double().flatMap { AttributeSet.isValidRankingHint($0) ? $0 : nil } }, into: &set.rankingHint)
            case .extras:
                if reader.null() { return true }
                guard let extras = reader.stringDictionary() else { return false }
                set.extras = extras
            default: return false
            }
            return true
        }
        return object ? AttributeSet(set) : nil
    }

    private mutating func thumbnail() -> Thumbnail? {
        var thumbnail = Thumbnail()
        let object = readObject { reader, key in
            switch key {
            case .format: return reader.optional({ $0.string() }, into: &thumbnail.format)
            case .width: return reader.optional({ $0.int() }, into: &thumbnail.width)
            case .height: return reader.optional({ $0.int() }, into: &thumbnail.height)
            case .byteCount: return reader.optional({ $0.int() }, into: &thumbnail.byteCount)
            case .dominantColor: return reader.optional({ $0.string() }, into: &thumbnail.dominantColor)
            case .caption: return reader.optional({ $0.string() }, into: &thumbnail.caption)
            default: return false
            }
        }
        return object ? thumbnail : nil
    }

    // MARK: Objects and keys

    /// The keys this reader knows; any other key sends the line to `Codable`.
    enum Key: UInt8, CaseIterable {
        case uniqueIdentifier, domainIdentifier, expirationDate, attributeSet, visibility
        case contentType, title, displayName, contentDescription, keywords, thumbnail
        case phoneNumbers, emailAddresses, supportsPhoneCall, rating, relatedUniqueIdentifier, url, extras
        case rankingHint
        case format, width, height, byteCount, dominantColor, caption

        /// Names by length, so a key is compared with the few of its length.
        static let byLength: [[(name: [UInt8], key: Key)]] = {
            var table = [[(name: [UInt8], key: Key)]](repeating: [], count: 32)
            for key in allCases {
                let name = Array("\(key)".utf8)
                table[name.count].append((name, key))
            }
            return table
        }()
    }

    /// Reads `{ "key": value, … }`, handing each known key to `body`; a key
    /// seen twice, unknown or escaped, or `body` answering false, fails it.
    private mutating func readObject(_ body: (inout PlainJSONReader, Key) -> Bool) -> Bool {
        guard skipSpace(), i < end, base[i] == UInt8(ascii: "{") else { return false }
        i += 1
        var seen: UInt32 = 0
        guard skipSpace(), i < end else { return false }
        if base[i] == UInt8(ascii: "}") { i += 1; return true }
        while true {
            guard let key = key() else { return false }
            let bit: UInt32 = 1 << key.rawValue
            guard seen & bit == 0 else { return false }
            seen |= bit
            guard skipSpace(), i < end, base[i] == UInt8(ascii: ":") else { return false }
            i += 1
            guard skipSpace(), body(&self, key), skipSpace(), i < end else { return false }
            if base[i] == UInt8(ascii: ",") { i += 1; guard skipSpace() else { return false }; continue }
            guard base[i] == UInt8(ascii: "}") else { return false }
            i += 1
            return true
        }
    }

    private mutating func key() -> Key? {
        guard i < end, base[i] == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        var j = start
        while j < end, base[j] != UInt8(ascii: "\""), base[j] != UInt8(ascii: "\\") { j += 1 }
        guard j < end, base[j] == UInt8(ascii: "\"") else { return nil }
        let count = j - start
        i = j + 1
        guard count < Key.byLength.count else { return nil }
        for candidate in Key.byLength[count] where candidate.name.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base + start, count) == 0 }) {
            return candidate.key
        }
        return nil
    }

    // MARK: Values

    /// Whitespace as JSON has it; always true, for use in `guard` chains.
    @discardableResult
    private mutating func skipSpace() -> Bool {
        while i < end, base[i] == 0x20 || base[i] == 0x0A || base[i] == 0x0D || base[i] == 0x09 { i += 1 }
        return true
    }

    /// Consumes `null` if it is next.
    private mutating func null() -> Bool { literal("null") }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - i >= count, memcmp(base + i, word.utf8Start, count) == 0 else { return false }
        // `nullx` is not `null`.
        if i + count < end, Self.isWordByte(base[i + count]) { return false }
        i += count
        return true
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte >= 0x80
    }

    /// `null` leaves `target` as it is (what `decodeIfPresent` and a default
    /// give); a value replaces it.
    private mutating func optional<Value>(_ read: (inout PlainJSONReader) -> Value?, into target: inout Value?) -> Bool {
        if null() { target = nil; return true }
        guard let value = read(&self) else { return false }
        target = value
        return true
    }

    private mutating func optionalStrings(into target: inout [String]) -> Bool {
        if null() { return true }
        guard let values = strings() else { return false }
        target = values
        return true
    }

    private mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    private mutating func string() -> String? {
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
                // An escaped NUL is left to `Codable`, where the importer refuses it.
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
                guard let scalar = Unicode.Scalar(scalarValue) else { return nil }
                scratch.append(contentsOf: UTF8.encode(scalar)!)
            default: return nil
            }
        }
        return nil
    }

    /// The string of valid UTF-8 bytes, or nil. `String(validating:)` is
    /// generic and unspecialised here: it looked up type metadata on every
    /// call (under a lock the decoding threads share). Decoding repairs
    /// invalid bytes, so a repaired string differs from its bytes.
    private static func validString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        if !bytes.contains(where: { $0 >= 0x80 }) { return text }
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    private mutating func hex4() -> UInt16? {
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

    private mutating func strings() -> [String]? {
        guard i < end, base[i] == UInt8(ascii: "[") else { return nil }
        i += 1
        var values: [String] = []
        guard skipSpace(), i < end else { return nil }
        if base[i] == UInt8(ascii: "]") { i += 1; return values }
        while true {
            guard let value = string() else { return nil }
            values.append(value)
            guard skipSpace(), i < end else { return nil }
            if base[i] == UInt8(ascii: ",") { i += 1; skipSpace(); continue }
            guard base[i] == UInt8(ascii: "]") else { return nil }
            i += 1
            return values
        }
    }

    private mutating func stringDictionary() -> [String: String]? {
        guard i < end, base[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        var values: [String: String] = [:]
        guard skipSpace(), i < end else { return nil }
        if base[i] == UInt8(ascii: "}") { i += 1; return values }
        while true {
            guard let key = string(), skipSpace(), i < end, base[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipSpace()
            guard let value = string(), values.updateValue(value, forKey: key) == nil else { return nil }
            guard skipSpace(), i < end else { return nil }
            if base[i] == UInt8(ascii: ",") { i += 1; skipSpace(); continue }
            guard base[i] == UInt8(ascii: "}") else { return nil }
            i += 1
            return values
        }
    }

    /// The text of a JSON number at `i` (standard grammar), consumed.
    private mutating func numberText() -> UnsafeBufferPointer<UInt8>? {
        let start = i
        func digits(_ reader: inout PlainJSONReader) -> Int {
            let first = reader.i
            while reader.i < reader.end, reader.base[reader.i] >= UInt8(ascii: "0"), reader.base[reader.i] <= UInt8(ascii: "9") { reader.i += 1 }
            return reader.i - first
        }
        if i < end, base[i] == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        let integerDigits = digits(&self)
        guard integerDigits > 0, integerDigits == 1 || base[integerStart] != UInt8(ascii: "0") else { return nil }
        if i < end, base[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { return nil }
        }
        if i < end, base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E") {
            i += 1
            if i < end, base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { return nil }
        }
        if i < end, Self.isWordByte(base[i]) { return nil }
        return UnsafeBufferPointer(start: base + start, count: i - start)
    }

    /// Plain integers only (`-?[1-9][0-9]{0,17}` or `0`): every such text
    /// is an `Int` to any reader.
    private mutating func int() -> Int? {
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
    private mutating func double() -> Double? {
        guard let text = numberText(), !text.contains(UInt8(ascii: "e")), !text.contains(UInt8(ascii: "E")), let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (what the store's encoder writes), years
    /// 0001–9999 (`StoredDate`), every field in range; anything else is left to `Codable`.
    private mutating func date() -> Date? {
        guard end - i >= 22, base[i] == UInt8(ascii: "\""), base[i + 21] == UInt8(ascii: "\"") else { return nil }
        let text = UnsafeBufferPointer(start: base + i + 1, count: 20)
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for offset in from..<(from + count) {
                let byte = text[offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T"),
              text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "Z"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...9999).contains(year), (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        guard (1...StoredDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        i += 22
        let days = StoredDate.daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }
}
