import Foundation
import SearchIndex
import SearchSupport

/// Saving the engine as it stands and loading it back without tokenising
/// anything: a new process answers from the saved structures instead of
/// rebuilding them from every record.
///
/// A snapshot is a cache of this build on this machine: values are written
/// in their memory layout, and the header names the format and the sizes of
/// the structures copied whole, so any other build refuses it (and the
/// caller rebuilds from the records). Layout, in order:
///
/// ```
/// header     magic · format · layout sizes · settings
/// sets       every record's attribute set as its packed bytes, documents' records first (one array);
///            empty when the sets lie in a run kept elsewhere (`writeSnapshot(setsIn:)`)
/// records    chunks · (source, item)…           the records no document holds; each set as its place
///                                                in `sets` (there after its record word: `PackedStorage`)
/// activities count · JSON…                      rare: Codable is fast enough
/// views      count · (identifier, [seconds])…
/// documents  chunks · (kind, fields)…           kind 1: the record it holds (source, item), then its own
///                                                content type code and few fields; kind 2: all of its
///                                                fields (its content type as text)
/// slots      free slots · ranks · expirations · engaged flags · exact names (`ExactNames`)
/// trie       node columns · label counts · labels · child counts · children · posting counts · postings (a column)
///            · ordered ranges · free nodes · stamp · ordered limit · retired nodes
/// arena      words (field · place · node) · starts · counts   (columns)
/// best lists count · (node, [entry])… twice (subtree, own)
/// trailer    magic
/// ```
///
/// A column is a count, zeros to a multiple of 16 bytes from the start,
/// and its values: a load from a mapped file uses it where it lies
/// (`FlatColumn`).
///
/// A chunked section is a count of chunks, each a byte length and then its
/// own count and elements, so the chunks are found first and decoded on
/// every core at once.
///
/// What can be derived cheaply is not saved: the identifier → slot map,
/// the expiring slots, and the merge maps (by URL, by related item).
extension SearchEngine {
    static let snapshotMagic: UInt64 = 0x5345_4152_4348_4C54 // "SEARCHLT"
    /// The layout's version: any change to what is written, or how, takes
    /// a new one, and a snapshot of another is rebuilt from the records.
    static let snapshotFormat: UInt32 = 29

    private static var layoutSizes: [UInt32] {
        [MemoryLayout<TokenTrie.Posting>.stride, MemoryLayout<TokenTrie.Child>.stride, MemoryLayout<TopEntry>.stride,
         MemoryLayout<StaticRank>.stride, MemoryLayout<Int>.size, MemoryLayout<Double>.size].map { UInt32($0) }
    }

    /// Where a record's set lies in a run of sets kept outside the
    /// snapshot: the offset of its record word and its byte count.
    public struct SetPlace: Sendable, Equatable {
        public var start: Int
        public var count: Int
        public init(start: Int, count: Int) {
            self.start = start
            self.count = count
        }
    }

    /// Streams a snapshot of the engine to `sink`, in chunks of a few MB.
    ///
    /// With `places`, the sets are not written: each record says where its
    /// set lies in a run kept elsewhere (a store's bodies end to end), and
    /// a load is given that run (`init(snapshot:…sets:)`). Every record's
    /// set must be there, at its canonical length, or nothing is written.
    public func writeSnapshot(setsIn places: [String: SetPlace]? = nil, to sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        var out = SnapshotWriter(sink: sink)
        try writeSnapshotHeader(to: &out)
        let (recordList, slotPositions) = recordsInDocumentOrder()
        let setStarts = try places.map { try Self.setStarts(of: recordList, in: $0, to: &out) } ?? writeSets(of: recordList, to: &out)
        // A record a document says all of is written inside that document,
        // which a load makes from it in one pass (read apart, every such
        // record would be made only to be read again by its document and
        // dropped); the records section has the rest.
        let heldPositions = documents.indices.map { slot in
            heldRecordPosition(of: documents[slot], at: Int(slotPositions[slot]), records: recordList)
        }
        var apart = [Bool](repeating: true, count: recordList.count)
        for case let position? in heldPositions { apart[position] = false }
        try Self.writeChunked(recordList.indices.filter { apart[$0] }, to: &out) { position, chunk in
            try chunk.write(recordList[position], attributesAt: setStarts[position])
        }
        try writeActivitiesAndEngagements(to: &out)
        try Self.writeChunked(Array(documents.indices), to: &out) { slot, chunk in
            let held = heldPositions[slot]
            try self.writeDocument(
                documents[slot], holding: held.map { (recordList[$0], setStarts[$0]) }, to: &chunk)
        }
        try out.write(array: freeDocuments)
        try out.write(array: ranks)
        try out.write(array: expirations)
        try out.write(array: engagedSlots.map { UInt8($0 ? 1 : 0) })
        try out.write(array: exactNames.storedBuckets)

        try writeTrie(to: &out)
        try out.write(column: tokens.words)
        try out.write(column: tokens.starts)
        try out.write(column: tokens.counts)
        try writeTopLists(to: &out)
        try out.write(Self.snapshotMagic)
        try out.flush()
    }

