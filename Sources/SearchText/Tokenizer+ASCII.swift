/// The same rules as `Tokenizer.indexTokens`, for the common case of pure
/// ASCII text, on bytes: no per-character folding, no `Character` walks.
/// Tests hold it to the general path's output.
extension Tokenizer {
    static func asciiIndexTokens(_ bytes: UnsafeBufferPointer<UInt8>) -> [Token] {
        var found = ASCIITokens(bytes)
        // Chunks between spaces and control bytes.
        var start = 0
        for (i, b) in bytes.enumerated() where b <= 0x20 || b == 0x7F {
            if i > start { found.chunk(start, i) }
            start = i + 1
        }
        if start < bytes.count { found.chunk(start, bytes.count) }
        found.flushGroups()
        return found.tokens
    }

    /// A letter or digit: what ASCII words are runs of.
    @inlinable @inline(__always)
    package static func isASCIIWord(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122)
    }

    /// An ASCII byte as the index stores it: upper case folded to lower.
    @inlinable @inline(__always)
    package static func foldedASCII(_ b: UInt8) -> UInt8 {
        b >= 65 && b <= 90 ? b + 32 : b
    }

    /// Calls `body` with the bounds of each run of letters and digits in
    /// `bytes`, in order (plain text's tokens: `isPlain`).
    @inlinable @inline(__always)
    package static func forEachASCIIWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (_ start: Int, _ end: Int) -> Void) {
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
    @inlinable @inline(__always)
    package static func isNumberPunctuation(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: "(") || b == UInt8(ascii: ")")
            || b == UInt8(ascii: ".") || b == UInt8(ascii: "/")
    }
}

/// The tokens of one ASCII text as its chunks are read: words, e-mail
/// addresses whole, and the digit groups of a number written with
/// punctuation, held back until the number ends to be joined.
private struct ASCIITokens {
    let bytes: UnsafeBufferPointer<UInt8>
    var tokens: [Token] = []
    /// The digit groups of the number being read ("555", "0100" of "555-0100").
    var groups: [Token] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // Room for a token every four bytes, more than words take: the
        // array is made once, not grown token by token.
        tokens.reserveCapacity(bytes.count / 4 + 2)
    }

    /// Reads the chunk `lower..<upper`, which holds no space.
    mutating func chunk(_ lower: Int, _ upper: Int) {
        let slice = bytes[lower..<upper]
        // A number written with punctuation.
        if slice.allSatisfy({ Self.isDigit($0) || Tokenizer.isNumberPunctuation($0) }), slice.contains(where: Self.isDigit) {
            appendDigitGroups(lower, upper)
            return
        }
        flushGroups()
        if slice.contains(UInt8(ascii: "@")) { appendEmail(lower, upper) }
        appendWords(lower, upper)
    }

    /// The number's groups as tokens, and each group joined with those
    /// after it ("555-0100" also as "5550100"), so that the number is found
    /// with or without its punctuation.
    mutating func flushGroups() {
        tokens.append(contentsOf: groups)
        if groups.count > 1 {
            let end = groups[groups.count - 1].start + groups[groups.count - 1].length
            for i in 0..<(groups.count - 1) {
                tokens.append(Token(text: groups[i...].map(\.text).joined(), start: groups[i].start, length: end - groups[i].start))
            }
        }
        groups = []
    }

    private mutating func appendDigitGroups(_ lower: Int, _ upper: Int) {
        var i = lower
        while i < upper {
            if Self.isDigit(bytes[i]) {
                let start = i
                while i < upper, Self.isDigit(bytes[i]) { i += 1 }
                groups.append(Token(text: string(start, i), start: start, length: i - start))
            } else {
                i += 1
            }
        }
    }

    /// An e-mail address, whole, without the punctuation around it.
    private mutating func appendEmail(_ lower: Int, _ upper: Int) {
        var a = lower, b = upper
        while a < b, Self.isEmailTrim(bytes[a]) { a += 1 }
        while b > a, Self.isEmailTrim(bytes[b - 1]) { b -= 1 }
        guard a < b, let at = bytes[a..<b].firstIndex(of: UInt8(ascii: "@")), at != a else { return }
        let domain = bytes[(at + 1)..<b]
        if domain.contains(UInt8(ascii: ".")), !domain.contains(UInt8(ascii: "@")) {
            tokens.append(Token(text: string(a, b), start: a, length: b - a))
        }
    }

    private mutating func appendWords(_ lower: Int, _ upper: Int) {
        var i = lower
        while i < upper {
            if Tokenizer.isASCIIWord(bytes[i]) {
                let start = i
                while i < upper, Tokenizer.isASCIIWord(bytes[i]) { i += 1 }
                tokens.append(Token(text: string(start, i), start: start, length: i - start))
            } else {
                i += 1
            }
        }
    }

    /// Bytes `lower..<upper`, folded straight into the string's storage (a
    /// token of at most 15 bytes, most of them, stays in the string itself).
    private func string(_ lower: Int, _ upper: Int) -> String {
        String(unsafeUninitializedCapacity: upper - lower) { buffer in
            for offset in 0..<(upper - lower) { buffer[offset] = Tokenizer.foldedASCII(bytes[lower + offset]) }
            return upper - lower
        }
    }

    @inline(__always)
    private static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }

    private static func isEmailTrim(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}
