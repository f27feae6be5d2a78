import Foundation
import SearchSupport

/// Whether slots' documents are still there at one moment, read from the
/// expirations column alone: a value made once a query, not an engine
/// method, which a query's nested function would call on a copy of the engine.
struct ExpiryTest {
    let nothingExpires: Bool
    let expirations: [Double]
    let now: Double

    /// Whether the document in `slot` is still there (while nothing can
    /// have expired yet, no column is read: `nothingHasExpired(at:)`).
    @inline(__always) func isUnexpired(_ slot: UInt32) -> Bool {
        // Spelled out, not through `SearchEngine.expiration(ofSlot:in:)`:
        // the call added retains and value copies around the best-list
        // walk that asks this.
        nothingExpires || Int(slot) >= expirations.count || expirations[Int(slot)] > now
    }
}

/// The in-memory searchable index: records, activities and engagement, and
/// the trie that serves queries over them.
///
/// A value type with one owner. Every mutating call is a whole batch: it is
/// applied completely before it returns, and the documents it touches are
/// re-tokenised once at the end. Persistence is the caller's concern
/// (`SearchStore`); this type never does I/O.
public struct SearchEngine: Sendable {
    /// The records, the slot map and the URL maps (read through
    /// `records`, `documentIndex`, `itemsByURL`, `webByURL`: see
    /// `SearchEngine+Tables`).
    var settled = IdentifierTables()
    /// Those tables while a snapshot load still builds them.
    package var pendingTables: PendingLoad?
    /// The slots of viewed documents as a snapshot load found them, for
    /// queries while `pendingTables` are built.
    package var engagedAtLoad: Set<UInt32> = []
    /// Searchable activities, by `UserActivity.identifier`.
    public package(set) var activities: [String: UserActivity] = [:]
    /// View times, by the identifier they count toward.
    public package(set) var engagements: [String: [Date]] = [:]
    /// Whether activities may become results.
    public internal(set) var preference: IndexingPreference = .viewedRecords

    package var trie = TokenTrie()
    package var documents: [Document?] = []
    package var freeDocuments: [UInt32] = []
    /// Activities by the item they name.
    package var activitiesByItem: [String: Set<String>] = [:]
    /// Best documents of large subtrees, computed when a query first needs them.
    package var topLists = TopListCache()
    /// Trie matches of recent query terms; replaced whenever the trie changes.
    var termMatches = TermMatchCache()
    /// Static rank of each document slot (parallel to `documents`).
    package var ranks: [StaticRank] = []
    /// The slots each title's and display name's words name (`ExactNames`).
    package var exactNames = ExactNames()
    /// Each slot's static rank coarsened to a byte (`StaticRank.tier`): a broad
    /// query's matches of equal rule values told apart without their 12-byte ranks.
    package var rankTiers: [UInt8] = []
    /// Slots of documents that carry an expiration date.
    package var expiringDocuments: Set<UInt32> = []
    /// No document in `expiringDocuments` expires before this (a lower bound:
    /// lowered by inserts, kept by removals). Before it, a query reads no
    /// expiration, a cache miss a candidate.
    package var expirationFloor: Double = .infinity
    /// Tokens of each document slot, laid out for scanning.
    package var tokens = TokenArena()
    /// Slots a bulk build has counted in the trie but not yet listed
    /// (`TokenTrie+BulkLists`), in the order placed; nil outside a bulk build.
    private var unlistedSlots: [UInt32]?
    /// Expiration of each slot (seconds since the reference date; infinity
    /// for none), parallel to `ranks`; empty while no document of this index
    /// has ever had one (`expiration(ofSlot:)`): most never do.
    package var expirations: [Double] = []
    /// Whether each slot's document has views (ranked apart, with its engagement).
    package var engagedSlots: [Bool] = []
    /// Thresholds that choose between two ways of doing the same work.
    package var tuning = EngineTuning()
    /// Subtrees with more documents than this are ranked from best lists
    /// instead of being enumerated (see `SearchEngine+BestLists`). Unless set
    /// (by a caller, or by a snapshot to the value it was saved with), it
    /// follows the index's size: `sizedTopListThreshold(slots:)`.
    package var topListThreshold: Int {
        get { tuning.topListThreshold ?? Self.sizedTopListThreshold(slots: documents.count) }
        set { tuning.topListThreshold = newValue }
    }

    /// The threshold for an index of `slots`: a thousandth of them, from 500
    /// to 2,000. Too high, common short prefixes have their lists made at
    /// every keystroke; too low, lists cost memory and upkeep on every change.
    static func sizedTopListThreshold(slots: Int) -> Int {
        min(2_000, max(500, slots / 1_000))
    }
    /// The dictionary that codes the titles, descriptions and keywords of every
    /// set indexed since the first batch of `tuning.textDictionaryMinimumBatch`
    /// items, trained on a sample of that batch (`TextDictionary`); nil
    /// before it, and in a loaded snapshot (which keeps sets uncoded).
    var textDictionary: TextDictionary?
    /// The domain objects documents share (`DomainName`); copies of the
    /// engine share the cache.
    var domainNames = DomainNames()
    /// Threads for work shared among the cores.
    package static var workerCount: Int { ParallelWork.workerCount }

    /// Per-slot maps a query borrows and hands back clean (`SlotScratch`), one
    /// pool for the process: a reference in each engine would weigh on every copy.
    static let slotScratch = SlotScratch()

    public init(preference: IndexingPreference = .viewedRecords) {
        self.preference = preference
    }

    /// The expiration of the document in `slot`, in seconds since the
    /// reference date (infinity for none, and for a slot its insert has
    /// not reached yet).
    @inline(__always) package func expiration(ofSlot slot: Int) -> Double {
        Self.expiration(ofSlot: slot, in: expirations)
    }