    /// Magic, format, layout sizes and the settings a load keeps.
    private func writeSnapshotHeader(to out: inout SnapshotWriter) throws {
        try out.write(Self.snapshotMagic)
        try out.write(Self.snapshotFormat)
        try out.write(array: Self.layoutSizes)
        try out.write(UInt8(IndexingPreference.allCases.firstIndex(of: preference)!))
        try out.write(topListThreshold)
        try out.write(tuning.scanEnabled)
        try out.write(tuning.sortedGatherLimit)
        try out.write(tuning.parallelScanMinimum)
        try out.write(tuning.fieldMapMinimumDocuments)
        try out.write(tuning.fieldMapQueryMinimumSlots)
    }

    /// Records in the order of their documents, then the rest: the sets of
    /// neighbouring documents lie side by side in the run, where a load
    /// reads them through one window. With each slot's position in that
    /// list: its document's record (the one of its identifier), or -1.
    private func recordsInDocumentOrder() -> (records: [IndexRecord], slotPositions: [Int32]) {
        var recordList: [IndexRecord] = []
        var slotPositions = [Int32](repeating: -1, count: documents.count)
        // The table read once: through the engine's accessor, each read
        // would be a copy of it (a retain of its arrays) for every document.
        let table = recordTable
        recordList.reserveCapacity(documents.count + table.count)
        for slot in documents.indices {
            guard let document = documents[slot] else { continue }
            if let record = document.heldRecord(expiration: expiration(ofSlot: slot)) ?? table[document.uniqueIdentifier] {
                slotPositions[slot] = Int32(recordList.count)
                recordList.append(record)
            }
        }
        // Every held record has its document: the rest are in the table.
        for record in table.values where slot(of: record.item.uniqueIdentifier) == nil {
            recordList.append(record)
        }
        assert(recordList.count == records.count)
        return (recordList, slotPositions)
    }

    /// The run of sets, apart from the rest of each record: a load reads
    /// every record's other fields but no set, and with the sets between
    /// them each read would skip a few hundred bytes, a cache miss a record.
    /// Each set's bytes follow the word a shared record starts with
    /// (`PackedStorage.recordWord`; all ones for a set too large), so that
    /// a load reads them in windows of the run (`PackedStorage.window`).
    /// Returns where each record's set starts in the run.
    private func writeSets(of recordList: [IndexRecord], to out: inout SnapshotWriter) throws -> [Int] {
        let setBytes = recordList.reduce(0) { total, record in
            total + PackedStorage.recordHeaderSize + record.item.attributeSet.packed.canonicalLayout.count
        }
        try out.write(UInt64(setBytes))
        var setStarts: [Int] = []
        setStarts.reserveCapacity(recordList.count)
        var setEnd = 0
        for record in recordList {
            // Canonical: a snapshot keeps no dictionary (a coded set is decoded).
            try record.item.attributeSet.packed.withCanonicalBytesAndTail { bytes, tail in
                try out.write(PackedStorage.recordWord(count: bytes.count, tail: tail) ?? .max)
                try out.write(raw: bytes)
                setStarts.append(setEnd)
                setEnd += PackedStorage.recordHeaderSize + bytes.count
            }
        }
        return setStarts
    }

