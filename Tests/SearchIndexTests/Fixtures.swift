import Foundation
@testable import SearchIndex
@testable import SearchSnapshot

/// Small helpers to build items and engines in tests.
func item(
    _ id: String, title: String? = nil, domain: String? = nil, description: String? = nil,
    keywords: [String] = [], emails: [String] = [], phones: [String] = [], extras: [String: String] = [:],
    url: String? = nil, expires: Date? = nil, visibility: Visibility = .public, displayName: String? = nil,
    hint: Double? = nil
) -> SearchableItem {
    SearchableItem(
        uniqueIdentifier: id, domainIdentifier: domain, expirationDate: expires,
        attributeSet: AttributeSet(
            contentType: "public.item", title: title, displayName: displayName, contentDescription: description,
            keywords: keywords, phoneNumbers: phones, emailAddresses: emails, url: url, extras: extras,
            rankingHint: hint),
        visibility: visibility)
}

/// `count` items `prefix/0`, `prefix/1`, … titled by `title`, each expired
/// a minute before `referenceNow` when `expired`.
func items(_ count: Int, _ prefix: String, expired: Bool = false, title: (Int) -> String) -> [SearchableItem] {
    (0..<count).map {
        item("\(prefix)/\($0)", title: title($0), expires: expired ? referenceNow.addingTimeInterval(-60) : nil)
    }
}

/// An engine over `items` answering from field maps (of subtrees with at
/// least `mapMinimum` documents, whatever the index's size) and best
/// lists (of subtrees above 20 documents), warmed; and a copy made before,
/// which neither scans nor reads lists: it enumerates.
func mappedAndEnumeratingEngines(
    _ items: [SearchableItem], mapMinimum: Int
) -> (mapped: SearchEngine, enumerating: SearchEngine) {
    var mapped = engine(items)
    var enumerating = mapped
    enumerating.tuning.scanEnabled = false
    enumerating.topListThreshold = .max
    mapped.tuning.fieldMapQueryMinimumSlots = 0
    mapped.tuning.fieldMapMinimumDocuments = mapMinimum
    mapped.topListThreshold = 20
    mapped.warmTopLists()
    return (mapped, enumerating)
}

func engine(_ items: [SearchableItem]) -> SearchEngine {
    var engine = SearchEngine()
    engine.index(items)
    return engine
}

let referenceNow = Date(timeIntervalSince1970: 1_800_000_000)

extension SearchEngine {
    /// `node`'s subtree field map a byte a slot, `noField` for none.
    func subtreeFieldMap(_ node: Int32) -> [UInt8] { fieldMap(ofSubtree: node).unpacked }

    /// `node`'s own postings' field map a byte a slot, `noField` for none.
    func ownFieldMap(_ node: Int32) -> [UInt8] { fieldMap(ofOwnPostings: node).unpacked }

    /// Identifiers of the results for `text`, in order.
    func ids(_ text: String, limit: Int = 50, domains: [String] = [], now: Date = referenceNow) -> [String] {
        search(SearchQuery(text, limit: limit, domains: domains, now: now)).results.map(\.uniqueIdentifier)
    }
}

extension TermCodeMap {
    /// `merge` of maps given a byte a slot (`SearchEngine.noField` for
    /// none), packed first.
    static func merge(_ fieldMaps: [(map: [UInt8], base: UInt8)], into codes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        merge(fieldMaps.map { (FieldMap(unpacked: $0.map), $0.base) }, into: codes)
    }
}

extension SearchEngine {
    /// Waits for the owned copies a snapshot load makes in the background.
    func waitForLoadCopies() { (pendingTables?.tables as? PendingTables)?.copiesGroup.wait() }
}