    /// The same, read from a copy of the column (the column is empty while
    /// nothing has expired, and shorter than the documents until an
    /// insert reaches its slot).
    @inline(__always) static func expiration(ofSlot slot: Int, in expirations: [Double]) -> Double {
        slot < expirations.count ? expirations[slot] : .infinity
    }

    /// What tells, at `now`, whether a slot's document is still there.
    func expiryTest(at now: Date) -> ExpiryTest {
        let now = now.timeIntervalSinceReferenceDate
        return ExpiryTest(nothingExpires: nothingHasExpired(at: now), expirations: expirations, now: now)
    }

    /// Whether no document has expired at `now` (seconds since the
    /// reference date), known without reading the column.
    @inline(__always) func nothingHasExpired(at now: Double) -> Bool {
        expiringDocuments.isEmpty || now < expirationFloor
    }

    /// Number of results the index can return (before expiration).
    public var documentCount: Int { slotTable.count }

    // MARK: - Batches

    /// Indexes (inserts or replaces) a batch of items from one source.
    ///
    /// A caller that passes its only reference (`consume`) lets each set go
    /// as its coded one replaces it (`codeTexts`). `progress` hears, from 0
    /// to 1, how much of a bulk build into an empty engine is done.
    public mutating func index(_ items: consuming [SearchableItem], source: Source = .item, progress: ((Double) -> Void)? = nil) {
        codeTexts(of: &items)
        if source == .item, tuning.indexesIntoEmptyDirectly, holdsNothing {
            indexIntoEmpty(&items, progress: progress)
            return
        }
        defer { progress?(1) }
        // The items' own identifiers go in a list, sorted once, rather than
        // hashed into the set: the start of a bulk import has no other core's work.
        var touched = Set<String>()
        var ids: [String] = []
        ids.reserveCapacity(items.count)
        if items.count >= 1_024 {
            // Growing a large table step by step would move every record several times.
            recordTable.reserveCapacity(recordTable.count + items.count)
        }
        for item in items {
            let record = IndexRecord(source: source, item: item)
            if let old = replaceRecord(with: record) {
                touched.formUnion(unlink(old))
            }
            ids.append(item.uniqueIdentifier)
            link(record, touching: &touched)
        }
        // The records hold the items now: the batch's array goes before the build.
        items = []
        ids.append(contentsOf: touched)
        ids.sort()
        refresh(sorted: ids)
        // A large batch freed as much as it made: pages of it go back.
        if ids.count >= 4_096 { Allocator.returnFreePages() }
    }

    /// Whether the engine holds nothing a batch could replace or merge
    /// with: no record, document or activity.
    private var holdsNothing: Bool {
        recordTable.isEmpty && slotTable.count == 0 && activities.isEmpty && activitiesByItem.isEmpty
            && itemsByURL.isEmpty && webByURL.isEmpty
    }

