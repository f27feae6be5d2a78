import Foundation
import SearchSupport

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

    /// Every node a term reaches, exactly or within its typo bound. A
    /// prefix that matches inside an edge is recorded at the node below
    /// it, whose subtree holds exactly the tokens that start with it.
    func matches(for term: String) -> TermMatches {
        matches(for: term, narrowing: nil)
    }

    /// `matches(for:)` of `term`, given (when `shorter` is not nil) the
    /// matches of a term it extends with the same typo bound.
    ///
    /// Typing "sonmiford", "sonmifordr", "sonmifordre" need not walk the
    /// trie anew at every keystroke: a token that matches the longer term matches the shorter one
    /// too, by no deeper a prefix (drop the last character from the
    /// alignment: a deleted one costs nothing more, a matched, substituted
    /// or swapped one leaves the rest of the token's prefix within the
    /// same edits). So the longer term's matches all lie in the subtrees of
    /// the shorter one's topmost matched nodes, and nothing above them
    /// matches: the walk goes down each path to such a node (rows along
    /// it, no branching) and branches only below it. It computes the same
    /// rows on the same paths as a whole walk, so it answers the same.
    ///
    /// `passingOver` false walks every child a row (for tests: see `walk`).
    func matches(
        for term: String, narrowing shorter: TermMatches?, splittingFrom splitMinimum: Int = EngineTuning.splitWalkMinimumNodes,
        passingOver: Bool = true
    ) -> TermMatches {
        Self.withScalars(of: term) { pattern in
            // Numbers (phones, years, ids) are matched exactly: a typo there finds someone else.
            let isNumber = pattern.allSatisfy { $0 >= 48 && $0 <= 57 }
            let bound = isNumber ? 0 : Self.allowedTypos(forLength: pattern.count)
            var result = TermMatches(prefix: [:], whole: [:])
            if bound == 0 {
                if let node = locus(of: pattern) {
                    result.prefix[node] = 0
                    if Int(nodes[Int(node)].depth) == pattern.count, !nodes[Int(node)].postingList.isEmpty {
                        result.whole[node] = 0
                    }
                }
                return result
            }
            // One row per depth (per scalar of the path), reused by every
            // branch: a branch at depth d only reads the rows above it,
            // which its ancestors wrote.
            // The buffer grows with the deepest branch walked (a row's minimum is
            // at least depth − pattern length, so that is at most the pattern
            // length plus the bound, plus one), never with the pattern alone:
            // a long pasted query stays linear.
            let width = pattern.count + 1
            var rows = [Int](repeating: 0, count: 8 * width)
            for j in 0...pattern.count { rows[j] = j }
            labels.withReader { labels in
                guard let shorter else {
                    let firsts = Array(children(of: Self.root))
                    guard nodes.count >= splitMinimum, firsts.count > 1 else {
                        for first in firsts {
                            walk(first, depth: 0, pattern: pattern, labels: labels, bound: bound, rows: &rows,
                                 previousScalar: nil, bestOnPath: Int.max, passingOver: passingOver, into: &result)
                        }
                        return
                    }
                    result = splitWalk(
                        firsts, pattern: pattern, labels: labels, bound: bound, rows: rows, passingOver: passingOver)
                    return
                }
                // One path buffer for every top node: grown afresh for each,
                // it would be an allocation or more a node.
                var path: [Int32] = []
                path.reserveCapacity(pattern.count + bound + 1)
                for top in topmost(of: shorter.prefix) {
                    path.removeAll(keepingCapacity: true)
                    var node = top
                    while node != Self.root {
                        path.append(node)
                        node = nodes[Int(node)].parent
                    }
                    path.reverse()
                    walk(Child(scalar: nodes[Int(path[0])].scalar, node: path[0]), depth: 0, pattern: pattern,
                         labels: labels, bound: bound, rows: &rows, previousScalar: nil, bestOnPath: Int.max,
                         passingOver: passingOver, into: &result, path: path.dropFirst())
                }
            }
            return result
        }
    }

    /// A whole walk on two threads at once, each below half of the root's
    /// children (the largest subtrees dealt out in turn), each with rows
    /// of its own; the halves' matches are apart, and joined after.
    ///
    /// A term of nine letters is the first with two typos: nothing walked
    /// for the keystroke before narrows its walk, which visits a large
    /// part of the trie, a cache miss or two a node.
    private func splitWalk(
        _ firsts: [Child], pattern: UnsafeBufferPointer<UInt32>, labels: LabelPool.Reader,
        bound: Int, rows: [Int], passingOver: Bool
    ) -> TermMatches {
        var halves: [[Child]] = [[], []]
        var loads = [0, 0]
        // Each child's load read once: read in the comparison, a child's
        // node would be a cache miss for every comparison it took part in.
        let weighted = firsts.map { (child: $0, load: nodes[Int($0.node)].subtreeCount) }
        for (first, load) in weighted.sorted(by: { $0.load > $1.load }) {
            let half = loads[0] <= loads[1] ? 0 : 1
            halves[half].append(first)
            loads[half] += load
        }
        var parts = [TermMatches](repeating: TermMatches(prefix: [:], whole: [:]), count: 2)
        parts.withUnsafeMutableBufferPointer { parts in
            nonisolated(unsafe) let (out, pattern, labels) = (parts, pattern, labels)
            let halves = halves
            func walkHalf(_ half: Int) {
                var rows = rows
                var part = TermMatches(prefix: [:], whole: [:])
                for first in halves[half] {
                    walk(first, depth: 0, pattern: pattern, labels: labels, bound: bound, rows: &rows,
                         previousScalar: nil, bestOnPath: Int.max, passingOver: passingOver, into: &part)
                }
                out[half] = part
            }
            ParallelWork.both({ walkHalf(0) }, { walkHalf(1) })
        }
        var result = parts[0]
        result.prefix.merge(parts[1].prefix) { a, _ in a }
        result.whole.merge(parts[1].whole) { a, _ in a }
        return result
    }

    /// Walks the edge into `child` a scalar (a row) at a time, then its
    /// children; `depth` is the parent's.
    ///
    /// The edge's first scalar is the child's entry in its parent's list,
    /// already read: most children a walk meets end at their first row
    /// (past the third letter of a long term with two typos), and those are
    /// never read themselves, where reading each would be a cache miss.
    private func walk(
        _ child: Child, depth: Int, pattern: UnsafeBufferPointer<UInt32>, labels: LabelPool.Reader,
        bound: Int, rows: inout [Int], previousScalar: UInt32?, bestOnPath: Int, passingOver: Bool,
        into result: inout TermMatches, path: ArraySlice<Int32> = []
    ) {
        let node = child.node
        // Read from the node once the first row does not end the walk.
        var start = 0, count = 1
        var nodeRead = false
        var best = bestOnPath
        var recorded = false
        var previous = previousScalar
        var step = 0
        while step < count {
            let scalar = step == 0 ? child.scalar : labels[start + step]
            let (rowMin, distance) = Self.fillRow(
                &rows, rowDepth: depth + step + 1, scalar: scalar, previous: previous, pattern: pattern, bound: bound)
            if distance <= bound, distance < best {
                best = distance
                recorded = true
            }
            // Below a prefix that matched with no typo nothing can match
            // better; elsewhere a row's minimum never decreases going down.
            let ends = best == 0 || rowMin > min(bound, best)
            if !nodeRead, distance <= bound || !ends {
                start = Int(nodes[Int(node)].labelStart)
                count = Int(nodes[Int(node)].labelCount)
                nodeRead = true
            }
            if step == count - 1, distance <= bound, !nodes[Int(node)].postingList.isEmpty {
                result.whole[node] = distance
            }
            if ends {
                if recorded { result.prefix[node] = best }
                return
            }
            previous = scalar
            step += 1
        }
        if recorded { result.prefix[node] = best }
        // On a path to a narrowed walk's root, only the next node of it.
        if let next = path.first {
            walk(Child(scalar: nodes[Int(next)].scalar, node: next), depth: depth + count, pattern: pattern,
                 labels: labels, bound: bound, rows: &rows, previousScalar: previous, bestOnPath: best,
                 passingOver: passingOver, into: &result, path: path.dropFirst())
            return
        }
        let children = children(of: node)
        // Most children end the walk at their first row. A child whose
        // scalar is none of the pattern's in reach of that row gets the
        // same row as any other such child (every cell a mismatch, no
        // swap); when that row ends the walk and matches nothing, only
        // the children with a scalar in reach need walking.
        let childDepth = depth + count
        if passingOver, children.count > 1,
           mismatchRowEnds(rows: rows, rowDepth: childDepth + 1, pattern: pattern, bound: bound, best: best) {
            let inReach = ScalarsInReach(pattern: pattern, rowDepth: childDepth + 1, bound: bound)
            for child in children where inReach.contains(child.scalar) {
                walk(child, depth: childDepth, pattern: pattern, labels: labels, bound: bound, rows: &rows,
                     previousScalar: previous, bestOnPath: best, passingOver: passingOver, into: &result)
            }
            return
        }
        for child in children {
            walk(child, depth: childDepth, pattern: pattern, labels: labels, bound: bound, rows: &rows,
                 previousScalar: previous, bestOnPath: best, passingOver: passingOver, into: &result)
        }
    }

    /// Fills the edit-distance row at `rowDepth` for `scalar` (after
    /// `previous`, for swaps); returns the row's least value and the whole
    /// pattern's distance.
    ///
    /// Only the band of cells |rowDepth − j| ≤ bound can be within the
    /// bound (each off-diagonal step is an edit); the cell on each side of
    /// the band holds `outside`, which is all a neighbour needs to know of
    /// it (a value built on it stays above the bound). An empty band (the
    /// path is more than `bound` longer than the pattern) gives `outside`
    /// for both, which ends the walk.
    @inline(__always)
    private static func fillRow(
        _ rows: inout [Int], rowDepth: Int, scalar: UInt32, previous: UInt32?, pattern: UnsafeBufferPointer<UInt32>, bound: Int
    ) -> (rowMin: Int, distance: Int) {
        let width = pattern.count + 1
        let outside = bound + 1
        if rows.count < (rowDepth + 1) * width { rows.append(contentsOf: repeatElement(0, count: rows.count)) }
        let row = rowDepth * width, above = row - width, twoAbove = above - width
        let (low, high) = band(rowDepth: rowDepth, bound: bound, patternLength: pattern.count)
        // Written through a view of the buffer: indexed as an inout array,
        // every cell would pay a uniqueness and a bounds check, in one of a
        // keystroke's hottest loops.
        return rows.withUnsafeMutableBufferPointer { rows -> (Int, Int) in
            rows[row] = rowDepth
            if low > 1 { rows[row + low - 1] = outside }
            if high < pattern.count { rows[row + high + 1] = outside }
            var rowMin = low == 1 ? rowDepth : outside
            if low <= high {
                for j in low...high {
                    let cost = pattern[j - 1] == scalar ? 0 : 1
                    var value = min(rows[above + j] + 1, rows[row + j - 1] + 1, rows[above + j - 1] + cost)
                    if j > 1, rowDepth > 1, let previous, pattern[j - 1] == previous, pattern[j - 2] == scalar {
                        value = min(value, rows[twoAbove + j - 2] + 1)
                    }
                    rows[row + j] = value
                    rowMin = min(rowMin, value)
                }
            }
            return (rowMin, low <= high && high == pattern.count ? rows[row + pattern.count] : outside)
        }
    }

    /// Whether the row at `rowDepth` of a scalar that matches no pattern
    /// scalar in the row's band (`ScalarsInReach`) ends the walk there and
    /// records nothing: what `walk` decides of its first row for such a
    /// child, computed once for all of them from the row above.
    private func mismatchRowEnds(
        rows: [Int], rowDepth: Int, pattern: UnsafeBufferPointer<UInt32>, bound: Int, best: Int
    ) -> Bool {
        let width = pattern.count + 1
        let outside = bound + 1
        let (low, high) = Self.band(rowDepth: rowDepth, bound: bound, patternLength: pattern.count)
        assert(rows.count >= rowDepth * width, "the row above was written")
        return rows.withUnsafeBufferPointer { rows in
            let above = (rowDepth - 1) * width
            var rowMin = low == 1 ? rowDepth : outside
            var left = low == 1 ? rowDepth : outside
            var distance = outside
            if low <= high {
                for j in low...high {
                    let value = min(rows[above + j] + 1, left + 1, rows[above + j - 1] + 1)
                    left = value
                    rowMin = min(rowMin, value)
                    if j == pattern.count { distance = value }
                }
            }
            return distance > bound && rowMin > min(bound, best)
        }
    }

    /// The cells `low...high` of the row at `rowDepth` that can be within
    /// `bound` (|rowDepth − j| ≤ bound: each step off the diagonal is an
    /// edit); empty (`low > high`) once the path is more than `bound`
    /// longer than the pattern.
    @inline(__always)
    static func band(rowDepth: Int, bound: Int, patternLength: Int) -> (low: Int, high: Int) {
        (max(1, rowDepth - bound), min(patternLength, rowDepth + bound))
    }

    /// The pattern scalars a row at `rowDepth` compares a path scalar
    /// with: those of its band's cells (`pattern[j − 1]`) and of their
    /// swaps (`pattern[j − 2]`). A scalar outside them costs a mismatch in
    /// every cell and swaps with nothing. None for an empty band.
    struct ScalarsInReach {
        private let range: Range<Int>
        private let pattern: UnsafeBufferPointer<UInt32>
        /// Bit `scalar % 64` of each scalar in reach: most others are told apart by it alone.
        private let filter: UInt64

        init(pattern: UnsafeBufferPointer<UInt32>, rowDepth: Int, bound: Int) {
            let (low, high) = TokenTrie.band(rowDepth: rowDepth, bound: bound, patternLength: pattern.count)
            range = low <= high ? max(0, low - 2)..<high : 0..<0
            self.pattern = pattern
            filter = range.reduce(0) { $0 | 1 << UInt64(pattern[$1] & 63) }
        }

        @inline(__always) func contains(_ scalar: UInt32) -> Bool {
            guard filter & (1 << UInt64(scalar & 63)) != 0 else { return false }
            for index in range where pattern[index] == scalar { return true }
            return false
        }
    }
}
