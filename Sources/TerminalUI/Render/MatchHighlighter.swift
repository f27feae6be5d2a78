import SearchIndex

/// Which characters of a shown text the query matched, for fields other
/// than the title (whose highlights the engine gives): a word that is one
/// of the result's matched tokens (typo matches included) is highlighted
/// whole, and a word a query term begins has that beginning highlighted.
/// Words are compared folded, as the index compares them.
struct MatchHighlighter {
    let tokens: Set<String>
    let terms: [String]

    /// `terms` as `terms(of:)` gives them.
    init(tokens: Set<String>, terms: [String]) {
        self.tokens = tokens
        self.terms = terms
    }

    /// The terms of a typed query, filter words left out.
    static func terms(of query: String) -> [String] {
        Tokenizer.queryTerms(QueryFilters.parseLeniently(query).text)
    }

    var isEmpty: Bool { tokens.isEmpty && terms.isEmpty }

    /// Character offsets of `text` to highlight.
    func offsets(in text: String) -> Set<Int> {
        guard !isEmpty else { return [] }
        let characters = Array(text)
        var marked = Set<Int>()
        var start = 0
        while start < characters.count {
            guard characters[start].isLetter || characters[start].isNumber else {
                start += 1
                continue
            }
            var end = start
            while end < characters.count, characters[end].isLetter || characters[end].isNumber { end += 1 }
            mark(Array(characters[start..<end]), at: start, into: &marked)
            start = end
        }
        return marked
    }

    private func mark(_ word: [Character], at start: Int, into marked: inout Set<Int>) {
        let folded = word.map { TextNormalizer.normalize(String($0)) }
        let whole = folded.joined()
        if tokens.contains(whole) {
            marked.formUnion(start..<(start + word.count))
            return
        }
        for term in terms {
            let termCharacters = Array(term)
            // Each character folds on its own, so positions line up.
            guard let first = termCharacters.first, termCharacters.count <= folded.count else { continue }
            let isCJK = first.unicodeScalars.first.map(TextNormalizer.isCJK) ?? false
            let starts = isCJK ? Array(0...(folded.count - termCharacters.count)) : [0]
            for offset in starts where zip(folded[offset...], termCharacters).allSatisfy({ $0 == String($1) }) {
                marked.formUnion((start + offset)..<(start + offset + termCharacters.count))
            }
        }
    }
}
