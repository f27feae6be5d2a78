/// Finds the line on which a value sits inside a JSON text, given the
/// coding path a decoder reported, so an error can name the exact line.
/// For a path that does not exist (a missing key) it answers with the line of
/// the deepest ancestor that does.
struct JSONLocator {
    private let bytes: ArraySlice<UInt8>
    private let target: [String]
    private var i: Int
    private var line = 1
    private var bestDepth = -1
    private(set) var bestLine = 1
    /// For `firstScalar`: which raw scalar (string with its quotes, or
    /// number) is sought, and where the first one was found.
    private var wanted: ((ArraySlice<UInt8>) -> Bool)?
    private var found: (path: [String], line: Int)?

    static func line(of path: [String], in bytes: ArraySlice<UInt8>) -> Int {
        var locator = JSONLocator(bytes: bytes, target: path, i: bytes.startIndex)
        locator.value(path: [])
        return locator.bestLine
    }

    /// The path and line of the first string or number whose raw text
    /// satisfies `wanted`: errors the decoder reports without a path (a
    /// number out of range) can then name their field.
    static func firstScalar(in bytes: ArraySlice<UInt8>, where wanted: @escaping (ArraySlice<UInt8>) -> Bool) -> (field: String, line: Int)? {
        var locator = JSONLocator(bytes: bytes, target: [], i: bytes.startIndex)
        locator.bestDepth = Int.min
        locator.wanted = wanted
        locator.value(path: [])
        guard let found = locator.found else { return nil }
        var field = ""
        for component in found.path { field += component.hasPrefix("[") || field.isEmpty ? component : "." + component }
        return (field.isEmpty ? "-" : field, found.line)
    }

    /// Checks a scalar that ran from `start` to here against `wanted`.
    private mutating func check(from start: Int, path: [String], line: Int) {
        guard let wanted, found == nil, wanted(bytes[start..<i]) else { return }
        found = (path, line)
    }

    private init(bytes: ArraySlice<UInt8>, target: [String], i: Int) {
        self.bytes = bytes
        self.target = target
        self.i = i
    }

    private mutating func skipSpace() {
        while i < bytes.endIndex, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D || bytes[i] == 0x0A {
            if bytes[i] == 0x0A { line += 1 }
            i += 1
        }
    }

    private mutating func note(_ path: [String]) {
        guard wanted == nil, path.count > bestDepth, path.count <= target.count, Array(target.prefix(path.count)) == path else { return }
        bestDepth = path.count
        bestLine = line
    }

    private mutating func string() -> String {
        var out: [UInt8] = []
        i += 1
        var escaped = false
        while i < bytes.endIndex {
            let c = bytes[i]
            i += 1
            if escaped { escaped = false; out.append(c); continue }
            if c == UInt8(ascii: "\\") { escaped = true; continue }
            if c == UInt8(ascii: "\"") { break }
            if c == 0x0A { line += 1 }
            out.append(c)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Set once the whole path is found: every loop stops then.
    private var done: Bool { wanted == nil ? bestDepth >= target.count : found != nil }

    private mutating func value(path: [String]) {
        skipSpace()
        guard i < bytes.endIndex, !done else { return }
        note(path)
        if done { return }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            while !done {
                skipSpace()
                guard i < bytes.endIndex else { return }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "\"") else { return }
                let (keyStart, keyLine) = (i, line)
                let key = string()
                // A key is a string too (an `extras` name): sought like a value.
                check(from: keyStart, path: path + [key], line: keyLine)
                skipSpace()
                guard i < bytes.endIndex, bytes[i] == UInt8(ascii: ":") else { return }
                i += 1
                let before = i
                value(path: path + [key])
                skipSpace()
                if i == before { return }  // no progress: malformed, stop
            }
        case UInt8(ascii: "["):
            i += 1
            var index = 0
            while !done {
                skipSpace()
                guard i < bytes.endIndex else { return }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return }
                if bytes[i] == UInt8(ascii: ",") { i += 1; index += 1; continue }
                let before = i
                value(path: path + ["[\(index)]"])
                if i == before { return }  // no progress: malformed, stop
            }
        case UInt8(ascii: "\""):
            let (start, startLine) = (i, line)
            _ = string()
            check(from: start, path: path, line: startLine)
        default:
            let start = i
            while i < bytes.endIndex, !",]} \t\r\n".utf8.contains(bytes[i]) { i += 1 }
            check(from: start, path: path, line: line)
        }
    }
}
