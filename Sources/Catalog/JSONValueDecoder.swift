import Foundation
import SearchIndex

/// Decodes one JSON value with errors that name the field, and dates as
/// `StoredDate` reads them.
enum JSONValueDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from bytes: ArraySlice<UInt8>, file: String, line: Int) throws -> T {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw ImportError(file: file, line: line, field: "-", message: "invalid UTF-8")
        }
        if nestingDepth(of: bytes) > maximumDepth {
            throw ImportError(file: file, line: line, field: "-", message: "nested more than \(maximumDepth) levels deep")
        }
        let decoder = JSONDecoder()
        // The store's own date reading: what is accepted here can be read back.
        decoder.dateDecodingStrategy = StoredDate.decodingStrategy
        if bytes.firstRange(of: "u0000".utf8) != nil, let escapedNUL = JSONLocator.firstScalar(in: bytes, where: containsEscapedNUL) {
            throw ImportError(file: file, line: line + escapedNUL.line - 1, field: escapedNUL.field, message: "NUL character in a string")
        }
        do {
            return try decoder.decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            if JSONValueDecoder.components(of: error).isEmpty,
               let huge = JSONLocator.firstScalar(in: bytes, where: isNumberOutOfRange) {
                throw ImportError(file: file, line: line + huge.line - 1, field: huge.field, message: "number out of range")
            }
            var described = describe(error, file: file, line: line)
            let located = JSONLocator.line(of: components(of: error), in: bytes)
            described.line = line + located - 1
            throw described
        }
    }

    /// A raw string token holding `\\u0000`: a raw NUL byte is refused, so its escape is too.
    static func containsEscapedNUL(_ token: ArraySlice<UInt8>) -> Bool {
        guard token.first == UInt8(ascii: "\""), token.count >= 7 else { return false }
        var i = token.startIndex + 1
        while i < token.endIndex {
            if token[i] == UInt8(ascii: "\\") {
                if token[(i + 1)...].starts(with: "u0000".utf8) { return true }
                i += 2
            } else {
                i += 1
            }
        }
        return false
    }

    /// A number token no `Double` holds (`1e999`).
    static func isNumberOutOfRange(_ token: ArraySlice<UInt8>) -> Bool {
        guard let first = token.first, first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
              let value = Double(String(decoding: token, as: UTF8.self)) else { return false }
        return !value.isFinite
    }

    /// Deeper JSON is refused before any parser recurses into it.
    static let maximumDepth = 64

    /// The deepest nesting of arrays and objects, strings skipped.
    static func nestingDepth(of bytes: ArraySlice<UInt8>) -> Int {
        var depth = 0, deepest = 0
        var inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// The coding path of an error as locator components (`key` or `[i]`).
    static func components(of error: DecodingError) -> [String] {
        let keys: [any CodingKey]
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): keys = c.codingPath
        case .keyNotFound(let key, let c): keys = c.codingPath + [key]
        @unknown default: keys = []
        }
        return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        var out = ""
        for key in codingPath {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += (out.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return out.isEmpty ? "-" : out
    }

    static func describe(_ error: DecodingError, file: String, line: Int) -> ImportError {
        switch error {
        case .typeMismatch(let type, let context):
            return ImportError(file: file, line: line, field: path(context.codingPath), message: "expected \(typeName(type))")
        case .valueNotFound(let type, let context):
            return ImportError(file: file, line: line, field: path(context.codingPath), message: "expected \(typeName(type)), found null")
        case .keyNotFound(let key, let context):
            return ImportError(file: file, line: line, field: path(context.codingPath + [key]), message: "missing")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return ImportError(file: file, line: line, field: "-", message: "malformed JSON")
            }
            return ImportError(file: file, line: line, field: path(context.codingPath), message: context.debugDescription)
        @unknown default:
            return ImportError(file: file, line: line, field: "-", message: "\(error)")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [String].Type, is [Any].Type: "an array"
        default:
            "\(type)".hasPrefix("Array") ? "an array" : ("\(type)".hasPrefix("Dictionary") ? "an object" : "an object")
        }
    }
}
