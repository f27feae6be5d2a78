/// Columns a character takes in a terminal: 2 for East Asian wide and
/// fullwidth characters and emoji, 0 for lone combining marks, 1 otherwise.
/// The driver places every cell at the column this says, so a disagreement
/// with the terminal can only ever affect that one cell.
public enum DisplayWidth {
    /// Columns of one grapheme cluster: its first scalar's, except that a
    /// flag (two regional indicators) and an emoji-presentation sequence
    /// (a symbol followed by VS16) take two. ZWJ sequences (families) are
    /// one cluster, so they count as their first emoji, as terminals draw them.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let scalar = scalars.first else { return 0 }
        if scalars.count > 1 {
            if scalars.filter({ (0x1F1E6...0x1F1FF).contains($0.value) }).count >= 2 { return 2 }
            if scalars.contains(where: { $0.value == 0xFE0F }), scalar.properties.isEmoji { return 2 }
        }
        return of(scalar)
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark { return 0 }
        if v == 0x200B || v == 0x200D || (0xFE00...0xFE0F).contains(v) { return 0 }
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE,
            0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE,
            0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705,
            0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF,
            0x2B1B...0x2B1C, 0x2B50, 0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
            0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of(Terminal.visible($1)) }
    }
}

/// What may reach the terminal.
public enum Terminal {
    /// A character safe to draw: control characters (C0, DEL, C1) and bidi
    /// controls from data become visible placeholders (`␛`, `␡`, `�`) and
    /// never reach the terminal.
    public static func visible(_ character: Character) -> Character {
        guard character.unicodeScalars.contains(where: needsFilter) else { return character }
        var scalars = String.UnicodeScalarView()
        for scalar in character.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20: scalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: scalars.append("\u{2421}")
            case _ where needsFilter(scalar): scalars.append("\u{FFFD}")
            default: scalars.append(scalar)
            }
        }
        return Character(String(scalars))
    }

    /// A field of data as one run of visible characters, line breaks
    /// included, so no value can begin a line of its own in plain output.
    public static func visibleText(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsFilter) else { return text }
        return String(text.map(visible))
    }

    /// `text` with every character made `visible`, but for line breaks
    /// and tabs, which plain output lays out with: the last filter of
    /// every line the CLI prints (fields go through `visibleText` first).
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsFilter) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            out.append(character == "\n" || character == "\t" ? character : visible(character))
        }
        return out
    }

    /// Whether `scalar` is one that `visible` replaces: C0, DEL, C1, and the
    /// bidi controls that reorder what follows them.
    public static func needsFilter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    /// JSON text with the characters `visible` replaces written as `\\uXXXX`
    /// escapes: the same values, and none of them raw on a terminal.
    /// Such characters occur only inside JSON strings, where an escape is valid.
    public static func escapedJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0.value >= 0x7F && needsFilter($0) }) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x7F, needsFilter(scalar) {
                out.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
