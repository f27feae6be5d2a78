/// Every threshold that chooses between two ways of doing the same work,
/// each with the reason for its value.
///
/// None changes an answer, only its cost: the strategies and their
/// shortcuts give the same results (the differential tests hold them to
/// enumeration). The per-engine values are kept in snapshots where they
/// were tuned for the index, and tests set them small to reach a path on
/// a small index; the static ones are the same for every index.
package struct EngineTuning: Sendable, Hashable {
    // MARK: Per engine (set by tests; the first six are saved in snapshots)

    /// Whether queries may scan the token arena (`SearchEngine+Scan`); off,
    /// they enumerate with node caches.
    package var scanEnabled = true
    /// Subtrees with more documents than this keep best lists; nil follows
    /// the index's size (`SearchEngine.sizedTopListThreshold`).
    var topListThreshold: Int?
    /// Subtrees with at least this many documents (and one slot in ten)
    /// keep a field map: fewer maps would leave broad terms to postings.
    package var fieldMapMinimumDocuments = 4_096
    /// Indexes with fewer slots never answer from field maps: a scan of a
    /// small index is quick, and maps would only cost memory.
    package var fieldMapQueryMinimumSlots = 32_768
    /// A driving term with at most this many postings is gathered by
    /// sorting them; with more, through a byte and a bit a slot (`SlotScratch`),
    /// which reads eight slots at a time.
    package var sortedGatherLimit = 4_096
    /// From this many slots a pass over every slot is shared among the
    /// cores: below it, handing work over costs more than it saves.
    package var parallelScanMinimum = 32_768
    /// From this many postings marked, a one-term count runs on the other
    /// core beside the ranking: from here marking costs well above handing it over.
    var sharedCountMinimum = 16_384
    /// Slots a field-map query sums at a time, all its terms in turn, so
    /// the sums stay in the core's first cache.
    var rulesChunkSize = 4_096
    /// From this many postings, a code map's small nodes are marked by two
    /// cores at once (`sharedTermCodeMap`).
    var sharedMarkingMinimum = 65_536
    /// A batch of at least this many items, into an index without a
    /// dictionary, trains one (`TextDictionary`): a smaller sample codes badly.
    var textDictionaryMinimumBatch = 16_384
    /// Whether a batch into an empty engine skips the record table
    /// (`indexIntoEmpty`); off only for tests, which compare the two ways.
    var indexesIntoEmptyDirectly = true

    /// From this many candidates the scan is shared among the cores: a
    /// candidate costs more than a slot of a pass (cache misses), while
    /// handing half over costs the same either way.
    var parallelCandidateMinimum: Int { parallelScanMinimum / 4 }
    /// From this many postings a one-term count's marking is shared
    /// (`SharedMarking`): fewer than a count handed whole, as this thread
    /// makes its results meanwhile and then joins.
    var sharedCountMarkingMinimum: Int { sharedCountMinimum / 8 }

    // MARK: Every index

    /// A term reaching postings in one slot in this many or more is read
    /// from code maps with its query's other broad terms: below it the
    /// scan, which reads only its postings, is the cheaper.
    static let fieldMapQueryShare = 64
    /// Postings a count marks one by one, a bit a slot, before a code map
    /// counts instead: a bit a slot is cheaper than a byte a slot.
    static let countingMarkLimit = 262_144
    /// From this many postings offered, a subtree's documents are told
    /// apart by a byte a slot rather than a hash table.
    static let bestFieldByteMapMinimum = 4_096
    /// A probed term is first matched against the candidates by its
    /// postings when it has at most this many per candidate.
    static let prefilterRatio = 16
    /// Blocks at the rule bound beyond this many for each result wanted are
    /// bounded again with their slots' tiers (`tieredBlocks`).
    static let tierRefinementRatio = 2
    /// Maps below a subtree without one that may stand for it: each more
    /// costs every code map a merge and every count a test per posting.
    static let coverMapLimit = 1
    /// Runs that must be left for the thread that made the results to
    /// join a shared marking: joining costs a set of its own and a merge.
    static let joiningRuns = 16
    /// Field maps a term may be read from (`TermCodeMap.mapped`): each is a
    /// pass over its bytes for every run of slots, a code map one.
    static let mappedTermMapLimit = 2
    /// Postings beside those maps a term may have: each lookup tests a filter of them first.
    static let mappedTermExtraLimit = 256
    /// A term that reaches more trie nodes than this (a long term with
    /// typos in a dense part of the trie) is not probed but enumerated.
    static let probeNodeLimit = 2_048
    /// From this many trie nodes a fuzzy walk is shared between two threads.
    static let splitWalkMinimumNodes = 200_000
    /// Documents a batch must build for the cores to share the building;
    /// fewer are built on the caller's thread.
    static let sharedBuildMinimum = 128
    /// Trie nodes from which a snapshot's are built on every core.
    package static let parallelNodeMinimum = 1_024
}
