/// A normalised token and where it came from in the original text.
public struct Token: Sendable, Hashable {
    /// The folded text the index stores.
    public var text: String
    /// Offset of the first original character (in `Character`s).
    public var start: Int
    /// Number of original characters the token spans.
    public var length: Int

    public init(text: String, start: Int, length: Int) {
        self.text = text
        self.start = start
        self.length = length
    }
}

/// Splits text into the tokens the index stores and the terms a query asks for.
///
/// Rules (SPEC 2):
/// - words are runs of letters and digits, folded by `TextNormalizer`;
/// - Chinese, Japanese and Korean runs give each character and each adjacent pair;
/// - an e-mail address gives its whole form and its parts;
/// - a number written with punctuation (`+1 (555) 010-2345`) gives its groups,
///   all its digits joined, and the joined digits from each group on, so it is
///   found with or without its punctuation.
public enum Tokenizer {
    /// The tokens to index for `text`.
    public static func indexTokens(_ text: String) -> [Token] {
        // The string's own UTF-8, read in place (copied into an array, it
        // was an allocation a text).
        var text = text
        if let tokens = text.withUTF8({ isPlainASCII($0) ? asciiIndexTokens($0) : nil }) { return tokens }
        return generalIndexTokens(text)
    }

    /// `indexTokens` of text given as UTF-8 (a string is made only when
    /// the text is not plain ASCII).
    package static func indexTokens(utf8: UnsafeBufferPointer<UInt8>) -> [Token] {
        if isPlainASCII(utf8) { return asciiIndexTokens(utf8) }
        return generalIndexTokens(String(decoding: utf8, as: UTF8.self))
    }

    /// Whether the ASCII tokenizer reads `utf8`: byte offsets are character
    /// offsets in ASCII, except after "\r\n" (one Character), so text with
    /// a carriage return takes the general path.
    private static func isPlainASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    private static func generalIndexTokens(_ text: String) -> [Token] {
        if let han = hanIndexTokens(text) { return han }
        var tokens: [Token] = []
        // Digit groups of consecutive number-like chunks (`+1 (555) 010-2345`).
        var groups: [Token] = []
        func flushGroups() {
            tokens.append(contentsOf: groups)
            if groups.count > 1 {
                let end = groups[groups.count - 1].start + groups[groups.count - 1].length
                for i in 0..<(groups.count - 1) {
                    let joined = groups[i...].map(\.text).joined()
                    tokens.append(Token(text: joined, start: groups[i].start, length: end - groups[i].start))
                }
            }
            groups = []
        }
        for chunk in chunks(of: text) {
            if let numberGroups = digitGroups(chunk) {
                groups.append(contentsOf: numberGroups)
                continue
            }
            flushGroups()
            if let email = emailForm(chunk) {
                tokens.append(email)
            }
            appendWords(chunk, to: &tokens)
        }
        flushGroups()
        return tokens
    }

    /// The terms of a query, in order. Every term must match (AND).
    public static func queryTerms(_ query: String) -> [String] {
        plainQueryTerms(query) ?? generalQueryTerms(query)
    }

