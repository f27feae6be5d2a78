import Foundation
import SearchIndex
import SearchSupport

/// Reads searchable items from a JSON array or JSON Lines file, in the shape
/// of `shared/bench/make_corpus.py`. The whole file is validated before
/// anything is returned, so a caller applies all of it or none of it.
public enum ItemImporter {
    /// The longest line of JSON Lines accepted: far above any real item
    /// (the bench's largest is a few kilobytes), and it bounds the memory
    /// a file without line breaks (`/dev/zero`) can take.
    public static let maximumLineBytes = 64 << 20
    /// The largest JSON array document accepted: it is read whole, so
    /// larger inputs should be JSON Lines, which stream.
    public static let maximumArrayBytes = 256 << 20

    /// Items from the file at `path`; `domain` replaces every item's domain.
    ///
    /// JSON Lines are streamed a chunk at a time (memory holds the items and
    /// at most one line, not the file), each byte looked at once; a JSON
    /// array is read whole, up to `maximumArrayBytes`.
    public static func items(atPath path: String, domain: String? = nil) throws -> [SearchableItem] {
        guard FileManager.default.fileExists(atPath: path) else { throw ImportError.missing(path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportError(file: path, line: 0, field: "-", message: "cannot read the file")
        }
        defer { try? handle.close() }
        // Data, appended to the buffer as it is: one copy of the file's bytes, not two.
        func read() throws -> Data {
            do { return try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw ImportError(file: path, line: 0, field: "-", message: "cannot read the file (\(error))")
            }
        }
        var buffer = [UInt8](try read())
        if buffer.starts(with: byteOrderMark) { buffer.removeFirst(byteOrderMark.count) }
        if let first = buffer.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }), first == UInt8(ascii: "[") {
            while true {
                let more = try read()
                if more.isEmpty { break }
                buffer.append(contentsOf: more)
                if buffer.count > maximumArrayBytes {
                    throw ImportError(file: path, line: 1, field: "-", message: "a JSON array over \(maximumArrayBytes >> 20) MB; use JSON Lines")
                }
            }
            return try items(from: buffer, file: path, domain: domain)
        }
        return try streamLines(from: buffer, more: read, file: path, domain: domain)
    }

    /// The UTF-8 byte order mark some editors write first; it is not JSON.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The items of JSON Lines that begin with `buffer`, reading on with `more`.
    private static func streamLines(
        from first: [UInt8], more read: () throws -> Data, file path: String, domain: String?
    ) throws -> [SearchableItem] {
        var buffer = first
        var items: [SearchableItem] = []
        // One table for the whole file: a domain's copies then share one string.
        var domains = StringInterner()
        var line = 1
        var scanned = 0  // bytes of `buffer` known to hold no line break
        var atEnd = false
        // The items of the buffer before, decoded but not yet taken.
        var decoded: [Result<SearchableItem?, any Error>] = []
        while true {
            var lines: [(bytes: Range<Int>, line: Int)] = []
            var start = 0
            buffer.withUnsafeBytes { bytes in
                // The scan for line breaks runs on this thread alone, before the
                // cores share the lines: memchr reads many bytes a step.
                while scanned < bytes.count, let found = memchr(bytes.baseAddress! + scanned, 0x0A, bytes.count - scanned) {
                    let end = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
                    lines.append((start..<end, line))
                    start = end + 1
                    scanned = start
                    line += 1
                }
            }
            scanned = buffer.count
            if atEnd, start < buffer.count {
                lines.append((start..<buffer.count, line))
                start = buffer.count
            }
            decoded = decode(lines, of: buffer, file: path, domain: domain, taking: &decoded, interning: &domains, into: &items)
            // The first bad line, in file order: a buffer's lines are decoded
            // before the next buffer is read.
            for case .failure(let error) in decoded { throw error }
            if atEnd {
                take(&decoded, interning: &domains, into: &items)
                return items
            }
            buffer.removeFirst(start)
            scanned -= start
            if buffer.count > maximumLineBytes {
                throw ImportError(file: path, line: line, field: "-", message: "a line longer than \(maximumLineBytes >> 20) MB")
            }
            let more = try read()
            if more.isEmpty { atEnd = true } else { buffer.append(contentsOf: more) }
        }
    }

    /// Decodes `lines` of `buffer`, and meanwhile takes the items of the
    /// buffer before (`before`, whose lines all decoded). Decoding is most
    /// of an import's reading time and each line stands alone, so the cores
    /// share the lines of a buffer in blocks, this thread once it has taken
    /// the items before (which would otherwise leave the other core waiting).
    private static func decode(
        _ lines: [(bytes: Range<Int>, line: Int)], of buffer: [UInt8], file: String, domain: String?,
        taking before: inout [Result<SearchableItem?, any Error>],
        interning domains: inout StringInterner, into items: inout [SearchableItem]
    ) -> [Result<SearchableItem?, any Error>] {
        func decodeLine(_ line: (bytes: Range<Int>, line: Int)) -> Result<SearchableItem?, any Error> {
            Result { try item(ifAnyFrom: buffer[line.bytes], line: line.line, file: file, domain: domain) }
        }
        guard lines.count >= 64 else {
            take(&before, interning: &domains, into: &items)
            return lines.map(decodeLine)
        }
        return ParallelWork.map(lines, alongside: { take(&before, interning: &domains, into: &items) }, decodeLine)
    }

    /// Moves the items of `decoded` (lines that all decoded) to `items` in
    /// order (blank lines have none), their domains shared through `domains`.
    private static func take(
        _ decoded: inout [Result<SearchableItem?, any Error>],
        interning domains: inout StringInterner, into items: inout [SearchableItem]
    ) {
        defer { decoded = [] }
        // Moved out, not copied: a copy retains each of an item's strings and arrays.
        for index in decoded.indices {
            var result: Result<SearchableItem?, any Error> = .success(nil)
            swap(&result, &decoded[index])
            guard case .success(var item?) = result else { continue }
            item.domainIdentifier = domains.intern(item.domainIdentifier)
            items.append(item)
        }
    }

    /// The item on one line, or nil when the line is blank.
    private static func item(ifAnyFrom bytes: ArraySlice<UInt8>, line: Int, file: String, domain: String?) throws -> SearchableItem? {
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
        return try item(from: bytes, line: line, file: file, domain: domain)
    }

    private static func item(from bytes: ArraySlice<UInt8>, line: Int, file: String, domain: String?) throws -> SearchableItem {
        // Most lines are plain; the rest (and every bad one) go through Codable,
        // which names the error.
        var item: SearchableItem
        if let plain = bytes.withUnsafeBufferPointer(SearchableItem.init(plainJSON:)) {
            item = plain
        } else {
            if bytes.contains(0) {
                throw ImportError(file: file, line: line, field: "-", message: "NUL byte in the input")
            }
            item = try JSONValueDecoder.decode(SearchableItem.self, from: bytes, file: file, line: line)
        }
        try validate(item, file: file, line: line)
        if let domain { item.domainIdentifier = domain }
        return item
    }

    /// Items from bytes; `file` names them in errors.
    public static func items(from bytes: [UInt8], file: String, domain: String? = nil) throws -> [SearchableItem] {
        var domains = StringInterner()
        return try JSONDocumentReader.elements(of: bytes, file: file).map {
            var read = try item(from: $0.bytes, line: $0.line, file: file, domain: domain)
            read.domainIdentifier = domains.intern(read.domainIdentifier)
            return read
        }
    }

    static func validate(_ item: SearchableItem, file: String, line: Int) throws {
        // The byte checks answer for the usual identifier (a printable ASCII
        // byte, no control byte) without Unicode property lookups.
        let identifier = item.uniqueIdentifier.utf8
        if !identifier.contains(where: { $0 > 0x20 && $0 < 0x7F }),
           item.uniqueIdentifier.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ImportError(file: file, line: line, field: "uniqueIdentifier", message: "empty")
        }
        if identifier.contains(where: { $0 < 0x20 || $0 >= 0x7F }),
           item.uniqueIdentifier.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw ImportError(file: file, line: line, field: "uniqueIdentifier", message: "contains control characters")
        }
        if let domain = item.domainIdentifier, domain.isEmpty {
            throw ImportError(file: file, line: line, field: "domainIdentifier", message: "empty")
        }
        if let color = item.attributeSet.thumbnail?.dominantColor, !isHexColor(color) {
            throw ImportError(file: file, line: line, field: "attributeSet.thumbnail.dominantColor", message: "expected #RRGGBB")
        }
    }

    /// `#RRGGBB`: seven ASCII bytes, so counting bytes is counting characters.
    static func isHexColor(_ text: String) -> Bool {
        let bytes = text.utf8
        return bytes.count == 7 && bytes.first == UInt8(ascii: "#") && bytes.dropFirst().allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
                || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F"))
        }
    }
}
