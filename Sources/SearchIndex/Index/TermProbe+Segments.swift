extension TermProbe {
    /// A term's prefixes as disjoint segments of ordered node indices
    /// (`TokenTrie+Order`), each with the least code of the prefixes over
    /// it, for a probe with several prefixes (a term with typos):
    ///
    /// ```
    ///  prefixes   "stonil" 1204..<1210 code 12      "stoni" 1203..<1212 code 4
    ///  segments   [1203, 1212) code 4               (the inner range's code is no better)
    ///  filter     a bit per run of 2^shift indices that a segment touches
    /// ```
    ///
    /// A token at an ordered node: a bit of the filter (most are turned
    /// away there), then a binary search. A token at a node made since the
    /// order: its path up, looked up among the prefix nodes.
    final class Segments: Sendable {
        let starts: [UInt32]
        let ends: [UInt32]
        let codes: [UInt8]
        let filter: [UInt64]
        let shift: UInt32
        /// The prefix nodes in ascending order, with their codes.
        let prefixNodes: [Int32]
        let prefixNodeCodes: [UInt8]

        /// The segments of `prefixes`, given in ascending order of node.
        /// Two nodes' ranges are nested or apart (a subtree holds all of
        /// another or none of it), so one pass in order of start, the
        /// enclosing ranges on a stack, merges them.
        init(prefixes: [(node: Int32, code: UInt8)], trie: TokenTrie) {
            assert(zip(prefixes, prefixes.dropFirst()).allSatisfy { $0.node < $1.node }, "prefixes in node order")
            // Every array sized once: grown an append at a time, they would
            // each allocate several times a typo keystroke.
            var ranges: [(low: UInt32, high: UInt32, code: UInt8)] = []
            ranges.reserveCapacity(prefixes.count)
            for prefix in prefixes {
                let range = trie.orderedRange(of: prefix.node)
                if range.low < range.high { ranges.append((range.low, range.high, prefix.code)) }
            }
            // Outer before inner at the same start; the lesser code first.
            ranges.sort { ($0.low, ~$0.high, $0.code) < ($1.low, ~$1.high, $1.code) }
            var starts: [UInt32] = [], ends: [UInt32] = [], codes: [UInt8] = []
            var open: [(high: UInt32, code: UInt8)] = []
            // A segment starts at a range's start or end: at most twice as many.
            starts.reserveCapacity(2 * ranges.count)
            ends.reserveCapacity(2 * ranges.count)
            codes.reserveCapacity(2 * ranges.count)
            open.reserveCapacity(ranges.count)
            var cursor: UInt32 = 0
            func emit(upTo end: UInt32, _ code: UInt8) {
                defer { cursor = Swift.max(cursor, end) }
                guard cursor < end else { return }
                if ends.last == cursor, codes.last == code {
                    ends[ends.count - 1] = end
                } else {
                    starts.append(cursor)
                    ends.append(end)
                    codes.append(code)
                }
            }
            for range in ranges {
                while let top = open.last, top.high <= range.low {
                    emit(upTo: top.high, top.code)
                    open.removeLast()
                }
                if let top = open.last { emit(upTo: range.low, top.code) }
                cursor = range.low
                open.append((range.high, Swift.min(range.code, open.last?.code ?? TermProbe.miss)))
            }
            while let top = open.popLast() { emit(upTo: top.high, top.code) }
            // About 8,192 runs at most: a kilobyte of filter.
            let limit = UInt32(Swift.max(trie.orderedLimit, 1))
            let shift = UInt32(Swift.max(0, 32 - (limit - 1).leadingZeroBitCount - 13))
            var filter = [UInt64](repeating: 0, count: Int((limit - 1) >> shift) / 64 + 1)
            for (start, end) in zip(starts, ends) {
                for run in (start >> shift)...((end - 1) >> shift) { filter[Int(run >> 6)] |= 1 << UInt64(run & 63) }
            }
            (self.starts, self.ends, self.codes, self.filter, self.shift) = (starts, ends, codes, filter, shift)
            prefixNodes = prefixes.map(\.node)
            prefixNodeCodes = prefixes.map(\.code)
        }

        /// The code of the segment holding the ordered index `index`, or `miss`.
        @inline(__always)
        func code(of index: UInt32) -> UInt8 {
            let run = index >> shift
            return filter.withUnsafeBufferPointer { filter in
                guard filter[Int(run >> 6)] & (1 << UInt64(run & 63)) != 0 else { return TermProbe.miss }
                return starts.withUnsafeBufferPointer { starts in
                    // The last segment starting at or before `index`.
                    var low = 0, high = starts.count
                    while low < high {
                        let middle = (low + high) / 2
                        if starts[middle] <= index { low = middle + 1 } else { high = middle }
                    }
                    guard low > 0, index < ends[low - 1] else { return TermProbe.miss }
                    return codes[low - 1]
                }
            }
        }

        /// The least code of the prefixes on the path up from `node`, a node
        /// made since the trie was put in order, or `miss`.
        func unorderedCode(ofNode node: Int32, trie: TokenTrie) -> UInt8 {
            var best = TermProbe.miss
            var current = node
            while current > TokenTrie.root {
                var low = 0, high = prefixNodes.count
                while low < high {
                    let middle = (low + high) / 2
                    if prefixNodes[middle] < current { low = middle + 1 } else { high = middle }
                }
                if low < prefixNodes.count, prefixNodes[low] == current { best = Swift.min(best, prefixNodeCodes[low]) }
                current = trie.parent(of: current)
            }
            return best
        }
    }
}