    /// An empty run of sets, and where each record's set lies in the run
    /// `places` describes (found on every core: a lookup by identifier and
    /// a set's length for each record).
    private static func setStarts(of recordList: [IndexRecord], in places: [String: SetPlace], to out: inout SnapshotWriter) throws -> [Int] {
        try out.write(UInt64(0))
        return try ParallelWork.map(recordList[...], minimum: parallelMinimum) {
            { record in
                guard let place = places[record.item.uniqueIdentifier],
                      place.count == record.item.attributeSet.packed.canonicalLayout.count
                else { throw SnapshotError(.malformed, "the set of \(record.item.uniqueIdentifier) is not in the run") }
                return place.start
            }
        }
    }

    /// Records from which the cores share the lookup of their sets' places.
    private static let parallelMinimum = 16_384

    private func writeActivitiesAndEngagements(to out: inout SnapshotWriter) throws {
        let encoder = JSONEncoder()
        try out.write(activities.count)
        for activity in activities.values {
            try out.write(array: Array(try encoder.encode(activity)))
        }
        try out.write(engagements.count)
        for (identifier, dates) in engagements {
            try out.write(identifier)
            try out.write(array: dates.map(\.timeIntervalSinceReferenceDate))
        }
    }

    private func writeTopLists(to out: inout SnapshotWriter) throws {
        let lists = topLists.allLists
        for table in [lists.subtree, lists.own] {
            try out.write(table.count)
            for (node, entries) in table {
                try out.write(node)
                try out.write(array: entries)
            }
        }
    }

    /// Elements per chunk of a chunked section.
    private static let chunkSize = 1_024

    /// Writes `elements` in chunks, each one length-prefixed, so a reader can
    /// find every chunk first and decode them on all cores at once.
    ///
    /// The cores make the chunks' bytes too, a group of them at a time (so
    /// that only a group's bytes are held at once); `writeOne` runs on
    /// several threads and may only read what it is given and the engine.
    private static func writeChunked<Element>(
        _ elements: [Element], to out: inout SnapshotWriter,
        _ writeOne: (Element, inout SnapshotWriter) throws -> Void
    ) throws {
        let chunkStarts = Array(stride(from: 0, to: elements.count, by: chunkSize))
        try out.write(chunkStarts.count)
        try withoutActuallyEscaping(writeOne) { writeOne in
            nonisolated(unsafe) let writeOne = writeOne
            for group in stride(from: 0, to: chunkStarts.count, by: chunksPerGroup) {
                let starts = chunkStarts[group..<min(chunkStarts.count, group + chunksPerGroup)]
                let groupBytes = try ParallelWork.map(starts, minimum: 2) {
                    { start in
                        var bytes: [UInt8] = []
                        var chunk = SnapshotWriter(bufferCapacity: 0) { bytes.append(contentsOf: $0) }
                        let slice = elements[start..<min(elements.count, start + chunkSize)]
                        try chunk.write(slice.count)
                        for element in slice { try writeOne(element, &chunk) }
                        try chunk.flush()
                        return bytes
                    }
                }
                for bytes in groupBytes { try out.write(array: bytes) }
            }
        }
    }

    /// Chunks made at once by `writeChunked`.
    private static let chunksPerGroup = 64

