import Foundation
import SearchSupport

/// A one-pass reader of the item shape over raw bytes (values through
/// `JSONScanner`); every method answers nil (or false) at the first thing
/// it does not plainly understand.
struct PlainJSONReader {
    private var scanner: JSONScanner

    init(base: UnsafePointer<UInt8>, end: Int) {
        scanner = JSONScanner(base: base, end: end)
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
                guard let value = reader.scanner.string() else { return false }
                uniqueIdentifier = value
            case .domainIdentifier:
                guard reader.optional({ $0.string() }, into: &domainIdentifier) else { return false }
            case .expirationDate:
                guard reader.optionalOwn({ $0.date() }, into: &expirationDate) else { return false }
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
        guard object, scanner.skipSpace(), scanner.isAtEnd, let uniqueIdentifier, let attributeSet else { return nil }
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
            case .thumbnail: return reader.optionalOwn({ $0.thumbnail() }, into: &set.thumbnail)
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
                if reader.scanner.null() { return true }
                guard let extras = reader.scanner.stringDictionary() else { return false }
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
        guard scanner.skipSpace(), scanner.take(UInt8(ascii: "{")) else { return false }
        var seen: UInt32 = 0
        guard scanner.skipSpace(), !scanner.isAtEnd else { return false }
        if scanner.take(UInt8(ascii: "}")) { return true }
        while true {
            guard let key = key() else { return false }
            let bit: UInt32 = 1 << key.rawValue
            guard seen & bit == 0 else { return false }
            seen |= bit
            guard scanner.skipSpace(), scanner.take(UInt8(ascii: ":")) else { return false }
            guard scanner.skipSpace(), body(&self, key), scanner.skipSpace(), !scanner.isAtEnd else { return false }
            if scanner.take(UInt8(ascii: ",")) { guard scanner.skipSpace() else { return false }; continue }
            return scanner.take(UInt8(ascii: "}"))
        }
    }

    private mutating func key() -> Key? {
        guard let name = scanner.plainKey(), name.count < Key.byLength.count else { return nil }
        for candidate in Key.byLength[name.count]
        where candidate.name.withUnsafeBufferPointer({ memcmp($0.baseAddress!, name.baseAddress!, name.count) == 0 }) {
            return candidate.key
        }
        return nil
    }

    // MARK: Values

    /// `null` leaves `target` as it is (what `decodeIfPresent` and a default
    /// give); a value replaces it.
    private mutating func optional<Value>(_ read: (inout JSONScanner) -> Value?, into target: inout Value?) -> Bool {
        if scanner.null() { target = nil; return true }
        guard let value = read(&scanner) else { return false }
        target = value
        return true
    }

    /// The same for a value this reader reads (a date, a thumbnail).
    private mutating func optionalOwn<Value>(_ read: (inout PlainJSONReader) -> Value?, into target: inout Value?) -> Bool {
        if scanner.null() { target = nil; return true }
        guard let value = read(&self) else { return false }
        target = value
        return true
    }

    private mutating func optionalStrings(into target: inout [String]) -> Bool {
        if scanner.null() { return true }
        guard let values = scanner.strings() else { return false }
        target = values
        return true
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (what the store's encoder writes), years
    /// 0001–9999 (`StoredDate`), every field in range; anything else is left to `Codable`.
    private mutating func date() -> Date? {
        guard let text = scanner.peekQuoted(count: 20) else { return nil }
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
        scanner.skip(22)
        let days = StoredDate.daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }
}