    /// Indexes a batch into an engine that holds nothing (a bulk import, a
    /// rebuild from a store): what `index` does, without the record table.
    /// Each item goes straight to the document built from it, which holds
    /// it: through the table, every record stayed until the build's end,
    /// which set the build's peak memory.
    private mutating func indexIntoEmpty(_ items: inout [SearchableItem], progress: ((Double) -> Void)?) {
        // In identifier order, the last item of each identifier (as the
        // table keeps the last one a batch names).
        var order = items.indices.map { (id: items[$0].uniqueIdentifier, index: $0) }
        order.sort { $0.id < $1.id }
        var chunks: [[IndexRecord]] = []
        var chunk: [IndexRecord] = []
        var linked = Set<String>()
        var count = 0
        var position = 0
        while position < order.count {
            var last = order[position].index
            var next = position + 1
            while next < order.count, order[next].id == order[position].id {
                last = max(last, order[next].index)
                next += 1
            }
            position = next
            let record = IndexRecord(source: .item, item: items[last])
            // Its links, as `index` makes them (what it would refresh for them is in this batch).
            link(record, touching: &linked)
            if chunk.isEmpty { chunk.reserveCapacity(Self.refreshChunk) }
            chunk.append(record)
            count += 1
            if chunk.count == Self.refreshChunk { chunks.append(chunk); chunk = [] }
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        // The chunks hold the items now.
        (items, order) = ([], [])
        settleTables()
        termMatches = TermMatchCache()
        let reader = documentReader
        buildInChunks(&chunks, documents: count, progress: progress, build: {
            reader.buildDocument($0.item.uniqueIdentifier, standingFor: .record($0))
        }) { engine, records, built in
            // A record its document does not hold stays in the table, as `index` keeps it.
            for (record, built) in zip(records, built) where built?.document.holdsRecord != true {
                engine.recordTable.updateValue(record, forKey: record.item.uniqueIdentifier)
            }
            var holding: [String] = []
            engine.place(records.map(\.item.uniqueIdentifier)[...], &built, holding: &holding)
        }
        orderTrieIfDue()
        if count >= 4_096 { Allocator.returnFreePages() }
    }

    /// Codes the titles, descriptions and keywords of `items`' sets with the
    /// index's dictionary (trained first from a large enough batch), laid out
    /// together in shared storages (`PackedAttributes.sharing`) on every core.
    private mutating func codeTexts(of items: inout [SearchableItem]) {
        if textDictionary == nil, items.count >= tuning.textDictionaryMinimumBatch {
            textDictionary = Self.trainDictionary(on: items)
        }
        guard let dictionary = textDictionary, !items.isEmpty else { return }
        // Every coded set is made before any original goes: the coded ones lie
        // together in fresh memory, and the originals' pages come free whole.
        let originals = items.map(\.attributeSet.packed)
        let blocks = stride(from: 0, to: originals.count, by: Self.sharingBlock).map {
            $0..<min($0 + Self.sharingBlock, originals.count)
        }
        let coded = try! ParallelWork.map(blocks[...], minimum: 2) {
            { PackedAttributes.sharing(originals[$0], codedWith: dictionary) }
        }
        var index = 0
        for block in coded {
            for packed in block {
                items[index].attributeSet = AttributeSet(packed: packed)
                index += 1
            }
        }
        if items.count >= 4_096 { Allocator.returnFreePages() }
    }

    /// Sets coded by one task (a few shared storages' worth).
    private static let sharingBlock = 8_192

    /// A dictionary of the words in the titles, descriptions and keywords of at
    /// most 32,768 of `items`, taken evenly (words met once in such a
    /// sample are rare enough to be kept as they are).
    private static func trainDictionary(on items: [SearchableItem]) -> TextDictionary? {
        let step = max(1, items.count / 32_768)
        return TextDictionary.trained { feed in
            for index in stride(from: 0, to: items.count, by: step) {
                items[index].attributeSet.packed.forEachCodableText(feed)
            }
        }
    }

    /// Deletes items (and web pages) by identifier, with the activities tied to
    /// them; returns the identifiers removed.
    @discardableResult
    public mutating func deleteItems(identifiers: [String]) -> [String] {
        var touched = Set<String>()
        var removed: [String] = []
        for id in identifiers {
            guard let record = findRecord(id) else {
                if activities[id] != nil {
                    touched.formUnion(removeActivity(id))
                    // Deleting an activity by name deletes its views too.
                    engagements[id] = nil
                    removed.append(id)
                }
                continue
            }
            touched.formUnion(unlink(record))
            _ = takeRecord(id)
            removed.append(id)
            for activityID in activitiesByItem[id] ?? [] {
                touched.formUnion(removeActivity(activityID))
            }
            engagements[id] = nil
            touched.insert(id)
        }
        refresh(touched)
        return removed
    }

    /// Deletes every item whose domain is one of `domains` or lies below one
    /// (`com.acme.media` takes `com.acme.media.photo`, not `com.acme.mediakit`).
    @discardableResult
    public mutating func deleteItems(domainIdentifiers domains: [String]) -> [String] {
        let doomed = allRecords
            .filter { record in domains.contains { record.item.belongs(toDomain: $0) } }
            .map(\.item.uniqueIdentifier)
            .sorted()
        return deleteItems(identifiers: doomed)
    }

    /// Empties the index; the preference is kept.
    public mutating func deleteAll() {
        self = SearchEngine(preference: preference)
    }

    /// Identifiers of records and activities expired at `now`.
    public func expiredIdentifiers(at now: Date) -> [String] {
        let items = allRecords.filter { $0.item.isExpired(at: now) }.map(\.item.uniqueIdentifier)
        let acts = activities.filter { $0.value.isExpired(at: now) }.map(\.key)
        return (items + acts).sorted()
    }

    // MARK: - Activities and engagement

    /// What `becomeCurrent` did with an activity.
    public enum ActivityOutcome: String, Sendable, Codable {
        /// Engagement recorded and the activity is now searchable.
        case indexed
        /// Engagement recorded; not searchable (ineligible or indexing disabled).
        case recordedOnly
        /// Engagement recorded; not stored because its related item is not indexed.
        case relatedItemMissing
    }

    /// Records a view of `activity` at `date` and, when it is eligible for
    /// search and the preference allows, makes it a search result.
    @discardableResult
    public mutating func becomeCurrent(_ activity: UserActivity, at date: Date) -> ActivityOutcome {
        engagements[activity.engagementIdentifier, default: []].append(date)
        markEngaged(activity.engagementIdentifier)
        var outcome = ActivityOutcome.recordedOnly
        if activity.isEligibleForSearch && preference == .viewedRecords {
            if let related = activity.relatedUniqueIdentifier, findRecord(related) == nil {
                outcome = .relatedItemMissing
            } else {
                insertActivity(activity)
                outcome = .indexed
            }
        }
        // A view alone changes no tokens: engagement is read at query time.
        if outcome == .indexed { refresh([canonicalID(ofActivity: activity)]) }
        return outcome
    }

    /// Restores a stored activity without counting a view (used when loading).
    public mutating func restoreActivity(_ activity: UserActivity) {
        guard preference == .viewedRecords else { return }
        if let related = activity.relatedUniqueIdentifier, findRecord(related) == nil { return }
        insertActivity(activity)
        refresh([canonicalID(ofActivity: activity)])
    }

    /// Restores stored view times without side effects (used when loading).
    public mutating func restoreEngagement(_ identifier: String, at dates: [Date]) {
        engagements[identifier, default: []].append(contentsOf: dates)
        markEngaged(identifier)
    }

    /// Makes `dates` the whole view history of `identifier` (none: it has
    /// no views), as another process's write left it.
    public mutating func replaceEngagement(_ identifier: String, with dates: [Date]) {
        if dates.isEmpty {
            engagements[identifier] = nil
        } else {
            engagements[identifier] = dates
            markEngaged(identifier)
        }
    }

    /// Removes activity entries by identifier, keeping their views (as
    /// another process's write left them); unknown identifiers are ignored.
    public mutating func removeActivities(_ identifiers: [String]) {
        var touched = Set<String>()
        for id in identifiers { touched.formUnion(removeActivity(id)) }
        refresh(touched)
    }

    /// Sets the indexing preference; `disabled` drops every activity entry.
    public mutating func setPreference(_ preference: IndexingPreference) {
        self.preference = preference
        if preference == .disabled { removeAllActivities() }
    }

    /// Deletes every activity-derived entry; returns their identifiers.
    @discardableResult
    public mutating func removeAllActivities() -> [String] {
        var touched = Set<String>()
        let ids = activities.keys.sorted()
        for id in ids { touched.formUnion(removeActivity(id)) }
        refresh(touched)
        return ids
    }

    private mutating func insertActivity(_ activity: UserActivity) {
        let id = activity.identifier
        if activities[id] != nil { _ = removeActivity(id) }
        activities[id] = activity
        if let related = activity.relatedUniqueIdentifier {
            activitiesByItem[related, default: []].insert(id)
        }
    }

    /// Removes an activity entry; its views stay (they are the engagement
    /// history, kept while indexing is disabled and across replacements).
    private mutating func removeActivity(_ id: String) -> Set<String> {
        guard let activity = activities.removeValue(forKey: id) else { return [] }
        if let related = activity.relatedUniqueIdentifier {
            activitiesByItem[related]?.remove(id)
            if activitiesByItem[related]?.isEmpty == true { activitiesByItem[related] = nil }
        }
        return [canonicalID(ofActivity: activity), id]
    }

    // MARK: - Merging

    private func canonicalID(ofActivity activity: UserActivity) -> String {
        activity.relatedUniqueIdentifier ?? activity.identifier
    }

    package func canonicalID(of record: IndexRecord) -> String {
        if record.source == .web, let url = record.item.attributeSet.url, let owner = owner(of: url) {
            return owner
        }
        return record.item.uniqueIdentifier
    }

    /// The item a page at `url` merges with.
    private func owner(of url: String) -> String? {
        itemsByURL[url]?.min { RankingKey.identifierPrecedes($0, $1) }
    }

    /// Registers a record's merge links; adds the documents to refresh
    /// other than the record's own to `touched` (in place, not a set per item).
    private mutating func link(_ record: IndexRecord, touching touched: inout Set<String>) {
        let id = record.item.uniqueIdentifier
        guard let url = record.item.attributeSet.url else { return }
        switch record.source {
        case .item:
            if let previous = owner(of: url) { touched.insert(previous) }
            itemsByURL[url, default: []].insert(id)
            // Pages at this URL now merge into the item: their own documents go.
            touched.formUnion(webByURL[url] ?? [])
        case .web:
            webByURL[url, default: []].insert(id)
            touched.insert(canonicalID(of: record))
        case .activity:
            break
        }
    }

    /// Removes a record's merge links; returns the documents to refresh.
    private mutating func unlink(_ record: IndexRecord) -> Set<String> {
        let id = record.item.uniqueIdentifier
        var touched: Set<String> = [id, canonicalID(of: record)]
        guard let url = record.item.attributeSet.url else { return touched }
        switch record.source {
        case .item:
            itemsByURL[url]?.remove(id)
            if itemsByURL[url]?.isEmpty == true { itemsByURL[url] = nil }
            // Another item with the same page takes over, if any.
            if let heir = owner(of: url) { touched.insert(heir) }
            touched.formUnion(webByURL[url] ?? [])
        case .web:
            webByURL[url]?.remove(id)
            if webByURL[url]?.isEmpty == true { webByURL[url] = nil }
        case .activity:
            break
        }
        return touched
    }

    // MARK: - Documents

    /// Rebuilds the documents named by `ids` from the records, in place.
    mutating func refresh(_ ids: Set<String>) {
        refresh(sorted: ids.sorted())
    }

    /// Rebuilds the documents named in `sorted` (in order; an identifier
    /// named twice is rebuilt once) from the records, in place.
    private mutating func refresh(sorted named: [String]) {
        refreshDocuments(sorted: named)
        orderTrieIfDue()
    }

    /// Puts the trie's nodes back in the order of their paths (`TokenTrie+Order`)
    /// once those made or freed since the last time are an eighth of them (a
    /// token at such a node is tested by a walk up the trie).
    mutating func orderTrieIfDue() {
        let unordered = trie.unorderedNodeCount
        guard unordered > 0, unordered >= trie.nodes.count / 8 else { return }
        reorderTrie()
    }

    /// Renumbers the trie's nodes in the order of their paths, and what
    /// holds node indices with them (the arena, the best lists and maps).
    mutating func reorderTrie() {
        settleTables()
        let newIndex = trie.reorder()
        tokens.renumberNodes(newIndex)
        makeTopListsUnique()
        topLists.renumberNodes(newIndex)
        termMatches = TermMatchCache()
    }

    private mutating func refreshDocuments(sorted named: [String]) {
        // Every change comes through here: the tables (and the owned copies
        // of what a load borrowed) are taken before anything is changed.
        settleTables()
        if !named.isEmpty { termMatches = TermMatchCache() }
        var order = named
        // Equal neighbours, from a sorted list that may repeat: one of each.
        if order.count > 1 {
            var kept = 1
            for index in 1..<order.count where order[index] != order[kept - 1] {
                order.swapAt(index, kept)
                kept += 1
            }
            order.removeLast(order.count - kept)
        }
        // The documents about to be rebuilt give their records back to the
        // table, where the builders (on other threads too) read them.
        releaseHeldRecords(order)
        var holding: [String] = []
        rebuildDocuments(order, holding: &holding)
        // Only now: the builders' copy of the table is gone with the
        // function that made it, so the table changes in place.
        letDocumentsHoldRecords(holding)
    }

    /// Builds and places the documents of `order` (sorted, each once),
    /// adding to `holding` those that hold their records.
    private mutating func rebuildDocuments(_ order: [String], holding: inout [String]) {
        // A batch the cores would not share is built here, from the engine
        // itself, without a reader made for it (a copy of the records' links).
        guard order.count >= EngineTuning.sharedBuildMinimum else {
            guard !order.isEmpty else { return }
            var built = order.map { buildDocument($0) }
            place(order[...], &built, holding: &holding)
            return
        }
        var chunks = stride(from: 0, to: order.count, by: Self.refreshChunk).map {
            order[$0..<min(order.count, $0 + Self.refreshChunk)]
        }
        let reader = documentReader
        buildInChunks(&chunks, documents: order.count, build: { reader.buildDocument($0) }) { engine, chunk, built in
            engine.place(chunk, &built, holding: &holding)
        }
    }

    /// Builds the documents of `chunks` (each input one document, in slot
    /// order) and places each chunk with `place`, letting it go once placed:
    /// a large batch never holds every pending token at once. While a chunk
    /// goes into the trie (this thread's), the next is tokenised on the
    /// paired worker (`ParallelWork.map(_:alongside:_:)`); the chunks'
    /// postings are listed at the end (`TokenTrie+BulkLists`).
    private mutating func buildInChunks<Chunk: RangeReplaceableCollection & Sendable>(
        _ chunks: inout [Chunk], documents count: Int, progress: ((Double) -> Void)? = nil,
        build: @escaping @Sendable (Chunk.Element) -> BuiltDocument?,
        place: (inout SearchEngine, Chunk, inout [BuiltDocument?]) -> Void
    ) where Chunk.Element: Sendable {
        defer { progress?(1) }
        guard chunks.count > 1 else {
            if let chunk = chunks.first {
                var built = Self.buildDocuments(Array(chunk), build)
                place(&self, chunk, &built)
            }
            return
        }
        var built = Self.buildDocuments(Array(chunks[0]), build)
        reserveCapacity(documents: count)
        unlistedSlots = []
        defer { listUnlistedPostings(endingTheBuild: true) }
        let (nodesBefore, tokensBefore, firstCount) = (trie.nodes.count, tokens.words.count, chunks[0].count)
        for index in chunks.indices {
            if index + 1 < chunks.count {
                built = ParallelWork.map(Array(chunks[index + 1]), alongside: { place(&self, chunks[index], &built) }, build)
            } else {
                place(&self, chunks[index], &built)
            }
            // Its inputs go now, not with the batch (a bulk import's records would otherwise all wait).
            chunks[index] = Chunk()
            // Freed pages (pending tokens, grown columns' old copies) go back
            // as the build goes, not only at its end, where they would add to its peak.
            if index % 16 == 15 { Allocator.returnFreePages() }
            progress?(Double(index + 1) / Double(chunks.count))
            if index == 0 {
                // Room for the rest at the first chunk's rate (ample for nodes), a
                // quarter more for tokens: a doubling near the end would hold both
                // token columns at once. Untouched capacity is address space, not memory.
                let remaining = count - firstCount
                trie.reserveCapacity(nodes: trie.nodes.count + (trie.nodes.count - nodesBefore) * remaining / firstCount)
                let tokensAtRate = (tokens.words.count - tokensBefore) * remaining / firstCount
                tokens.reserveCapacity(tokens: tokens.words.count + tokensAtRate + tokensAtRate / 4)
            }
        }
    }

    /// Room for `count` more documents in the per-slot arrays, and an
    /// eighth more: the first insert after a bulk build would double each
    /// of them, a copy of every column while that insert waits. Untouched
    /// capacity is address space, not memory.
    private mutating func reserveCapacity(documents count: Int) {
        // The identifier table too (grown step by step, it would rehash
        // every identifier again and again), an eighth more as the columns.
        let identifiers = slotTable.count + count
        do {
            // Read through a reference of its own, let go before the columns grow.
            let current = documents
            slotTable.reserveCapacity(identifiers + identifiers / 8, in: current)
        }
        let names = exactNames.count + count
        changeExactNames { $0.reserveCapacity(names + names / 8, namesOf: $1) }
        let slots = documents.count + count + (documents.count + count) / 8
        documents.reserveCapacity(slots)
        ranks.reserveCapacity(slots)
        rankTiers.reserveCapacity(slots)
        if !expirations.isEmpty { expirations.reserveCapacity(slots) }
        engagedSlots.reserveCapacity(slots)
    }

    /// Documents rebuilt together: their tokens go into the trie in one pass.
    static let refreshChunk = 4_096

    /// Puts the documents of `ids` (`built[i]` for `ids[i]`, or nothing) in
    /// their slots, taking them out of `built`; adds to `holding` the
    /// identifiers of those that hold their records.
    ///
    /// Each document is moved into its slot, its pending tokens and what
    /// its insert needs taken out of it on the way: never copied (a dozen
    /// strings and arrays, each retained and released).
    private mutating func place(_ ids: ArraySlice<String>, _ built: inout [BuiltDocument?], holding: inout [String]) {
        var pending: [PendingInsert] = []
        pending.reserveCapacity(ids.count)
        for (offset, id) in ids.enumerated() {
            guard let slot = prepareSlot(id, rebuilt: built[offset] != nil) else { continue }
            // Moved, never copied: taken out of `built`, parted from its
            // pending arrays, swapped into its slot.
            let taken = built[offset].take()!
            var document: Document? = taken.document
            let (tokens, fields) = (taken.pendingTokens, taken.pendingFields)
            pending.append(PendingInsert(
                slot: slot, tokens: tokens, fields: fields.map(\.rawValue),
                rank: StaticRank(sources: UInt8(document!.sourceCount), titleLength: UInt32(document!.titleLength),
                                 rankingHint: taken.rankingHint,
                                 identifierPrefix: document!.identifierPrefix),
                expiration: taken.expiration,
                engaged: !engagements.isEmpty && engagements[document!.uniqueIdentifier] != nil))
            if document!.holdsRecord { holding.append(id) }
            swap(&documents[Int(slot)], &document)
            // Filed once the document is in its slot: growing the table
            // reads every filed slot's names, this one's too.
            changeExactNames { $0.insert(taken.names, slot: slot, namesOf: $1) }
        }
        // One document (a one-item update) goes token by token: the batch
        // path's sort and bookkeeping cost more than they save for one.
        if pending.count == 1, ids.count == 1 {
            insertTokens(pending[0])
        } else if !pending.isEmpty {
            insertTokens(of: pending)
            releaseInBackground(pending)
        }
    }

    /// What inserting a document's tokens needs, taken out of the document
    /// when it went into its slot.
    private struct PendingInsert: Sendable {
        var slot: UInt32
        var tokens: [String]
        var fields: [UInt8]
        var rank: StaticRank
        /// Seconds, infinity for none (`Document.expiration`).
        var expiration: Double
        var engaged: Bool
    }

    /// A copy holding only what `buildDocument` reads (records and the
    /// links that merge them), to build documents on another thread while
    /// this engine changes: a whole copy would make each change copy the
    /// structure it touches.
    private var documentReader: SearchEngine {
        var reader = SearchEngine(preference: preference)
        reader.recordTable = recordTable
        reader.activities = activities
        reader.itemsByURL = itemsByURL
        reader.webByURL = webByURL
        reader.activitiesByItem = activitiesByItem
        reader.domainNames = domainNames
        return reader
    }

    /// Builds a document from each of `inputs`. Building reads the records
    /// and tokenises, never touching the trie, so a large batch is shared
    /// among the cores; inserting stays on the caller's thread.
    private static func buildDocuments<Input: Sendable>(
        _ inputs: [Input], _ build: @escaping @Sendable (Input) -> BuiltDocument?
    ) -> [BuiltDocument?] {
        let workers = workerCount
        guard workers > 1, inputs.count >= EngineTuning.sharedBuildMinimum else { return inputs.map(build) }
        var built = [BuiltDocument?](repeating: nil, count: inputs.count)
        built.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let out = buffer
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                // Contiguous shares: no two workers write near each other.
                let range = (inputs.count * worker / workers)..<(inputs.count * (worker + 1) / workers)
                for index in range { out[index] = build(inputs[index]) }
            }
        }
        return built
    }

    /// Makes room for the document `id` should be (`built`, or nothing):
    /// takes out what stands in its slot now, frees the slot when nothing
    /// should, finds one for a new document. Returns the slot whose tokens
    /// `built` now fills, nil when there is nothing to insert.
    private mutating func prepareSlot(_ id: String, rebuilt: Bool) -> UInt32? {
        if let existing = slot(of: id) {
            removeTokens(of: existing)
            if rebuilt { return existing }
            documents[Int(existing)] = nil
            expiringDocuments.remove(existing)
            freeDocuments.append(existing)
            let current = documents
            slotTable.remove(id, slot: existing, in: current)
            return nil
        }
        guard rebuilt else { return nil }
        let slot: UInt32
        if let reused = freeDocuments.popLast() {
            slot = reused
        } else {
            documents.append(nil)
            slot = UInt32(documents.count - 1)
        }
        let current = documents
        slotTable.insert(id, slot: slot, in: current)
        return slot
    }

    /// What a document stands for: the record whose canonical identifier
    /// is the document's, else a standalone activity of that identifier.
    private enum Primary {
        case record(IndexRecord)
        case activity(UserActivity)
    }

    /// What stands for the document `id` now, if anything. The one statement
    /// of that choice: documents are built from it and results show its
    /// attribute set.
    private func primary(of id: String) -> Primary? {
        if let record = findRecord(id), canonicalID(of: record) == id { return .record(record) }
        if let activity = activities[id], activity.relatedUniqueIdentifier == nil { return .activity(activity) }
        return nil
    }

    /// The document `id` should be now, or nil if nothing stands there.
    private func buildDocument(_ id: String) -> BuiltDocument? {
        buildDocument(id, standingFor: primary(of: id))
    }

    /// The document `id`, built from `standing` (what `primary(of:)` says
    /// stands for it).
    private func buildDocument(_ id: String, standingFor standing: Primary?) -> BuiltDocument? {
        var primary: (attributes: AttributeSet, domain: String?, expiry: Date?, visibility: Visibility, source: Source)
        var merged: [(AttributeSet, Source)] = []
        var primaryRecord: IndexRecord?
        switch standing {
        case .record(let record):
            primaryRecord = record
            let item = record.item
            primary = (item.attributeSet, item.domainIdentifier, item.expirationDate, item.visibility, record.source)
            if record.source == .item, let url = item.attributeSet.url, owner(of: url) == id {
                for webID in (webByURL[url] ?? []).sorted() {
                    if let web = findRecord(webID) { merged.append((web.item.attributeSet, .web)) }
                }
            }
        case .activity(let activity):
            let visibility: Visibility = activity.isEligibleForPublicIndexing ? .public : .private
            primary = (activity.searchableAttributes, nil, activity.expirationDate, visibility, .activity)
        case nil:
            return nil
        }
        for activityID in (activitiesByItem[id] ?? []).sorted() {
            if let activity = activities[activityID] { merged.append((activity.searchableAttributes, .activity)) }
        }
        let title = primary.attributes.shownTitle
        var sources = SourceSet(CollectionOfOne(primary.source))
        for (_, source) in merged { sources.insert(source) }
        var built = Document(
            uniqueIdentifier: id, title: title, titleLength: title.count,
            contentType: primary.attributes.contentType, domainIdentifier: primary.domain,
            sources: sources, visibility: primary.visibility, attributes: primary.attributes, domains: domainNames
        ).withTokens(from: [primary.attributes] + merged.map(\.0), expiration: Document.seconds(primary.expiry))
        // The document holds its record where it can: the table lets go of
        // it once the document is in its slot (`SearchEngine+Records`).
        if let record = primaryRecord, built.document.canHold(record) { built.document.hold(record) }
        built.rankingHint = primary.attributes.rankingHint ?? 0
        built.names = ExactNames.signatures(of: primary.attributes)
        return built
    }

    /// The attribute set `document` shows: that of what stands for it
    /// (`primary(of:)`), as when it was built. Every change to that rebuilds
    /// the document, so the choice made then still holds. Kept in the
    /// document: finding it by identifier (a hash, a probe, a record copy)
    /// for every result would cost a keystroke more than its ranking.
    func shownAttributes(of document: Document) -> AttributeSet {
        if let attributes = document.attributes { return attributes }
        switch primary(of: document.uniqueIdentifier) {
        case .record(let record): return record.item.attributeSet
        case .activity(let activity): return activity.searchableAttributes
        case nil:
            // Nothing else makes a document.
            assertionFailure("nothing stands for document \(document.uniqueIdentifier)")
            return AttributeSet()
        }
    }

    /// Inserts one document's tokens, a token at a time.
    private mutating func insertTokens(_ insert: PendingInsert) {
        listUnlistedPostings()
        var nodes: [Int32] = []
        var places: [UInt32] = []
        nodes.reserveCapacity(insert.tokens.count)
        places.reserveCapacity(insert.tokens.count)
        // The paths read first, their misses together (`touchPaths`): the
        // walks below then wait on few.
        // A token whose node the pass found goes straight onto it: a split
        // made by an earlier token keeps the lower node's index, so the
        // node still ends the token.
        let spellings = TokenSpellings(insert.tokens)
        let ends = trie.touchPaths(ofEach: spellings)
        for (index, field) in zip(insert.tokens.indices, insert.fields) {
            let posting = TokenTrie.Posting(doc: insert.slot, field: field)
            let (node, place) = ends[index] >= 0
                ? (ends[index], trie.appendPosting(posting, to: ends[index]))
                : spellings.withToken(index) { trie.insertPosting(scalars: $0, posting: posting) }
            nodes.append(node)
            places.append(place)
        }
        nodes.withUnsafeBufferPointer { nodes in
            places.withUnsafeBufferPointer { finishInsert(insert, nodes: nodes, places: $0) }
        }
        countInsert(insert, nodes: nodes, places: places)
    }

    /// Inserts the tokens of many documents (slots already prepared) in one
    /// pass over the trie (`TokenTrie.insertPostings`): the same engine as
    /// inserting them one document at a time, at a fraction of the trie walks.
    private mutating func insertTokens(of batch: [PendingInsert]) {
        let total = batch.withUnsafeBufferPointer { batch in batch.indices.reduce(0) { $0 + batch[$1].tokens.count } }
        // Written in place, each insert read in place by index: a copy of
        // an insert, or a zip, would retain its arrays.
        var filled = 0
        var heads: [UInt64] = []
        var postings: [TokenTrie.Posting] = []
        let tokens = [String](unsafeUninitializedCapacity: total) { tokensOut, tokenCount in
            heads = [UInt64](unsafeUninitializedCapacity: total) { headsOut, headCount in
                postings = [TokenTrie.Posting](unsafeUninitializedCapacity: total) { postingsOut, postingCount in
                    batch.withUnsafeBufferPointer { batch in
                        for index in batch.indices {
                            let slot = batch[index].slot
                            batch[index].tokens.withUnsafeBufferPointer { insertTokens in
                                batch[index].fields.withUnsafeBufferPointer { fields in
                                    precondition(fields.count == insertTokens.count, "a field for every token")
                                    for position in insertTokens.indices {
                                        (tokensOut.baseAddress! + filled).initialize(to: insertTokens[position])
                                        headsOut[filled] = TokenArena.head(of: insertTokens[position])
                                        postingsOut[filled] = .init(doc: slot, field: fields[position])
                                        filled += 1
                                    }
                                }
                            }
                        }
                    }
                    postingCount = filled
                }
                headCount = filled
            }
            tokenCount = filled
        }
        // With nothing cached (a bulk import into a new engine), the insert counts the documents on
        // its walk; lists and maps kept up to date need each change's count at that moment instead.
        makeTopListsUnique()
        let counted = topLists.isEmpty
        // Counted on the walk, a bulk build's postings are listed at its end;
        // counted one document at a time, each needs its place now.
        let listing = !counted || unlistedSlots == nil
        if listing { listUnlistedPostings() }
        let (nodes, places) = trie.insertPostings(
            tokens, heads: heads, postings: postings, countingDocuments: counted, listing: listing)
        // By index: a lazy map would copy each insert (retaining its arrays) for its slot.
        if !listing { for index in batch.indices { unlistedSlots!.append(batch[index].slot) } }
        releaseInBackground(tokens)
        // Each document's share of the nodes and places, and the insert,
        // read in place: no array made or retained a document.
        batch.withUnsafeBufferPointer { batch in
            nodes.withUnsafeBufferPointer { nodes in
                places.withUnsafeBufferPointer { places in
                    var start = 0
                    for index in batch.indices {
                        let span = start..<(start + batch[index].tokens.count)
                        let (insertNodes, insertPlaces) = (
                            UnsafeBufferPointer(rebasing: nodes[span]), UnsafeBufferPointer(rebasing: places[span])
                        )
                        finishInsert(batch[index], nodes: insertNodes, places: insertPlaces)
                        if !counted { countInsert(batch[index], nodes: Array(insertNodes), places: Array(insertPlaces)) }
                        start = span.upperBound
                    }
                }
            }
        }
    }

    /// What every insert does once the document's postings are in the
    /// trie (at `nodes`, `places`): its arena tokens, rank and expiration.
    /// Its distinct-document counts and best lists follow (`countInsert`),
    /// unless the bulk insert counted them with the postings.
    private mutating func finishInsert(
        _ insert: borrowing PendingInsert, nodes: UnsafeBufferPointer<Int32>, places: UnsafeBufferPointer<UInt32>
    ) {
        let slot = insert.slot
        insert.fields.withUnsafeBufferPointer { tokens.set(slot: slot, nodes: nodes, fields: $0, places: places) }
        while ranks.count < documents.count {
            ranks.append(StaticRank())
            rankTiers.append(StaticRank().tier)
            if !expirations.isEmpty { expirations.append(.infinity) }
            engagedSlots.append(false)
        }
        ranks[Int(slot)] = insert.rank
        rankTiers[Int(slot)] = insert.rank.tier
        if insert.expiration != .infinity || !expirations.isEmpty {
            // The first expiring document makes the column, for every slot.
            if expirations.isEmpty { expirations = Array(repeating: .infinity, count: ranks.count) }
            expirations[Int(slot)] = insert.expiration
        }
        engagedSlots[Int(slot)] = insert.engaged
        if insert.expiration != .infinity {
            expiringDocuments.insert(slot)
            expirationFloor = min(expirationFloor, insert.expiration)
        } else {
            expiringDocuments.remove(slot)
        }
    }

    /// An inserted document's distinct-document counts and best lists,
    /// kept up to date one document at a time.
    private mutating func countInsert(_ insert: borrowing PendingInsert, nodes: [Int32], places: [UInt32]) {
        let touched = trie.countDocument(tokenNodes: nodes, fields: insert.fields, delta: 1)
        makeTopListsUnique()
        addToTopLists(insert.slot, touched: touched, tokenNodes: nodes, tokenFields: insert.fields, tokenPlaces: places)
    }

    private mutating func removeTokens(of slot: UInt32) {
        guard documents[Int(slot)] != nil else { return }
        // A build places each identifier once: what it removes was listed before it.
        assert(unlistedSlots?.contains(slot) != true, "a bulk build removes only slots it has not placed")
        let names = nameSignatures(ofSlot: slot)
        changeExactNames { $0.remove(names, slot: slot, namesOf: $1) }
        let nodes = tokens.tokenNodes(of: slot)
        let fields = tokens.tokenFields(of: slot)
        let touched = trie.countDocument(tokenNodes: nodes, fields: fields, delta: -1)
        makeTopListsUnique()
        removeFromTopLists(slot, touched: touched, tokenNodes: nodes, tokenFields: fields)
        for index in tokens.span(of: slot) {
            let node = TokenArena.node(of: tokens.words[index])
            let place = trie.position(of: slot, in: node, place: TokenArena.place(inWord: tokens.words[index]))
            if let moved = trie.removePosting(at: place, from: node) {
                tokens.movePosting(of: moved, in: node, to: place)
            }
        }
        tokens.clear(slot: slot)
    }

    /// Puts the postings of `unlistedSlots` on their lists, and ends the
    /// bulk build's deferral if `endingTheBuild`.
    private mutating func listUnlistedPostings(endingTheBuild: Bool = false) {
        if let slots = unlistedSlots, !slots.isEmpty {
            trie.appendPostings(ofSlots: slots, in: &tokens)
            unlistedSlots = []
        }
        if endingTheBuild { unlistedSlots = nil }
    }

    /// Notes that `identifier` has views, for the query loop's engaged check.
    private mutating func markEngaged(_ identifier: String) {
        settleTables()
        if let slot = slot(of: identifier) { engagedSlots[Int(slot)] = true }
    }

    /// Copies the cache of best lists and field maps before a change if
    /// another copy of this engine shares it (value semantics). An empty
    /// shared cache is replaced too: the other copy would fill it later from
    /// its own trie, and this one would read that.
    private mutating func makeTopListsUnique() {
        if !isKnownUniquelyReferenced(&topLists) {
            topLists = topLists.isEmpty ? TopListCache() : topLists.copy()
        }
    }
}

