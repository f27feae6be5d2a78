/// Which strategy answers a query, and why: chosen once per query by
/// `SearchEngine.plan(terms:matches:query:exactFirst:)` from the query and
/// the index's statistics, and named by `search --json --explain` and
/// `bench --json`.
///
/// Every strategy ranks by the same rules (SPEC 2) and gives the same
/// answer; they differ only in what they read, so the plan is the cheapest
/// one that can answer. The choice, in the order it is made:
///
/// ```
///  words?  ── none, filters only ──────────────────────────▶ filtersAlone
///    │     ── a word matches no token ─────────────────────▶ nothing
///    ▼
///  one word reaching many documents ───────────────────────▶ bestLists
///  2–8 words, each broad, in a large index ────────────────▶ fieldMaps
///  every word probeable (few enough nodes and typos) ──────▶ scan
///  otherwise ──────────────────────────────────────────────▶ enumeration
///
///  and, beside any of the four: documents the words name
///  exactly go first, the strategy fills the page (exactFirst)
/// ```
///
/// A strategy may find, as it works, that it cannot answer after all (a
/// best list truncated before the page is full); the query then goes to
/// the next strategy that can take it, and `fellBackFrom` says so.
public struct QueryPlan: Sendable, Hashable {
    public enum Strategy: String, Sendable, Hashable, CaseIterable {
        /// No answer to compute: no words and no filters, a query over the
        /// limits, or a word that matches no token.
        case nothing
        /// Filters without words: every admitted document in static order
        /// (`SearchEngine+FiltersAlone`).
        case filtersAlone
        /// One broad word: the best lists of its prefix nodes, merged
        /// (`SearchEngine+BestLists`).
        case bestLists
        /// Several broad words: their code maps summed slot by slot
        /// (`SearchEngine+FieldMaps`).
        case fieldMaps
        /// The driving word's postings, each candidate's tokens probed for
        /// the other words (`SearchEngine+Scan`).
        case scan
        /// Every matched document visited and keyed: needs nothing but the
        /// trie, and is the reference the others are tested against
        /// (`SearchEngine+Enumeration`).
        case enumeration
    }

    /// Why a strategy was chosen: the figures it was chosen on, put into
    /// words only when asked (`text`), so that planning a keystroke makes no string.
    public enum Reason: Sendable, Hashable {
        case overLimit(characters: Int)
        case noWords
        case tooManyWords(limit: Int)
        case matchesNoToken(term: String)
        case filtersWithoutWords
        case broadWord(reach: Int, minimum: Int)
        case broadWords(count: Int, share: Int, slots: Int)
        case probeable(words: Int)
        case scanTurnedOff
        case tooManyWordsToProbe(limit: Int)
        case tooFuzzyToProbe
        case notSearched

        public var text: String {
            switch self {
            case .overLimit(let characters): "longer than \(characters) characters"
            case .noWords: "no words"
            case .tooManyWords(let limit): "more than \(limit) words"
            case .matchesNoToken(let term): "“\(term)” starts no token"
            case .filtersWithoutWords: "filters without words: every document they admit"
            case .broadWord(let reach, let minimum):
                "one word whose prefixes reach \(reach) documents (best lists answer above \(minimum))"
            case .broadWords(let count, let share, let slots):
                "\(count) words, each reaching at least 1/\(share) of \(slots) slots"
            case .probeable(let words):
                switch words {
                case 1: "one word: its postings, ranked as read"
                case 2: "the driving word's postings, the other word probed in each document's tokens"
                default: "the driving word's postings, the other \(words - 1) words probed in each document's tokens"
                }
            case .scanTurnedOff: "the scan is turned off"
            case .tooManyWordsToProbe(let limit): "more than \(limit) words to probe"
            case .tooFuzzyToProbe: "a word reaches too many tokens or typos to probe"
            case .notSearched: "not searched"
            }
        }
    }

    public var strategy: Strategy
    /// Whether documents named exactly by the query's words lead the page
    /// (`SearchEngine+Exact`).
    public var exactFirst: Bool
    /// The strategy first chosen, when it could not answer and another did.
    public var fellBackFrom: Strategy?
    public var why: Reason

    public init(_ strategy: Strategy, exactFirst: Bool = false, why: Reason) {
        self.strategy = strategy
        self.exactFirst = exactFirst
        self.why = why
    }

    /// Why this strategy, in a phrase a person can check against the index.
    public var reason: String { why.text }

    /// The plan's short name: the strategy, after `exact+` when exact names lead.
    public var name: String { exactFirst ? "exact+" + strategy.rawValue : strategy.rawValue }
}
