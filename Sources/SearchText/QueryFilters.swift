import SearchModel

/// Filters written in a query, Spotlight style: `kind:photo aurora`,
/// `domain:com.example.tv`, `source:activity`. They restrict without
/// ranking; any other word, colon or not (a URL, a time), is text.
public struct QueryFilters: Sendable, Hashable {
    /// Content types (UTIs) a result may have; empty means any.
    public var contentTypes: [String] = []
    /// Domains a result may lie in, hierarchically; empty means any.
    public var domains: [String] = []
    /// Sources of which a result must have one; empty means any.
    public var sources: [Source] = []

    public init() {}

    @inlinable public var isEmpty: Bool { contentTypes.isEmpty && domains.isEmpty && sources.isEmpty }

    /// A filter word whose value is not known, in words for the user.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var word: String
        public var known: String
        public var description: String { "unknown filter \(word) (\(known))" }
    }

    /// The names `kind:` knows, and the content types each stands for.
    public static let kinds: [(names: [String], contentType: String)] = [
        (["contact", "person"], "public.contact"),
        (["image", "photo"], "public.image"),
        (["movie", "show"], "public.movie"),
        (["folder", "album"], "public.folder"),
        (["item"], "public.item"),
    ]

    /// Splits `text` into its filters and the words left to search.
    public static func parse(_ text: String) throws(Problem) -> (filters: QueryFilters, text: String) {
        var filters = QueryFilters()
        var words: [Substring] = []
        for word in text.split(whereSeparator: \.isWhitespace) {
            guard let colon = word.firstIndex(of: ":") else {
                words.append(word)
                continue
            }
            let key = word[..<colon].lowercased(), value = String(word[word.index(after: colon)...])
            switch key {
            case "kind": filters.contentTypes.append(try contentType(named: value, in: word))
            case "domain":
                guard !value.isEmpty else { throw Problem(word: String(word), known: "domain:NAME, e.g. domain:com.example.tv") }
                filters.domains.append(value)
            case "source":
                guard let source = Source(rawValue: value.lowercased()) else {
                    throw Problem(word: String(word), known: "source: item, activity or web")
                }
                filters.sources.append(source)
            default: words.append(word)
            }
        }
        // The words kept as typed, spaces included, when nothing was taken out.
        let rest = words.count == text.split(whereSeparator: \.isWhitespace).count ? text : words.joined(separator: " ")
        return (filters, rest)
    }

    /// Why `text`'s filters are refused, in words for the user; nil when
    /// they all parse.
    public static func problem(with text: String) -> String? {
        do throws(Problem) {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    /// As `parse`, leaving out the filter words it does not know: for a
    /// query still being typed (`kind:pho` on its way to `kind:photo`).
    public static func parseLeniently(_ text: String) -> (filters: QueryFilters, text: String) {
        if let parsed = try? parse(text) { return parsed }
        let known = text.split(whereSeparator: \.isWhitespace).filter { (try? parse(String($0))) != nil }
        return (try? parse(known.joined(separator: " "))) ?? (QueryFilters(), text)
    }

    private static func contentType(named value: String, in word: Substring) throws(Problem) -> String {
        let name = value.lowercased()
        if let kind = kinds.first(where: { $0.names.contains(name) }) { return kind.contentType }
        // A UTI names itself (`public.jpeg`, `com.example.recipe`).
        if name.contains("."), !name.hasPrefix("."), !name.hasSuffix(".") { return value }
        let names = kinds.flatMap(\.names).joined(separator: ", ")
        throw Problem(word: String(word), known: "kind: \(names), or a UTI such as public.image")
    }
}
