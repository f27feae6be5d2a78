import Foundation
import SearchIndex

/// Reads searchable items from a JSON array or JSON Lines file, in the shape
/// of `shared/bench/make_corpus.py`. The whole file is validated before
/// anything is returned, so a caller applies all of it or none of it.
public enum ItemImporter {
    /// Items from the file at `path`; `domain` replaces every item's domain.
    public static func items(atPath path: String, domain: String? = nil) throws -> [SearchableItem] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(file: path, line: 0, field: "-", message: "cannot read the file")
        }
        return try items(from: [UInt8](data), file: path, domain: domain)
    }

    /// Items from bytes; `file` names them in errors.
    public static func items(from bytes: [UInt8], file: String, domain: String? = nil) throws -> [SearchableItem] {
        var items: [SearchableItem] = []
        for element in try JSONDocumentReader.elements(of: bytes, file: file) {
            if element.bytes.contains(0) {
                throw ImportError(file: file, line: element.line, field: "-", message: "NUL byte in the input")
            }
            var item = try JSONValueDecoder.decode(SearchableItem.self, from: element.bytes, file: file, line: element.line)
            try validate(item, file: file, line: element.line)
            if let domain { item.domainIdentifier = domain }
            items.append(item)
        }
        return items
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
