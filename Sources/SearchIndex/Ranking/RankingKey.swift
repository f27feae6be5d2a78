/// The value of every ranking rule for one result, compared rule by rule:
/// each rule breaks the ties of the one before (SPEC 2).
public struct RankingKey: Sendable, Hashable, Comparable, Codable {
    /// Rule 1: total typos over all terms (fewer first).
    public var typos: Int
    /// Rule 2: terms matched as a whole token (more first).
    public var wholeWords: Int
    /// Rule 3: the query's terms are exactly the words of the title or of
    /// the display name, nothing left over, in any order (exact first).
    public var exact: Bool
    /// Rule 4: sum over terms of the best field's rank, 0 = title (lower first).
    public var fieldScore: Int
    /// Rule 5: views, each weighted by its recency (more first).
    public var engagement: Double
    /// Rule 6: the item's `rankingHint` as the index keeps it
    /// (`StaticRank.rankedHint`: whole numbers to 32,768, about four and a
    /// half significant digits beyond), 0 for
    /// none (higher first).
    public var rankingHint: Double
    /// Rule 7: number of sources indexing the same thing (more first).
    public var sources: Int
    /// Rule 8: title length in characters, up to 255 (shorter first).
    public var titleLength: Int
    /// Rule 9: the identifier, so the order is total and deterministic.
    public var uniqueIdentifier: String

    public init(
        typos: Int, wholeWords: Int, exact: Bool = false, fieldScore: Int, engagement: Double,
        rankingHint: Double = 0, sources: Int, titleLength: Int, uniqueIdentifier: String
    ) {
        self.typos = typos
        self.wholeWords = wholeWords
        self.exact = exact
        self.fieldScore = fieldScore
        self.engagement = engagement
        self.rankingHint = rankingHint
        self.sources = sources
        self.titleLength = titleLength
        self.uniqueIdentifier = uniqueIdentifier
    }

    public static func < (a: RankingKey, b: RankingKey) -> Bool {
        if a.typos != b.typos { return a.typos < b.typos }
        if a.wholeWords != b.wholeWords { return a.wholeWords > b.wholeWords }
        if a.exact != b.exact { return a.exact }
        if a.fieldScore != b.fieldScore { return a.fieldScore < b.fieldScore }
        if a.engagement != b.engagement { return a.engagement > b.engagement }
        if a.rankingHint != b.rankingHint { return a.rankingHint > b.rankingHint }
        if a.sources != b.sources { return a.sources > b.sources }
        if a.titleLength != b.titleLength { return a.titleLength < b.titleLength }
        return identifierPrecedes(a.uniqueIdentifier, b.uniqueIdentifier)
    }

    /// The first rule on which `a` and `b` differ, by its name in
    /// `--explain` (nil when they are equal).
    public static func decidingRule(_ a: RankingKey, _ b: RankingKey) -> String? {
        if a.typos != b.typos { return "typos" }
        if a.wholeWords != b.wholeWords { return "wholeWords" }
        if a.exact != b.exact { return "exact" }
        if a.fieldScore != b.fieldScore { return "field" }
        if a.engagement != b.engagement { return "engagement" }
        if a.rankingHint != b.rankingHint { return "rankingHint" }
        if a.sources != b.sources { return "sources" }
        if a.titleLength != b.titleLength { return "titleLength" }
        return a.uniqueIdentifier == b.uniqueIdentifier ? nil : "uniqueIdentifier"
    }

    /// Identifiers compare by their UTF-8 bytes (code point order), the same
    /// everywhere and cheap to pre-compare by prefix.
    static func identifierPrecedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
