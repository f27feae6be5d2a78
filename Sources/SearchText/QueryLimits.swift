/// How large a query may be. A query is typed or pasted by a person, so
/// these are far above any real one; past them the engine's work (one
/// term intersection per term) would let one paste stall the caller.
public enum QueryLimits {
    /// Characters in a query's text.
    public static let maximumCharacters = 1_000
    /// Terms after tokenising (CJK text counts a term per character pair).
    public static let maximumTerms = 64

    /// Why `text` is refused, in words for the user; nil when it is within
    /// the limits. The character count is checked first, so the cost is
    /// bounded by the limit, not by the text.
    public static func problem(with text: String) -> String? {
        if text.utf8.count > maximumCharacters * 4 || text.count > maximumCharacters {
            return "query longer than \(maximumCharacters) characters"
        }
        if Tokenizer.queryTerms(text).count > maximumTerms {
            return "query of more than \(maximumTerms) terms"
        }
        return nil
    }
}
