/// Hands back one shared copy of each distinct string it is given.
///
/// Items name a handful of domains, and each item's own copy of a name
/// longer than fifteen bytes (shorter ones live inline) would be an
/// allocation. Keeps at most `limit` strings, so
/// input whose every value differs costs a bounded table, not a copy.
public struct StringInterner {
    private var strings: Set<String> = []
    private let limit: Int

    public init(limit: Int = 1_024) {
        self.limit = limit
    }

    public mutating func intern(_ string: String) -> String {
        guard string.utf8.count > 15 else { return string }
        if strings.count >= limit { return strings.firstIndex(of: string).map { strings[$0] } ?? string }
        return strings.insert(string).memberAfterInsert
    }

    public mutating func intern(_ string: String?) -> String? {
        string.map { intern($0) }
    }
}