    /// `queryTerms` of a query written only with ASCII letters, digits and
    /// spaces (what most keystrokes type): its space-separated words,
    /// lowercased, which is what the general path makes of them (no
    /// e-mail, digit group, diacritic or width to fold). Nil for any other
    /// query. The general path folds and splits a character at a time,
    /// a few microseconds of a one-letter keystroke.
    static func plainQueryTerms(_ query: String) -> [String]? {
        var query = query
        return query.withUTF8 { bytes -> [String]? in
            var terms: [String] = []
            var start = 0
            for index in 0...bytes.count {
                let byte = index < bytes.count ? bytes[index] : 0x20
                if byte == 0x20 {
                    if index > start {
                        terms.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self).lowercased())
                    }
                    start = index + 1
                } else if !isASCIIWord(byte) {
                    return nil
                }
            }
            return terms
        }
    }

    /// `queryTerms` for any query.
    static func generalQueryTerms(_ query: String) -> [String] {
        var terms: [String] = []
        for chunk in chunks(of: query) {
            if let email = emailForm(chunk, requireDomain: false) {
                terms.append(email.text)
            } else if let groups = digitGroups(chunk), groups.count > 1 {
                terms.append(groups.map(\.text).joined())
            } else {
                var words: [Token] = []
                appendWords(chunk, to: &words, queryMode: true)
                terms.append(contentsOf: words.map(\.text))
            }
        }
        return terms
    }

    // MARK: - Chunks

    /// A whitespace-separated piece of the original text, already folded per character.
    struct Chunk {
        /// Folded form of each original character, in order.
        var folded: [String]
        /// Offset of the chunk's first character in the original text.
        var start: Int
    }

    static func chunks(of text: String) -> [Chunk] {
        var result: [Chunk] = []
        var current: [String] = []
        var start = 0
        var offset = 0
        for character in text {
            if character.isWhitespace || character.unicodeScalars.first.map({ $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }) == true {
                if !current.isEmpty { result.append(Chunk(folded: current, start: start)) }
                current = []
                start = offset + 1
            } else {
                current.append(TextNormalizer.fold(character))
            }
            offset += 1
        }
        if !current.isEmpty { result.append(Chunk(folded: current, start: start)) }
        return result
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static let emailTrim: Set<Unicode.Scalar> = ["<", ">", "(", ")", ",", ";", ":", "\"", "'", "[", "]", "."]

    /// The chunk as one e-mail token, if it looks like an address.
    static func emailForm(_ chunk: Chunk, requireDomain: Bool = true) -> Token? {
        var lower = 0
        var upper = chunk.folded.count
        while lower < upper, chunk.folded[lower].unicodeScalars.allSatisfy({ emailTrim.contains($0) }) { lower += 1 }
        while upper > lower, chunk.folded[upper - 1].unicodeScalars.allSatisfy({ emailTrim.contains($0) }) { upper -= 1 }
        guard lower < upper else { return nil }
        let text = chunk.folded[lower..<upper].joined()
        guard let at = text.firstIndex(of: "@"), at != text.startIndex else { return nil }
        let domain = text[text.index(after: at)...]
        if requireDomain {
            guard domain.contains("."), !domain.contains("@") else { return nil }
        }
        return Token(text: text, start: chunk.start + lower, length: upper - lower)
    }

    private static let numberPunctuation: Set<Unicode.Scalar> = ["+", "-", "(", ")", ".", "/"]

    /// The digit groups of a chunk made only of digits and phone punctuation.
    static func digitGroups(_ chunk: Chunk) -> [Token]? {
        var groups: [Token] = []
        var digits = ""
        var groupStart = 0
        for (i, folded) in chunk.folded.enumerated() {
            let scalars = folded.unicodeScalars
            if !scalars.isEmpty, scalars.allSatisfy({ $0.value >= 48 && $0.value <= 57 }) {
                if digits.isEmpty { groupStart = i }
                digits += folded
            } else if scalars.count == 1, numberPunctuation.contains(scalars.first!) {
                if !digits.isEmpty {
                    groups.append(Token(text: digits, start: chunk.start + groupStart, length: i - groupStart))
                    digits = ""
                }
            } else {
                return nil
            }
        }
        if !digits.isEmpty {
            groups.append(Token(text: digits, start: chunk.start + groupStart, length: chunk.folded.count - groupStart))
        }
        return groups.isEmpty ? nil : groups
    }

    /// Appends the word tokens of a chunk: alphanumeric runs, with CJK runs
    /// split into characters and adjacent pairs (queries use pairs only).
    static func appendWords(_ chunk: Chunk, to tokens: inout [Token], queryMode: Bool = false) {
        var word = ""
        var wordStart = 0
        var cjk: [(text: String, offset: Int)] = []

        func flushWord(_ end: Int) {
            if !word.isEmpty { tokens.append(Token(text: word, start: chunk.start + wordStart, length: end - wordStart)) }
            word = ""
        }
        func flushCJK() {
            guard !cjk.isEmpty else { return }
            if queryMode {
                if cjk.count == 1 {
                    tokens.append(Token(text: cjk[0].text, start: chunk.start + cjk[0].offset, length: 1))
                } else {
                    for i in 0..<(cjk.count - 1) {
                        tokens.append(Token(text: cjk[i].text + cjk[i + 1].text, start: chunk.start + cjk[i].offset, length: 2))
                    }
                }
            } else {
                for (i, c) in cjk.enumerated() {
                    tokens.append(Token(text: c.text, start: chunk.start + c.offset, length: 1))
                    if i + 1 < cjk.count {
                        tokens.append(Token(text: c.text + cjk[i + 1].text, start: chunk.start + c.offset, length: 2))
                    }
                }
            }
            cjk = []
        }

        for (i, folded) in chunk.folded.enumerated() {
            let scalars = folded.unicodeScalars
            if let first = scalars.first, TextNormalizer.isCJK(first) {
                flushWord(i)
                cjk.append((folded, i))
                continue
            }
            flushCJK()
            if !scalars.isEmpty, scalars.allSatisfy(isWordScalar) {
                if word.isEmpty { wordStart = i }
                word += folded
            } else {
                flushWord(i)
            }
        }
        flushWord(chunk.folded.count)
        flushCJK()
    }
}
