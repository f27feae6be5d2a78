import Foundation
import SearchModel
import SearchSupport

/// The line `index export` writes for a record, in the import format, made
/// by hand for a record whose every value is plain.
///
/// Why a second writer: the export's format is what Foundation writes
/// (`JSONEncoder`, read back and written again by `JSONSerialization`
/// with sorted keys), and that costs a type lookup and a collation for
/// every key of every record. This writer refuses rather than guesses, as
/// `SearchableItem(plainJSON:)` does when reading: a number that is not
/// finite or is minus zero, or a string with a control character, gives
/// nil, and the caller writes it through Foundation.
/// Extras, whose keys are the user's, are ordered by Foundation's own
/// comparison. What it does write is the same bytes (the tests compare the
/// two on every kind of value).
public enum ItemExporter {
    /// The record's JSON object on one line, keys sorted, no line break;
    /// nil when it is not plain.
    public static func plainLine(_ record: IndexRecord) -> String? {
        var out = PlainLineWriter()
        let item = record.item
        let attributes = item.attributeSet
        out.raw("{\"attributeSet\":")
        guard out.attributes(attributes) else { return nil }
        if let domain = item.domainIdentifier {
            out.raw(",\"domainIdentifier\":")
            guard out.string(domain) else { return nil }
        }
        if let expiration = item.expirationDate {
            out.raw(",\"expirationDate\":")
            guard out.string(StoredDate.format(expiration)) else { return nil }
        }
        out.raw(",\"source\":")
        guard out.string(record.source.rawValue) else { return nil }
        out.raw(",\"uniqueIdentifier\":")
        guard out.string(item.uniqueIdentifier) else { return nil }
        out.raw(",\"visibility\":")
        guard out.string(item.visibility.rawValue) else { return nil }
        out.raw("}")
        return String(decoding: out.bytes, as: UTF8.self)
    }
}

/// The bytes of one line; each writing step answers false when its value
/// is not plain (the line is then dropped).
private struct PlainLineWriter {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(512) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A JSON string; one with a control character (whose escape
    /// Foundation spells its own way) is not plain.
    mutating func string(_ text: String) -> Bool {
        JSONStringWriter.append(text, to: &bytes, escapingControls: false)
    }

    mutating func strings(_ list: [String]) -> Bool {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in list.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard string(text) else { return false }
        }
        bytes.append(UInt8(ascii: "]"))
        return true
    }

    mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A number as Foundation writes it after reading it back: the
    /// shortest text that reads as it, without a trailing `.0`. Not plain
    /// when not finite, or minus zero (read back as the integer 0).
    mutating func number(_ value: Double) -> Bool {
        guard value.isFinite, !(value == 0 && value.sign == .minus) else { return false }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        return true
    }

    /// An object of strings, its keys in Foundation's order for sorted
    /// keys (numeric, case-insensitive, forced, in the system locale: as
    /// `JSONSerialization` compares them).
    mutating func object(_ pairs: [String: String]) -> Bool {
        let keys = pairs.keys.sorted { a, b in
            a.compare(b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.startIndex..<a.endIndex,
                      locale: NSLocale.system) == .orderedAscending
        }
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard string(key) else { return false }
            bytes.append(UInt8(ascii: ":"))
            guard string(pairs[key]!) else { return false }
        }
        bytes.append(UInt8(ascii: "}"))
        return true
    }

    /// Writes `key` (with the comma before it unless it is the object's
    /// first) and then the value `write` writes.
    mutating func member(_ key: StaticString, first: inout Bool, _ write: (inout PlainLineWriter) -> Bool) -> Bool {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        raw("\":")
        return write(&self)
    }

    /// `key` and its string, when there is one.
    mutating func member(_ key: StaticString, ifAny value: String?, first: inout Bool) -> Bool {
        guard let value else { return true }
        return member(key, first: &first) { $0.string(value) }
    }

    /// `key` and its number, when there is one.
    mutating func member(_ key: StaticString, ifAny value: Int?, first: inout Bool) {
        guard let value else { return }
        _ = member(key, first: &first) { $0.integer(value); return true }
    }

    /// The attribute set's object, its keys in sorted order.
    mutating func attributes(_ set: AttributeSet) -> Bool {
        var first = true
        bytes.append(UInt8(ascii: "{"))
        func list(_ key: StaticString, _ values: [String]) -> Bool {
            values.isEmpty || member(key, first: &first) { $0.strings(values) }
        }
        guard member("contentDescription", ifAny: set.contentDescription, first: &first),
              member("contentType", first: &first, { $0.string(set.contentType) }),
              member("displayName", ifAny: set.displayName, first: &first),
              list("emailAddresses", set.emailAddresses),
              set.extras.isEmpty || member("extras", first: &first, { $0.object(set.extras) }),
              list("keywords", set.keywords),
              list("phoneNumbers", set.phoneNumbers)
        else { return false }
        if let hint = set.rankingHint {
            guard member("rankingHint", first: &first, { $0.number(hint) }) else { return false }
        }
        if let rating = set.rating {
            guard member("rating", first: &first, { $0.number(rating) }) else { return false }
        }
        guard member("relatedUniqueIdentifier", ifAny: set.relatedUniqueIdentifier, first: &first) else { return false }
        if let calls = set.supportsPhoneCall {
            _ = member("supportsPhoneCall", first: &first) { $0.raw(calls ? "true" : "false"); return true }
        }
        if let thumbnail = set.thumbnail {
            guard member("thumbnail", first: &first, { $0.thumbnail(thumbnail) }) else { return false }
        }
        guard member("title", ifAny: set.title, first: &first), member("url", ifAny: set.url, first: &first) else { return false }
        bytes.append(UInt8(ascii: "}"))
        return true
    }

    mutating func thumbnail(_ thumbnail: Thumbnail) -> Bool {
        var first = true
        bytes.append(UInt8(ascii: "{"))
        member("byteCount", ifAny: thumbnail.byteCount, first: &first)
        guard member("caption", ifAny: thumbnail.caption, first: &first),
              member("dominantColor", ifAny: thumbnail.dominantColor, first: &first),
              member("format", ifAny: thumbnail.format, first: &first)
        else { return false }
        member("height", ifAny: thumbnail.height, first: &first)
        member("width", ifAny: thumbnail.width, first: &first)
        bytes.append(UInt8(ascii: "}"))
        return true
    }
}
