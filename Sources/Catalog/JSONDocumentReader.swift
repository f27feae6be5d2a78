import Foundation

/// Splits an import file into JSON values with the line each starts on:
/// either one JSON array (`[ {...}, {...} ]`) or JSON Lines (one value a
/// line, blank lines skipped). The values themselves are decoded elsewhere.
enum JSONDocumentReader {
    struct Element {
        var bytes: ArraySlice<UInt8>
        var line: Int
    }

    static func elements(of bytes: [UInt8], file: String) throws -> [Element] {
        // A UTF-8 byte order mark before the first value is not part of it.
        var i = bytes.starts(with: ItemImporter.byteOrderMark) ? ItemImporter.byteOrderMark.count : 0
        var line = 1
        skipWhitespace(bytes, &i, &line)
        if i < bytes.count, bytes[i] == UInt8(ascii: "[") {
            return try arrayElements(bytes, from: i, line: line, file: file)
        }
        // JSON Lines.
        var out: [Element] = []
        var start = bytes.starts(with: ItemImporter.byteOrderMark) ? ItemImporter.byteOrderMark.count : 0
        line = 1
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            appendLine(bytes[start..<end], line: line, to: &out)
            start = end + 1
            line += 1
        }
        return out
    }

    private static func appendLine(_ slice: ArraySlice<UInt8>, line: Int, to out: inout [Element]) {
        // Blank lines are skipped; the first byte of a JSON value is never blank.
        guard let first = slice.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        _ = first
        out.append(Element(bytes: slice, line: line))
    }

    private static func skipWhitespace(_ b: [UInt8], _ i: inout Int, _ line: inout Int) {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0D || b[i] == 0x0A {
            if b[i] == 0x0A { line += 1 }
            i += 1
        }
    }

    private static func arrayElements(_ b: [UInt8], from open: Int, line startLine: Int, file: String) throws -> [Element] {
        var out: [Element] = []
        var i = open + 1
        var line = startLine
        while true {
            skipWhitespace(b, &i, &line)
            guard i < b.count else {
                throw ImportError(file: file, line: line, field: "-", message: "unterminated JSON array")
            }
            if b[i] == UInt8(ascii: "]") && out.isEmpty { i += 1; break }
            let elementLine = line
            let start = i
            var depth = 0
            var inString = false
            var escaped = false
            scan: while i < b.count {
                let c = b[i]
                if c == 0x0A { line += 1 }
                if inString {
                    if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true } else if c == UInt8(ascii: "\"") { inString = false }
                } else {
                    switch c {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        if depth == 0 { break scan }
                        depth -= 1
                    case UInt8(ascii: ","):
                        if depth == 0 { break scan }
                    default: break
                    }
                }
                i += 1
            }
            guard i < b.count else {
                throw ImportError(file: file, line: elementLine, field: "-", message: "unterminated JSON array")
            }
            out.append(Element(bytes: b[start..<i], line: elementLine))
            if b[i] == UInt8(ascii: "]") { i += 1; break }
            i += 1  // comma
        }
        skipWhitespace(b, &i, &line)
        if i < b.count {
            throw ImportError(file: file, line: line, field: "-", message: "unexpected text after the JSON array")
        }
        return out
    }
}
