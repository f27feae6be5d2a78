import Testing
@testable import SearchIndex

/// A million items name a handful of domains: each name is kept once, not
/// once an item (observable as shared UTF-8 storage).
@Suite struct InterningTests {
    static func storage(of string: String) -> UnsafeRawPointer? {
        var copy = string
        return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    /// A long string built at run time, so no two calls share a literal.
    static func made(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }

    @Test func equalStringsComeBackAsOne() {
        var interner = StringInterner(limit: 2)
        let first = interner.intern(Self.made("com.example.colleagues.employee"))
        let second = interner.intern(Self.made("com.example.colleagues.employee"))
        #expect(first == second && Self.storage(of: first) == Self.storage(of: second))
        // Past the limit, new strings come back as given (equal, not shared),
        // and those already kept are still shared.
        _ = interner.intern(Self.made("com.example.photos.photo"))
        let third = interner.intern(Self.made("com.example.photos.album"))
        let fourth = interner.intern(Self.made("com.example.photos.album"))
        #expect(third == fourth && Self.storage(of: third) != Self.storage(of: fourth))
        #expect(Self.storage(of: interner.intern(Self.made("com.example.colleagues.employee"))) == Self.storage(of: first))
    }

    @Test func aLoadedSnapshotKeepsEachDomainOnce() throws {
        var engine = SearchEngine()
        engine.index((0..<40).map { index in
            SearchableItem(
                uniqueIdentifier: "item/\(index)", domainIdentifier: Self.made(index % 2 == 0 ? "com.example.colleagues.employee" : "com.example.photos.photo"),
                attributeSet: AttributeSet(title: "Item \(index)"))
        })
        let loaded = try SnapshotTests.load(try SnapshotTests.bytes(of: engine))
        let domains = Dictionary(grouping: loaded.records.values.compactMap(\.item.domainIdentifier), by: { $0 })
        #expect(domains.count == 2)
        for (_, copies) in domains {
            #expect(Set(copies.map { Self.storage(of: $0) }).count == 1)
        }
    }
}
