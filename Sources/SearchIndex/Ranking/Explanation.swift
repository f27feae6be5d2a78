/// Why a result ranks where it does: each rule's value and, per query term,
/// the token and field that matched.
public struct Explanation: Sendable, Hashable, Codable {
    public struct TermMatch: Sendable, Hashable, Codable {
        public var term: String
        public var token: String
        public var field: String
        public var typos: Int
        public var whole: Bool
    }

    public var key: RankingKey
    public var views: Int
    public var matches: [TermMatch]

    /// One line per rule, for the terminal.
    public var lines: [String] {
        var out = [
            "typos \(key.typos)",
            "whole words \(key.wholeWords)",
            "exact \(key.exact ? "yes" : "no")",
            "field \(key.fieldScore) (\(matches.map(\.field).joined(separator: ", ")))",
            "engagement \(Self.format(key.engagement)) (\(views) view\(views == 1 ? "" : "s"))",
            "ranking hint \(Self.format(key.rankingHint))",
            "sources \(key.sources)",
            "title length \(key.titleLength)",
            "identifier \(key.uniqueIdentifier)",
        ]
        for m in matches {
            out.append("  \(m.term) → \(m.token) in \(m.field)\(m.whole ? " (whole)" : " (prefix)")\(m.typos > 0 ? ", \(m.typos) typo\(m.typos == 1 ? "" : "s")" : "")")
        }
        return out
    }

    /// A rule's number as people write it: whole numbers without a
    /// decimal point, others to three decimals.
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        let scaled = (value * 1000).rounded() / 1000
        return String(scaled)
    }
}
