import Foundation

/// Folds text the way search compares it: case, diacritics and width.
///
/// `Zoë` → `zoe`, `ＡＢＣ` → `abc`, `ｶﾀｶﾅ` → `カタカナ`. Folding is done one
/// character at a time so that a token can always be mapped back to the
/// characters it came from (for highlights).
public enum TextNormalizer {
    /// The folded form of one character; may be empty or longer than one scalar.
    public static func fold(_ character: Character) -> String {
        if character.isASCII, let ascii = character.asciiValue {
            if ascii >= 65 && ascii <= 90 { return String(UnicodeScalar(ascii + 32)) }
            return String(character)
        }
        // Han ideographs have no case, width or diacritic to fold, and
        // Foundation's fold took microseconds each (a CJK title's
        // highlights were most of its result's time).
        if character.unicodeScalars.count == 1, isUnifiedIdeograph(character.unicodeScalars.first!) {
            return String(character)
        }
        return foldedByFoundation(character)
    }

    /// `fold` of any character, through Foundation's folding.
    static func foldedByFoundation(_ character: Character) -> String {
        let folded = String(character).folding(
            options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        // Decomposed leftovers (combining marks the fold kept) are not searchable.
        return String(String.UnicodeScalarView(folded.lowercased().unicodeScalars.filter {
            !($0.properties.generalCategory == .nonspacingMark)
        }))
    }

    /// The folded form of a whole string.
    public static func normalize(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text { out += fold(character) }
        return out
    }

    /// CJK Unified Ideographs and Extension A: no decomposition, no case,
    /// no width variant. (Compatibility ideographs, which have canonical
    /// decompositions, are left to Foundation.)
    static func isUnifiedIdeograph(_ scalar: Unicode.Scalar) -> Bool {
        (0x4E00...0x9FFF).contains(scalar.value) || (0x3400...0x4DBF).contains(scalar.value)
    }

    /// Chinese, Japanese and Korean scripts, which are indexed per character
    /// and per adjacent pair because they do not separate words with spaces.
    public static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF,  // Hiragana, Katakana
            0x3400...0x4DBF,  // CJK Extension A
            0x4E00...0x9FFF,  // CJK Unified Ideographs
            0xAC00...0xD7AF,  // Hangul syllables
            0x1100...0x11FF,  // Hangul Jamo
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0x20000...0x2FA1F:  // CJK extensions B–F, supplement
            return true
        default:
            return false
        }
    }
}
