import SearchSupport

/// Posting lists filled once at the end of a bulk build, from the arena:
/// chunk by chunk, each list would be read twice a chunk and grown by
/// doubling. Here each list's length is known first (one allocation), and
/// both cores place postings, a half of the slots each (the second half's
/// after the first's in each list).
///
/// ```
///  arena, by slot       counts by node, each half     lists
///  slot 7: n2 n5        n2: 1 + 1                     n2: [7 | 9]
///  slot 9: n2 n4        n4: 0 + 1, n5: 1 + 0          n4: [9]   n5: [7]
/// ```
extension TokenTrie {
    /// Appends to their nodes' lists the postings of `slots`' tokens in `arena`
    /// (in the order of `slots`), and sets each token's place in its word; the
    /// tokens went in with `insertPostings(listing: false)`, counted, not listed.
    mutating func appendPostings(ofSlots slots: [UInt32], in arena: inout TokenArena) {
        guard !slots.isEmpty else { return }
        ownPostings()
        let nodeCount = nodes.count
        arena.withWords(ofSlots: slots) { words, spans in
            let middle = slots.count / 2
            var (low, high) = ([UInt32](repeating: 0, count: nodeCount), [UInt32](repeating: 0, count: nodeCount))
            ParallelWork.both(
                { Self.count(words, spans[..<middle], into: &low) }, { Self.count(words, spans[middle...], into: &high) })
            // Each list's element 0; `low` and `high` become where each half goes next in it.
            var bases = [UnsafeMutablePointer<Posting>?](repeating: nil, count: nodeCount)
            var singles: [Int] = []
            let singlesBuffer = UnsafeMutablePointer<Posting>.allocate(capacity: nodeCount)
            defer { singlesBuffer.deallocate() }
            for node in 0..<nodeCount where low[node] + high[node] > 0 {
                let count = nodes[node].postingList.count
                let added = Int(low[node] + high[node])
                (low[node], high[node]) = (UInt32(count), UInt32(count) + low[node])
                if count + added == 1 {
                    // A list of one stays in its node (`FlatColumn`): its posting waits here.
                    bases[node] = singlesBuffer + singles.count
                    singles.append(node)
                } else {
                    let room = Node.fittedCapacity(count + added) - count - added
                    bases[node] = nodes[node].postingList.appendUninitialized(added, room: room) - count
                }
            }
            ParallelWork.both(
                { Self.place(words, spans[..<middle], slots[..<middle], bases, at: &low) },
                { Self.place(words, spans[middle...], slots[middle...], bases, at: &high) })
            for (index, node) in singles.enumerated() { nodes[node].postingList.append(singlesBuffer[index]) }
        }
    }

    /// Adds to `added` each token of `spans` at its node.
    private static func count(_ words: UnsafeMutablePointer<UInt32>, _ spans: ArraySlice<Range<Int>>, into added: inout [UInt32]) {
        added.withUnsafeMutableBufferPointer { added in
            for span in spans {
                for index in span { added[Int(TokenArena.node(of: words[index]))] += 1 }
            }
        }
    }

    /// Writes each token's posting at its node's next position in
    /// `positions` (from `bases`), and that position in its word.
    private static func place(
        _ words: UnsafeMutablePointer<UInt32>, _ spans: ArraySlice<Range<Int>>, _ slots: ArraySlice<UInt32>,
        _ bases: [UnsafeMutablePointer<Posting>?], at positions: inout [UInt32]
    ) {
        positions.withUnsafeMutableBufferPointer { positions in
            bases.withUnsafeBufferPointer { bases in
                for (slot, span) in zip(slots, spans) {
                    for index in span {
                        let word = words[index], node = Int(TokenArena.node(of: word))
                        let position = positions[node]
                        (bases[node].unsafelyUnwrapped + Int(position)).initialize(to: Posting(doc: slot, field: TokenArena.field(of: word)))
                        words[index] = TokenArena.word(word, placedAt: position)
                        positions[node] = position + 1
                    }
                }
            }
        }
    }
}
