/// The same rules as `Tokenizer.indexTokens`, for text written only with
/// Han ideographs (those `TextNormalizer` folds to themselves) and ASCII
/// spaces: each ideograph is a token, and so is each pair of adjacent
/// ones, in the order the general path makes them (an ideograph, then its
/// pair with the next). Tests hold it to the general path's output.
///
/// Why: a Chinese title's highlights went through the general path, which
/// folds, chunks and tries every chunk as an e-mail address and a phone
/// number one `Character` at a time, which made a Chinese keystroke
/// several times as slow as a Latin one.
extension Tokenizer {
    /// Nil for any text with another character.
    static func hanIndexTokens(_ text: String) -> [Token]? {
        var tokens: [Token] = []
        var previous: Unicode.Scalar?
        var offset = 0
        for scalar in text.unicodeScalars {
            defer { offset += 1 }
            if scalar == " " {
                previous = nil
                continue
            }
            // An ideograph is a character of its own here: nothing that
            // could join it (a variation selector, a combining mark) passes.
            guard TextNormalizer.isUnifiedIdeograph(scalar) else { return nil }
            if let previous {
                var pair = String.UnicodeScalarView()
                pair.append(previous)
                pair.append(scalar)
                tokens.append(Token(text: String(pair), start: offset - 1, length: 2))
            }
            tokens.append(Token(text: String(Character(scalar)), start: offset, length: 1))
            previous = scalar
        }
        return tokens
    }
}
