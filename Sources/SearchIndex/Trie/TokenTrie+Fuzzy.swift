/// Typo-tolerant lookup, done by walking the trie with a bounded
/// Damerau–Levenshtein row per node (an adjacent swap counts as one edit),
/// never by scanning the vocabulary: a branch is abandoned as soon as every
/// cell of its row exceeds the bound.
extension TokenTrie {
    /// How a query term reaches the trie.
    struct TermMatches: Sendable {
        /// Nodes whose path is within `typos` edits of the whole term: every
        /// token below them matches the term as a prefix with that many typos.
        var prefix: [Int32: Int]
        /// Nodes that end a token within `typos` edits of the whole term.
        var whole: [Int32: Int]

        /// Postings reachable through the prefix matches (an upper bound on matches).
        func estimatedPostings(in trie: TokenTrie) -> Int {
            prefix.keys.reduce(0) { $0 + trie[$1].subtreeCount }
        }
    }

    /// Typos a term of `length` characters may carry (SPEC 2).
    static func allowedTypos(forLength length: Int) -> Int {
        length >= 9 ? 2 : (length >= 5 ? 1 : 0)
    }

    /// Every node a term reaches, exactly or within its typo bound.
    func matches(for term: String) -> TermMatches {
        let pattern = term.unicodeScalars.map(\.value)
        // Numbers (phones, years, ids) are matched exactly: a typo there finds someone else.
        let isNumber = pattern.allSatisfy { $0 >= 48 && $0 <= 57 }
        let bound = isNumber ? 0 : Self.allowedTypos(forLength: pattern.count)
        var result = TermMatches(prefix: [:], whole: [:])
        if bound == 0 {
            if let node = find(term) {
                result.prefix[node] = 0
                if !nodes[Int(node)].postings.isEmpty { result.whole[node] = 0 }
            }
            return result
        }
        // One row per depth, reused by every branch: a branch at depth d
        // only reads the rows above it, which its ancestors wrote.
        // The buffer grows with the deepest branch walked (a row's minimum is
        // at least depth − pattern length, so that is at most the pattern
        // length plus the bound, plus one), never with the pattern alone:
        // a long pasted query stays linear.
        let width = pattern.count + 1
        var rows = [Int](repeating: 0, count: 8 * width)
        for j in 0...pattern.count { rows[j] = j }
        pattern.withUnsafeBufferPointer { pattern in
            for child in nodes[Int(Self.root)].children {
                walk(child.node, depth: 1, pattern: pattern, bound: bound, rows: &rows,
                     previousScalar: nil, bestOnPath: Int.max, into: &result)
            }
        }
        return result
    }

    private func walk(
        _ node: Int32, depth: Int, pattern: UnsafeBufferPointer<UInt32>, bound: Int,
        rows: inout [Int], previousScalar: UInt32?, bestOnPath: Int,
        into result: inout TermMatches
    ) {
        let width = pattern.count + 1
        let row = depth * width, above = row - width, twoAbove = above - width
        let scalar = nodes[Int(node)].scalar
        rows[row] = rows[above] + 1
        var rowMin = rows[row]
        for j in 1...pattern.count {
            let cost = pattern[j - 1] == scalar ? 0 : 1
            var value = min(rows[above + j] + 1, rows[row + j - 1] + 1, rows[above + j - 1] + cost)
            if j > 1, depth > 1, let previousScalar, pattern[j - 1] == previousScalar, pattern[j - 2] == scalar {
                value = min(value, rows[twoAbove + j - 2] + 1)
            }
            rows[row + j] = value
            rowMin = min(rowMin, value)
        }
        let distance = rows[row + pattern.count]
        var best = bestOnPath
        if distance <= bound {
            if distance < best {
                result.prefix[node] = distance
                best = distance
            }
            if !nodes[Int(node)].postings.isEmpty {
                result.whole[node] = distance
            }
        }
        // Below a node that matched with no typo nothing can match better;
        // elsewhere a row's minimum never decreases going down.
        if best == 0 || rowMin > min(bound, best) { return }
        if rows.count < (depth + 2) * width { rows.append(contentsOf: repeatElement(0, count: rows.count)) }
        for child in nodes[Int(node)].children {
            walk(child.node, depth: depth + 1, pattern: pattern, bound: bound, rows: &rows,
                 previousScalar: scalar, bestOnPath: best, into: &result)
        }
    }
}
