/// The same rules as `Tokenizer.indexTokens`, for the common case of pure
/// ASCII text, on bytes: no per-character folding, no `Character` walks.
/// Tests hold it to the general path's output.
extension Tokenizer {
    static func asciiIndexTokens(_ bytes: UnsafeBufferPointer<UInt8>) -> [Token] {
        var tokens: [Token] = []
        var groups: [Token] = []
        // Room for a token every four bytes, more than words take: the
        // array is made once, not grown token by token.
        tokens.reserveCapacity(bytes.count / 4 + 2)

        // Folded straight into the string's storage (a token of at most 15
        // bytes, most of them, stays in the string itself): mapped into
        // an array first, each token was an allocation and a free.
        func string(_ slice: Slice<UnsafeBufferPointer<UInt8>>) -> String {
            String(unsafeUninitializedCapacity: slice.count) { buffer in
                var written = 0
                for byte in slice {
                    buffer[written] = foldedASCII(byte)
                    written += 1
                }
                return written
            }
        }
        func flushGroups() {
            tokens.append(contentsOf: groups)
            if groups.count > 1 {
                let end = groups[groups.count - 1].start + groups[groups.count - 1].length
                for i in 0..<(groups.count - 1) {
                    tokens.append(Token(text: groups[i...].map(\.text).joined(), start: groups[i].start, length: end - groups[i].start))
                }
            }
            groups = []
        }
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func isEmailTrim(_ b: UInt8) -> Bool {
            switch b {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","),
                UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "["),
                UInt8(ascii: "]"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }

        func chunk(_ lower: Int, _ upper: Int) {
            let slice = bytes[lower..<upper]
            // A number written with punctuation.
            if slice.allSatisfy({ isDigit($0) || isNumberPunctuation($0) }), slice.contains(where: isDigit) {
                var i = lower
                while i < upper {
                    if isDigit(bytes[i]) {
                        let start = i
                        while i < upper, isDigit(bytes[i]) { i += 1 }
                        groups.append(Token(text: string(bytes[start..<i]), start: start, length: i - start))
                    } else {
                        i += 1
                    }
                }
                return
            }
            flushGroups()
            // An e-mail address, whole.
            if slice.contains(UInt8(ascii: "@")) {
                var a = lower, b = upper
                while a < b, isEmailTrim(bytes[a]) { a += 1 }
                while b > a, isEmailTrim(bytes[b - 1]) { b -= 1 }
                if a < b, let at = bytes[a..<b].firstIndex(of: UInt8(ascii: "@")), at != a {
                    let domain = bytes[(at + 1)..<b]
                    if domain.contains(UInt8(ascii: ".")), !domain.contains(UInt8(ascii: "@")) {
                        tokens.append(Token(text: string(bytes[a..<b]), start: a, length: b - a))
                    }
                }
            }
            var i = lower
            while i < upper {
                if isASCIIWord(bytes[i]) {
                    let start = i
                    while i < upper, isASCIIWord(bytes[i]) { i += 1 }
                    tokens.append(Token(text: string(bytes[start..<i]), start: start, length: i - start))
                } else {
                    i += 1
                }
            }
        }

        var start = 0
        for (i, b) in bytes.enumerated() where b <= 0x20 || b == 0x7F {
            if i > start { chunk(start, i) }
            start = i + 1
        }
        if start < bytes.count { chunk(start, bytes.count) }
        flushGroups()
        return tokens
    }

    /// A letter or digit: what ASCII words are runs of.
    @inline(__always)
    static func isASCIIWord(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122)
    }

    /// An ASCII byte as the index stores it: upper case folded to lower.
    @inline(__always)
    static func foldedASCII(_ b: UInt8) -> UInt8 {
        b >= 65 && b <= 90 ? b + 32 : b
    }

    /// Calls `body` with the bounds of each run of letters and digits in
    /// `bytes`, in order (plain text's tokens: `SearchEngine.isPlain`).
    @inline(__always)
    static func forEachASCIIWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (_ start: Int, _ end: Int) -> Void) {
        var position = 0
        while position < bytes.count {
            guard isASCIIWord(bytes[position]) else {
                position += 1
                continue
            }
            let start = position
            while position < bytes.count, isASCIIWord(bytes[position]) { position += 1 }
            body(start, position)
        }
    }

    /// Punctuation a number may be written with (`+1 (555) 010-2345`, `4.12`, `11/22`).
    @inline(__always)
    static func isNumberPunctuation(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: "(") || b == UInt8(ascii: ")")
            || b == UInt8(ascii: ".") || b == UInt8(ascii: "/")
    }
}
