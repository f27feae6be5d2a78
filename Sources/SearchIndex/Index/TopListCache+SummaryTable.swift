import SearchSupport

extension TopListCache {
    /// The summaries by node: positions in a hash table, the summaries
    /// themselves side by side in one array.
    ///
    /// ```
    ///  positions  [node 812: 0, node 77: 2, node 5: 1]     hashed (`HashBuckets`), 8 bytes a bucket
    ///  entries    [summary of 812, of 5, of 77]            128 bytes each, in no order
    ///  nodes      [812, 5, 77]                             entries' nodes, for removal
    /// ```
    ///
    /// Why not a dictionary of summaries: a one-item insert in a large
    /// index passes through dozens of listed nodes, and each would wait on its
    /// summary's lines, one miss after another, under the dictionary's
    /// accessors. Here a change finds its positions first and reads every
    /// summary it will change through one buffer, so the misses overlap
    /// (`TopListCache.update`). The positions are `HashBuckets` keyed by
    /// a bijection of the node, so a bucket's hash bits are its key: a
    /// lookup reads one bucket, not a seeded hash and keys apart from values.
    struct SummaryTable {
        private var positions = HashBuckets()
        private(set) var entries: [Summary] = []
        private var nodes: [Int32] = []

        init() {}

        init(minimumCapacity: Int) {
            positions.reserve(for: minimumCapacity)
            entries.reserveCapacity(minimumCapacity)
            nodes.reserveCapacity(minimumCapacity)
        }

        var isEmpty: Bool { entries.isEmpty }

        var keys: [Int32] { nodes }

        /// Where the node's summary is in `entries`.
        func position(of node: Int32) -> Int? {
            guard case .found(_, let position) = probe(node) else { return nil }
            return Int(position)
        }

        /// A multiplication by an odd number: one node, one hash, and the
        /// bits spread over the table (nodes of a path are near each other).
        private static func hash(_ node: Int32) -> UInt32 { UInt32(bitPattern: node) &* 0x9E37_79B1 }

        private func probe(_ node: Int32) -> HashBuckets.Probe {
            positions.probe(hash: Self.hash(node)) { _ in true }
        }

        subscript(node: Int32) -> Summary? {
            guard let position = position(of: node) else { return nil }
            return entries[position]
        }

        /// The node's summary, or `initial` for a node without one (added when set).
        subscript(node: Int32, default initial: @autoclosure () -> Summary) -> Summary {
            get { self[node] ?? initial() }
            set { set(newValue, for: node) }
        }

        /// Makes `summary` the node's, in place of the one it has or as a new entry.
        mutating func set(_ summary: Summary, for node: Int32) {
            if let position = position(of: node) {
                entries[position] = summary
                return
            }
            positions.reserve(for: entries.count + 1)
            guard case .vacant(let bucket) = probe(node) else { preconditionFailure("node \(node) found after a miss") }
            positions.fill(bucket, hash: Self.hash(node), value: UInt32(entries.count))
            entries.append(summary)
            nodes.append(node)
        }

        /// Drops the node's summary: the last entry moves into its place.
        mutating func remove(_ node: Int32) {
            guard case .found(let bucket, let found) = probe(node) else { return }
            positions.empty(bucket)
            let (position, last) = (Int(found), entries.count - 1)
            if position != last {
                entries.swapAt(position, last)
                nodes.swapAt(position, last)
                guard case .found(let moved, _) = probe(nodes[position]) else { preconditionFailure("summary table lost node \(nodes[position])") }
                positions.replace(moved, hash: Self.hash(nodes[position]), value: UInt32(position))
            }
            entries.removeLast()
            nodes.removeLast()
        }

        /// Calls `body` with the entries to change in place.
        mutating func withEntries<R>(_ body: (UnsafeMutableBufferPointer<Summary>) throws -> R) rethrows -> R {
            try entries.withUnsafeMutableBufferPointer { try body($0) }
        }

        func compactMapValues<T>(_ transform: (Summary) throws -> T?) rethrows -> [Int32: T] {
            var mapped: [Int32: T] = [:]
            for (node, summary) in zip(nodes, entries) {
                if let value = try transform(summary) { mapped[node] = value }
            }
            return mapped
        }

        func compactMap<T>(_ transform: (Int32, Summary) throws -> T?) rethrows -> [T] {
            try zip(nodes, entries).compactMap { try transform($0, $1) }
        }
    }
}
