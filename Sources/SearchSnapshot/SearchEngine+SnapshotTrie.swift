import Foundation
import SearchIndex

/// Reading the trie from a snapshot: its columns where they lie, checked,
/// then each node built from them on every core at once.
extension SearchEngine {
    static func readTrie(from input: inout SnapshotReader) throws(SnapshotError) -> TokenTrie {
        let columns = try TrieColumns(from: &input)
        let starts = try TrieStarts(of: columns)
        let nodes = buildNodes(columns, starts)
        return TokenTrie(
            restoring: nodes, childPool: columns.childPool(starts), labels: LabelPool(scalarsAt: columns.labels.start, count: columns.labels.count),
            freeNodes: columns.freeNodes, stampCounter: columns.stampCounter,
            orderedRanges: zip(columns.orderedLows, columns.orderedHighs).map { TokenTrie.OrderedRange(low: $0, high: $1) },
            orderedLimit: columns.orderedLimit, retiredNodes: columns.retiredNodes)
    }

    /// Every node, built from its columns; posting lists borrowed from the
    /// mapping when they can be (each worker's through an owner of its
    /// own: see `ChunkOwner`).
    private static func buildNodes(_ columns: TrieColumns, _ starts: TrieStarts) -> [TokenTrie.Node] {
        let count = columns.count
        return [TokenTrie.Node](unsafeUninitializedCapacity: SnapshotReader.growingCapacity(count)) { buffer, initialized in
            nonisolated(unsafe) let out = buffer
            let workers = count >= EngineTuning.parallelNodeMinimum ? Self.workerCount : 1
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let lender = columns.lender.map(ChunkOwner.init)
                for index in (count * worker / workers)..<(count * (worker + 1) / workers) {
                    (out.baseAddress! + index).initialize(to: columns.node(index, starts: starts, lender: lender))
                }
            }
            initialized = count
        }
    }
}

/// The trie's columns as a snapshot lays them out, read in place and
/// checked against each other: one entry a node in each but the pools.
private struct TrieColumns: @unchecked Sendable {
    let count: Int
    let parents: SnapshotValues<Int32>
    let scalars: SnapshotValues<UInt32>
    let depths: SnapshotValues<Int32>
    let labelCounts: SnapshotValues<UInt32>
    /// The label pool: every node's label scalars, one after another.
    let labels: SnapshotValues<UInt32>
    let subtreeCounts: SnapshotValues<Int>
    let documentCounts: SnapshotValues<Int>
    let stamps: SnapshotValues<UInt32>
    let childCounts: SnapshotValues<UInt32>
    /// Every node's children, one after another.
    let children: UnsafeRawPointer
    let childTotal: Int
    let postingCounts: SnapshotValues<UInt32>
    /// Every node's postings, one after another, and what keeps them mapped.
    let postings: UnsafeRawPointer
    let postingTotal: Int
    let lender: (AnyObject & Sendable)?
    let orderedLows: SnapshotValues<UInt32>
    let orderedHighs: SnapshotValues<UInt32>
    let freeNodes: [Int32]
    let stampCounter: UInt32
    let orderedLimit: Int32
    let retiredNodes: Int

    init(from input: inout SnapshotReader) throws(SnapshotError) {
        count = try input.readCount()
        parents = try input.readValues()
        scalars = try input.readValues()
        depths = try input.readValues()
        labelCounts = try input.readValues()
        labels = try input.readValues()
        subtreeCounts = try input.readValues()
        documentCounts = try input.readValues()
        stamps = try input.readValues()
        childCounts = try input.readValues()
        (children, childTotal) = try input.readArrayInPlace(of: TokenTrie.Child.self)
        postingCounts = try input.readValues()
        (postings, postingTotal, lender) = try input.readColumnInPlace(of: TokenTrie.Posting.self)
        orderedLows = try input.readValues()
        orderedHighs = try input.readValues()
        freeNodes = try input.readArray()
        stampCounter = try input.read(UInt32.self)
        orderedLimit = try input.read(Int32.self)
        retiredNodes = try input.read(Int.self)
        try check()
    }