extension Document {
    /// The distinct tokens of `attributeSets`, each with the best field it occurs in.
    func withTokens(from attributeSets: [AttributeSet], expiration: Double = .infinity) -> BuiltDocument {
        // A document has a few dozen distinct tokens: comparing heads (first
        // eight bytes) in a short array is cheaper than hashing every
        // token's string, a large share of a one-item insert.
        // Past `linearLimit` tokens a dictionary takes over.
        let linearLimit = 64
        var order: [String] = []
        var heads: [UInt64] = []
        var fields: [Field] = []
        var positions: [String: Int]?
        order.reserveCapacity(48)
        heads.reserveCapacity(48)
        fields.reserveCapacity(48)
        for attributes in attributeSets {
            attributes.packed.forEachSearchableText { field, text in
                for token in Tokenizer.indexTokens(utf8: text) {
                    let text = token.text
                    var seen: Int?
                    if let positions {
                        seen = positions[text]
                    } else {
                        let head = TokenArena.head(of: text)
                        seen = heads.indices.first { heads[$0] == head && order[$0] == text }
                        if seen == nil { heads.append(head) }
                    }
                    if let seen {
                        if field < fields[seen] { fields[seen] = field }
                        continue
                    }
                    order.append(text)
                    fields.append(field)
                    if positions != nil {
                        positions![text] = order.count - 1
                    } else if order.count == linearLimit {
                        positions = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
                    }
                }
            }
        }
        return BuiltDocument(document: self, expiration: expiration, pendingTokens: order, pendingFields: fields)
    }
}
