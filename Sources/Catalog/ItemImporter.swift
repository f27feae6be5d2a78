import Foundation
import SearchIndex

/// Reads searchable items from a JSON array or JSON Lines file, in the shape
/// of `shared/bench/make_corpus.py`. The whole file is validated before
/// anything is returned, so a caller applies all of it or none of it.
public enum ItemImporter {
    /// Items from the file at `path`; `domain` replaces every item's domain.
    ///
    /// JSON Lines are streamed a chunk at a time (memory holds the items, not
    /// the file); a JSON array is read whole.
    public static func items(atPath path: String, domain: String? = nil) throws -> [SearchableItem] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportError(file: path, line: 0, field: "-", message: "cannot read the file")
        }
        defer { try? handle.close() }
        func read() throws -> [UInt8] {
            do { return [UInt8](try handle.read(upToCount: 1 << 20) ?? Data()) } catch {
                throw ImportError(file: path, line: 0, field: "-", message: "cannot read the file (\(error))")
            }
        }
        var buffer = try read()
        if let first = buffer.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }), first == UInt8(ascii: "[") {
            while true {
                let more = try read()
                if more.isEmpty { break }
                buffer += more
            }
            return try items(from: buffer, file: path, domain: domain)
        }
        var items: [SearchableItem] = []
        var line = 1
        var atEnd = false
        while true {
            var start = 0
            while let end = buffer[start...].firstIndex(of: 0x0A) {
                try appendItem(from: buffer[start..<end], line: line, file: path, domain: domain, to: &items)
                start = end + 1
                line += 1
            }
            if atEnd {
                if start < buffer.count {
                    try appendItem(from: buffer[start...], line: line, file: path, domain: domain, to: &items)
                }
                return items
            }
            buffer.removeFirst(start)
            let more = try read()
            if more.isEmpty { atEnd = true } else { buffer += more }
        }
    }

    private static func appendItem(
        from bytes: ArraySlice<UInt8>, line: Int, file: String, domain: String?, to items: inout [SearchableItem]
    ) throws {
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        items.append(try item(from: bytes, line: line, file: file, domain: domain))
    }

    private static func item(from bytes: ArraySlice<UInt8>, line: Int, file: String, domain: String?) throws -> SearchableItem {
        if bytes.contains(0) {
            throw ImportError(file: file, line: line, field: "-", message: "NUL byte in the input")
        }
        var item = try JSONValueDecoder.decode(SearchableItem.self, from: bytes, file: file, line: line)
        try validate(item, file: file, line: line)
        if let domain { item.domainIdentifier = domain }
        return item
    }

    /// Items from bytes; `file` names them in errors.
    public static func items(from bytes: [UInt8], file: String, domain: String? = nil) throws -> [SearchableItem] {
        try JSONDocumentReader.elements(of: bytes, file: file).map {
            try item(from: $0.bytes, line: $0.line, file: file, domain: domain)
        }
    }

    static func validate(_ item: SearchableItem, file: String, line: Int) throws {
        if item.uniqueIdentifier.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ImportError(file: file, line: line, field: "uniqueIdentifier", message: "empty")
        }
        if item.uniqueIdentifier.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw ImportError(file: file, line: line, field: "uniqueIdentifier", message: "contains control characters")
        }
        if let domain = item.domainIdentifier, domain.isEmpty {
            throw ImportError(file: file, line: line, field: "domainIdentifier", message: "empty")
        }
        if let color = item.attributeSet.thumbnail?.dominantColor, !isHexColor(color) {
            throw ImportError(file: file, line: line, field: "attributeSet.thumbnail.dominantColor", message: "expected #RRGGBB")
        }
    }

    static func isHexColor(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        return scalars.count == 7 && scalars[0] == "#" && scalars.dropFirst().allSatisfy { $0.properties.isASCIIHexDigit }
    }
}