    /// Reads a section `writeChunked` wrote, decoding its chunks in parallel
    /// straight into their places in one array (a million elements copied
    /// out of per-chunk arrays would cost a retain and release per field).
    /// Each chunk has a reader of its own: what one reading thread keeps
    /// (`SnapshotDomainNames`) needs no lock.
    private static func readChunked<Element>(
        from input: inout SnapshotReader, _ readOne: @escaping (inout SnapshotReader) throws(SnapshotError) -> Element
    ) throws(SnapshotError) -> [Element] {
        let chunkCount = try input.readCount()
        let (owner, setsOwner, verified) = (input.owner, input.setsOwner, input.verified)
        let setsApart = setsOwner !== owner
        var chunks: [UnsafeRawBufferPointer] = []
        var starts: [Int] = [0]
        for _ in 0..<chunkCount {
            let (start, length) = try input.readArrayInPlace(of: UInt8.self)
            let chunk = UnsafeRawBufferPointer(start: start, count: length)
            var header = SnapshotReader(chunk)
            let count = try header.readCount()
            chunks.append(chunk)
            starts.append(starts.last! + count)
        }
        let total = starts.last!
        var failures = [SnapshotError?](repeating: nil, count: chunkCount)
        var written = [Int](repeating: 0, count: chunkCount)
        // Room to grow (documents, records): see `SnapshotReader.readArray(growing:)`.
        let elements = [Element](unsafeUninitializedCapacity: SnapshotReader.growingCapacity(total)) { buffer, initialized in
            failures.withUnsafeMutableBufferPointer { failures in
                written.withUnsafeMutableBufferPointer { written in
                    nonisolated(unsafe) let (out, failed, done) = (buffer, failures, written)
                    nonisolated(unsafe) let (parts, decode) = (chunks, readOne)
                    let firsts = starts
                    DispatchQueue.concurrentPerform(iterations: chunkCount) { index in
                        // Each chunk's borrowers retain an owner of their own: a
                        // million retains of one shared object from every
                        // core would contend for its count.
                        let chunkOwner = owner.map(ChunkOwner.init)
                        let chunkSetsOwner = setsApart ? setsOwner.map(ChunkOwner.init) : chunkOwner
                        var chunk = SnapshotReader(parts[index], owner: chunkOwner, setsOwner: .some(chunkSetsOwner), verified: verified)
                        let first = firsts[index], count = firsts[index + 1] - first
                        // Counted here and stored once: the chunks' counts
                        // share cache lines, and a store an element from
                        // each core made them bounce between the cores.
                        var made = 0
                        defer { done[index] = made }
                        do throws(SnapshotError) {
                            _ = try chunk.readCount()
                            while made < count {
                                (out.baseAddress! + first + made).initialize(to: try decode(&chunk))
                                made += 1
                            }
                            guard chunk.isAtEnd else {
                                throw SnapshotError(.malformed, "a chunk does not end where its elements do")
                            }
                        } catch {
                            failed[index] = error
                        }
                    }
                }
            }
            if failures.contains(where: { $0 != nil }) {
                // Leave nothing half made: undo every element built.
                for index in 0..<chunkCount { (buffer.baseAddress! + starts[index]).deinitialize(count: written[index]) }
                initialized = 0
            } else {
                initialized = total
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
        return elements
    }

    /// Where in `records` the record lies that `document` is written with
    /// (`writeDocument`), if any: the record it holds, or one whose item it
    /// says all of (a load makes the document hold that). `position`: that
    /// of the record of the document's identifier, or -1.
    private func heldRecordPosition(of document: Document?, at position: Int, records: [IndexRecord]) -> Int? {
        guard let document, position >= 0 else { return nil }
        if document.holdsRecord { return position }
        // Any other is found by identifier for its expiration, which only
        // the engine's column keeps.
        let expiry = slot(of: document.uniqueIdentifier).flatMap { Document.date(expiration(ofSlot: Int($0))) }
        let record = records[position]
        guard document.matches(record.item, expiration: expiry), canonicalID(of: record) == document.uniqueIdentifier else {
            return nil
        }
        return position
    }

    /// Writes a document: as the record it holds (`heldRecordPosition`,
    /// its set at `setStart` in the run) when it has one, else as its own
    /// fields.
    private func writeDocument(
        _ document: Document?, holding held: (record: IndexRecord, setStart: Int)?, to out: inout SnapshotWriter
    ) throws {
        guard let document else { return try out.write(UInt8(0)) }
        if let held {
            try out.write(UInt8(1))
            try out.write(held.record, attributesAt: held.setStart)
            // The set's type, coded, so that a load need not read the set for it.
            try out.write(document.contentTypeCode)
        } else {
            try out.write(UInt8(2))
            try out.write(document.uniqueIdentifier)
            try out.write(document.title)
            try out.write(document.contentType)
            try out.write(document.domainIdentifier)
            let expiry = slot(of: document.uniqueIdentifier).flatMap { Document.date(expiration(ofSlot: Int($0))) }
            try out.write(expiry?.timeIntervalSinceReferenceDate)
            try out.write(document.visibility.ordinal)
        }
        try out.write(UInt32(document.titleLength))
        try out.write(array: document.sources.map(\.ordinal))
    }

    private func writeTrie(to out: inout SnapshotWriter) throws {
        let nodes = trie.nodes
        try out.write(nodes.count)
        try out.write(array: nodes.map(\.parent))
        try out.write(array: nodes.map(\.scalar))
        try out.write(array: nodes.map(\.depth))
        // Only the labels in use, node by node: the pool also holds pruned
        // nodes' labels, and a load finds each node's start by summing.
        try out.write(array: nodes.map(\.labelCount))
        try out.write(array: trie.labelsInUse)
        try out.write(array: nodes.map(\.subtreeCount))
        try out.write(array: nodes.map(\.documentCount))
        try out.write(array: nodes.map(\.stamp))
        try out.write(array: nodes.map { UInt32($0.childCount) })
        try out.write(array: trie.childrenInNodeOrder)
        let (postingCounts, postings) = trie.postingsInNodeOrder
        try out.write(array: postingCounts)
        try out.write(column: postings)
        try out.write(array: trie.orderedRanges.map(\.low))
        try out.write(array: trie.orderedRanges.map(\.high))
        let parts = trie.savedParts
        try out.write(array: parts.freeNodes)
        try out.write(parts.stampCounter)
        try out.write(parts.orderedLimit)
        try out.write(parts.retiredNodes)
    }

    /// Loads an engine from `bytes` as `writeSnapshot` wrote them.
    ///
    /// With an `owner` that keeps `bytes` valid and unchanged while it
    /// lives (a read-only mapping of the file), the token arena's columns,
    /// the posting lists and the attribute sets are read where they lie
    /// instead of copied (`FlatColumn`, `PackedAttributes.validating`);
    /// what reads them keeps the owner. An owner that is `DroppablePages`
    /// is asked to drop its pages as each section is built. `verified`:
    /// the bytes are known to be a writer's (a file whose checksum held),
    /// and the attribute sets are taken without a walk over each. The
    /// identifier-keyed tables are built after this returns
    /// (`SearchEngine+Tables`).
    ///
    /// `sets`: the run of sets a snapshot written with `setsIn:` refers
    /// to, and the owner that keeps it valid while the engine lives.
    public init(
        snapshot bytes: UnsafeRawBufferPointer, owner: (AnyObject & Sendable)? = nil, verified: Bool = false,
        sets external: (bytes: UnsafeRawBufferPointer, owner: AnyObject & Sendable)? = nil
    ) throws(SnapshotError) {
        var input = SnapshotReader(bytes, owner: owner, setsOwner: external.map { .some($0.owner) }, verified: verified)
        guard try input.read(UInt64.self) == Self.snapshotMagic else {
            throw SnapshotError(.incompatible, "not an engine snapshot")
        }
        guard try input.read(UInt32.self) == Self.snapshotFormat, try input.readArray(of: UInt32.self) == Self.layoutSizes else {
            throw SnapshotError(.incompatible, "the snapshot was written by another build")
        }
        let preferenceIndex = Int(try input.read(UInt8.self))
        guard preferenceIndex < IndexingPreference.allCases.count else { throw SnapshotError(.malformed, "unknown indexing preference") }
        self.init(preference: IndexingPreference.allCases[preferenceIndex])
        topListThreshold = try input.read(Int.self)
        tuning.scanEnabled = try input.readBool()
        tuning.sortedGatherLimit = try input.read(Int.self)
        tuning.parallelScanMinimum = try input.read(Int.self)
        tuning.fieldMapMinimumDocuments = try input.read(Int.self)
        tuning.fieldMapQueryMinimumSlots = try input.read(Int.self)

        let (setStart, setCount) = try input.readArrayInPlace(of: UInt8.self)
        if external != nil, setCount != 0 { throw SnapshotError(.malformed, "the sets are both inside and outside the snapshot") }
        let sets = external?.bytes ?? UnsafeRawBufferPointer(start: setStart, count: setCount)
        // The records no document holds (the rest are in their documents).
        var loadedRecords = try Self.readChunked(from: &input) { chunk throws(SnapshotError) in
            try chunk.readRecord(attributesIn: sets)
        }
        input.releaseConsumed()
        try readActivitiesAndEngagements(from: &input)
        documents = try Self.readChunked(from: &input) { chunk throws(SnapshotError) in
            try Self.readDocument(from: &chunk, sets: sets)
        }
        input.releaseConsumed()
        // The identifier-keyed tables (every identifier hashed into the
        // slot map, the URL maps noted, the records no document holds moved
        // into their table) are built on another thread once the load is
        // done (started earlier, it took a core from the trie's build), and
        // the engine answers without them: see `SearchEngine+Tables`.
        let handOver = TableHandOver(records: loadedRecords, documents: documents)
        loadedRecords = [] // the hand-over holds the only reference: moved, not copied
        try readSlotTables(from: &input)
        input.releaseConsumed()
        trie = try Self.readTrie(from: &input)
        input.releaseConsumed()
        // Borrowed from the mapping when there is one (the largest
        // section: copied, it would fault in every page at a cold start).
        // Pages dropped as read: they come back from the page cache when a
        // scan touches them, and count in memory only then.
        func arenaColumn<T: BitwiseCopyable>() throws(SnapshotError) -> FlatColumn<T> {
            defer { input.releaseConsumed() }
            return try input.readColumn()
        }
        tokens = TokenArena(
            words: try arenaColumn(), starts: try arenaColumn(), counts: try arenaColumn())

        let tables = try Self.readTopLists(from: &input, nodes: trie.nodes.count, slots: ranks.count)
        topLists = TopListCache(subtree: tables.subtree, own: tables.own, tail: listTail)
        guard try input.read(UInt64.self) == Self.snapshotMagic, input.isAtEnd else {
            throw SnapshotError(.malformed, "the snapshot does not end where its structures do")
        }

        // The map that follows from the activities.
        for (id, activity) in activities {
            if let related = activity.relatedUniqueIdentifier { activitiesByItem[related, default: []].insert(id) }
        }
        startTables(from: handOver, dropping: input.owner as? DroppablePages)
    }

    private mutating func readActivitiesAndEngagements(from input: inout SnapshotReader) throws(SnapshotError) {
        let decoder = JSONDecoder()
        for _ in 0..<(try input.readCount()) {
            let json = try input.readArray(of: UInt8.self)
            guard let activity = try? decoder.decode(UserActivity.self, from: Data(json)) else {
                throw SnapshotError(.malformed, "an activity does not decode")
            }
            activities[activity.identifier] = activity
        }
        for _ in 0..<(try input.readCount()) {
            let identifier = try input.readString()
            engagements[identifier] = try input.readArray(of: Double.self).map(Date.init(timeIntervalSinceReferenceDate:))
        }
    }

    /// The per-slot columns: free slots, ranks (and the tiers derived from
    /// them), expirations and viewed flags, checked to agree in length.
    private mutating func readSlotTables(from input: inout SnapshotReader) throws(SnapshotError) {
        freeDocuments = try input.readArray()
        ranks = try input.readArray(growing: true)
        // Derived, not saved: one pass over the ranks.
        rankTiers = ranks.withUnsafeBufferPointer { ranks in
            // A plain loop into new storage: `append(contentsOf:)` of a lazy
            // map is far slower an element.
            [UInt8](unsafeUninitializedCapacity: SnapshotReader.growingCapacity(ranks.count)) { tiers, initialized in
                for slot in ranks.indices { tiers[slot] = ranks[slot].tier }
                initialized = ranks.count
            }
        }
        expirations = try input.readArray(growing: true)
        engagedSlots = try input.readArray(of: UInt8.self).map { $0 != 0 }
        exactNames = ExactNames(storedBuckets: try input.readArray())
        guard expirations.isEmpty || ranks.count == expirations.count, ranks.count == engagedSlots.count,
            ranks.count <= documents.count
        else {
            throw SnapshotError(.malformed, "the slot tables differ in length")
        }
        if !engagements.isEmpty { engagedAtLoad = engagedDocumentsFromFlags() }
        // Expiring documents are few: found from the expirations, without
        // touching every document.
        for slot in expirations.indices where expirations[slot] != .infinity && documents[slot] != nil {
            expiringDocuments.insert(UInt32(slot))
            expirationFloor = min(expirationFloor, expirations[slot])
        }
    }

    /// The kept best lists (subtrees', then own), each checked to name only
    /// nodes and documents the snapshot holds.
    private static func readTopLists(
        from input: inout SnapshotReader, nodes: Int, slots: Int
    ) throws(SnapshotError) -> (subtree: [Int32: [TopEntry]], own: [Int32: [TopEntry]]) {
        var tables: [[Int32: [TopEntry]]] = []
        for _ in 0..<2 {
            var table: [Int32: [TopEntry]] = [:]
            for _ in 0..<(try input.readCount()) {
                let node = try input.read(Int32.self)
                table[node] = try input.readArray()
            }
            tables.append(table)
        }
        for table in tables {
            for (node, list) in table {
                guard Int(node) >= 0, Int(node) < nodes, list.allSatisfy({ Int($0.doc) < slots }) else {
                    throw SnapshotError(.malformed, "a best list names a node or document the snapshot does not hold")
                }
            }
        }
        return (tables[0], tables[1])
    }

    /// Keeps a snapshot's bytes alive for the values of one chunk that borrow them.
    final class ChunkOwner: Sendable {
        let owner: AnyObject & Sendable
        init(_ owner: AnyObject & Sendable) { self.owner = owner }
    }

    private static func readDocument(
        from input: inout SnapshotReader, sets: UnsafeRawBufferPointer
    ) throws(SnapshotError) -> Document? {
        switch try input.read(UInt8.self) {
        case 0:
            return nil
        case 1:
            // The expiration is the engine's column's, read with the others.
            let held = try input.readRecordParts(attributesIn: sets, trustingWords: input.verified)
            let contentTypeCode = try readContentTypeCode(from: &input)
            let titleLength = Int(try input.read(UInt32.self))
            let sources = try readSources(from: &input)
            return Document(
                holding: held.source, uniqueIdentifier: held.identifier, domain: held.domain, attributes: held.attributes,
                visibility: held.visibility, titleLength: titleLength, sources: sources, contentTypeCode: contentTypeCode)
        case 2:
            let identifier = try input.readString()
            let title = try input.readString()
            let contentType = try input.readString()
            let domain = try input.readOptionalString()
            // The expiration: the engine's column, read with the others, has it.
            _ = try input.readOptional(Double.self)
            let visibility = try input.readVisibility()
            let titleLength = Int(try input.read(UInt32.self))
            let sources = try readSources(from: &input)
            return Document(
                uniqueIdentifier: identifier, title: title, titleLength: titleLength, contentType: contentType,
                domainIdentifier: domain, sources: sources, visibility: visibility)
        case let kind:
            throw SnapshotError(.malformed, "unknown document kind \(kind)")
        }
    }

    private static func readContentTypeCode(from input: inout SnapshotReader) throws(SnapshotError) -> UInt8 {
        let code = try input.read(UInt8.self)
        guard Document.isContentTypeCode(code) else { throw SnapshotError(.malformed, "unknown content type code \(code)") }
        return code
    }

    private static func readSources(from input: inout SnapshotReader) throws(SnapshotError) -> SourceSet {
        var sources: SourceSet = []
        let (sourceIndexes, sourceCount) = try input.readArrayInPlace(of: UInt8.self)
        for offset in 0..<sourceCount {
            guard let source = Source(ordinal: sourceIndexes.load(fromByteOffset: offset, as: UInt8.self)) else {
                throw SnapshotError(.malformed, "unknown source")
            }
            sources.insert(source)
        }
        return sources
    }
}

extension SnapshotReader {
    @inline(__always)
    mutating func readSource() throws(SnapshotError) -> Source {
        let ordinal = try read(UInt8.self)
        guard let source = Source(ordinal: ordinal) else { throw SnapshotError(.malformed, "unknown source \(ordinal)") }
        return source
    }
}

extension Document {
    /// Whether every field of this document is what its record alone says,
    /// so a snapshot need only name the record.
    func matches(_ item: SearchableItem, expiration: Date?) -> Bool {
        title == item.attributeSet.shownTitle && contentType == item.attributeSet.contentType
            && domainIdentifier == item.domainIdentifier && expiration == item.expirationDate
            && visibility == item.visibility
    }
}
