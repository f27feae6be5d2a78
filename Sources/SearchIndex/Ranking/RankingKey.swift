/// The value of every ranking rule for one result, compared rule by rule:
/// each rule breaks the ties of the one before (SPEC 2).
public struct RankingKey: Sendable, Hashable, Comparable, Codable {
    /// Rule 1: total typos over all terms (fewer first).
    public var typos: Int
    /// Rule 2: terms matched as a whole token (more first).
    public var wholeWords: Int
    /// Rule 3: sum over terms of the best field's rank, 0 = title (lower first).
    public var fieldScore: Int
    /// Rule 4: views, each weighted by its recency (more first).
    public var engagement: Double
    /// Rule 5: number of sources indexing the same thing (more first).
    public var sources: Int
    /// Rule 6: title length in characters (shorter first).
    public var titleLength: Int
    /// Rule 7: the identifier, so the order is total and deterministic.
    public var uniqueIdentifier: String

    public static func < (a: RankingKey, b: RankingKey) -> Bool {
        if a.typos != b.typos { return a.typos < b.typos }
        if a.wholeWords != b.wholeWords { return a.wholeWords > b.wholeWords }
        if a.fieldScore != b.fieldScore { return a.fieldScore < b.fieldScore }
        if a.engagement != b.engagement { return a.engagement > b.engagement }
        if a.sources != b.sources { return a.sources > b.sources }
        if a.titleLength != b.titleLength { return a.titleLength < b.titleLength }
        return identifierPrecedes(a.uniqueIdentifier, b.uniqueIdentifier)
    }

    /// Identifiers compare by their UTF-8 bytes (code point order), the same
    /// everywhere and cheap to pre-compare by prefix.
    static func identifierPrecedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

}