    private func check() throws(SnapshotError) {
        guard [parents.count, scalars.count, depths.count, labelCounts.count, subtreeCounts.count, documentCounts.count,
               stamps.count, childCounts.count, postingCounts.count, orderedLows.count, orderedHighs.count]
            .allSatisfy({ $0 == count }), count > 0, count <= TokenArena.nodeLimit else {
            throw SnapshotError(.malformed, "the trie's columns differ in length")
        }
        // A range past the ordered nodes would let a test call a node
        // made later one of them.
        guard orderedLimit >= 1, Int(orderedLimit) <= count, retiredNodes >= 0,
            zip(orderedLows, orderedHighs).allSatisfy({ $0 <= $1 && $1 <= UInt32(orderedLimit) }),
            freeNodes.allSatisfy({ $0 >= orderedLimit && Int($0) < count })
        else {
            throw SnapshotError(.malformed, "the trie's ordered ranges are out of bounds")
        }
        // Nodes keep their counts in 32 bits.
        guard subtreeCounts.allSatisfy({ UInt32(exactly: $0) != nil }),
              documentCounts.allSatisfy({ UInt32(exactly: $0) != nil }) else {
            throw SnapshotError(.malformed, "a trie count is out of range")
        }
    }

    /// Each node's children after its first, in the trie's pool.
    func childPool(_ starts: TrieStarts) -> [TokenTrie.Child] {
        let stride = MemoryLayout<TokenTrie.Child>.stride
        return [TokenTrie.Child](unsafeUninitializedCapacity: starts.more[count]) { pool, initialized in
            for index in 0..<count where childCounts[index] > 1 {
                let more = Int(childCounts[index]) - 1
                UnsafeMutableRawPointer(pool.baseAddress! + starts.more[index])
                    .copyMemory(from: children + (starts.children[index] + 1) * stride, byteCount: more * stride)
            }
            initialized = starts.more[count]
        }
    }

    /// Node `index`, its children and postings read in place.
    func node(_ index: Int, starts: TrieStarts, lender: SearchEngine.ChunkOwner?) -> TokenTrie.Node {
        let childStart = starts.children[index], postingStart = starts.postings[index]
        let postingCount = starts.postings[index + 1] - postingStart
        let postingList = TokenTrie.loadedPostings(
            at: postings + postingStart * MemoryLayout<TokenTrie.Posting>.stride, count: postingCount, lender: lender)
        return TokenTrie.Node(
            parent: parents[index], scalar: scalars[index], depth: depths[index],
            labelStart: UInt32(truncatingIfNeeded: starts.labels[index]), labelCount: labelCounts[index],
            children: children + childStart * MemoryLayout<TokenTrie.Child>.stride,
            childCount: starts.children[index + 1] - childStart, moreStart: starts.more[index],
            postings: postingList,
            subtreeCount: UInt32(truncatingIfNeeded: subtreeCounts[index]),
            documentCount: UInt32(truncatingIfNeeded: documentCounts[index]), stamp: stamps[index])
    }
}

/// Where each node's children, postings, label and pooled children start
/// (one more entry than nodes: the last is the total), checked against
/// the columns before any node is built.
private struct TrieStarts: Sendable {
    let children: [Int]
    let postings: [Int]
    let labels: [Int]
    /// Each node's children after its first, in the trie's pool.
    let more: [Int]

    init(of columns: TrieColumns) throws(SnapshotError) {
        let count = columns.count
        func starts(_ size: (Int) -> Int) -> [Int] {
            [Int](unsafeUninitializedCapacity: count + 1) { starts, initialized in
                var sum = 0
                for index in 0..<count {
                    starts[index] = sum
                    sum += size(index)
                }
                starts[count] = sum
                initialized = count + 1
            }
        }
        children = starts { Int(columns.childCounts[$0]) }
        postings = starts { Int(columns.postingCounts[$0]) }
        labels = starts { Int(columns.labelCounts[$0]) }
        more = starts { max(0, Int(columns.childCounts[$0]) - 1) }
        guard children[count] == columns.childTotal, postings[count] == columns.postingTotal,
            labels[count] == columns.labels.count, columns.labels.count <= Int(UInt32.max)
        else {
            throw SnapshotError(.malformed, "the trie's children, postings or labels do not add up")
        }
    }
}
