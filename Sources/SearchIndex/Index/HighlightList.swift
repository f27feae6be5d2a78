/// A result's highlights, kept in the result itself while they are at
/// most two ranges of its title (most results of a keystroke), in
/// an array otherwise.
///
/// ```
///  first, second: UInt64   start << 32 | length, 0 = no range
///  spilled: [Highlight]?   every highlight, when they do not fit the words
/// ```
///
/// An array for each of a keystroke's fifty results would be most of the
/// allocations a short keystroke makes.
///
/// The form is canonical (inline exactly when the list fits), so the
/// synthesised equality is the lists' equality.
struct HighlightList: Sendable, Hashable {
    private var first: UInt64 = 0
    private var second: UInt64 = 0
    private var spilled: [Highlight]?

    /// The field whose ranges are kept inline.
    static let inlineField = "title"

    init() {}

    init(_ highlights: [Highlight]) {
        for highlight in highlights { append(highlight) }
    }

    /// Adds `highlight` after the others.
    mutating func append(_ highlight: Highlight) {
        if spilled == nil, second == 0, let packed = Self.packed(highlight) {
            if first == 0 { first = packed } else { second = packed }
            return
        }
        var all = spilled ?? list
        all.append(highlight)
        (first, second, spilled) = (0, 0, all)
    }

    /// The highlights, in the order they were added.
    var list: [Highlight] {
        if let spilled { return spilled }
        func unpacked(_ word: UInt64) -> Highlight {
            Highlight(field: Self.inlineField, start: Int(word >> 32), length: Int(word & 0xFFFF_FFFF))
        }
        if first == 0 { return [] }
        return second == 0 ? [unpacked(first)] : [unpacked(first), unpacked(second)]
    }

    /// A range of the inline field that fits a word, with a length
    /// (a word of zero means no range).
    @inline(__always)
    private static func packed(_ highlight: Highlight) -> UInt64? {
        guard highlight.field == inlineField,
            highlight.length > 0, highlight.length <= Int(UInt32.max),
            highlight.start >= 0, highlight.start <= Int(UInt32.max)
        else { return nil }
        return UInt64(highlight.start) << 32 | UInt64(highlight.length)
    }
}
