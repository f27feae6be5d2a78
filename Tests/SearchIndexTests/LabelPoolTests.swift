import Foundation
import Testing
@testable import SearchIndex

/// The trie's labels in 8-bit units while at most 128 distinct scalars
/// are not ASCII, else in 16-bit units (`LabelPool`): scalars past U+FFFF
/// go through a table, and past its room through positions, and read
/// back the same in every way the trie reads them.
@Suite struct LabelPoolTests {
    @Test func everyValueReadsBackAtItsPosition() {
        // ASCII, BMP ideographs, astral scalars (emoji, Extension B, Gothic),
        // more distinct astral values than the table holds, and values no
        // scalar takes (a snapshot's bytes are only checked by their sum).
        var values: [UInt32] = Array("lantern 中文 ".unicodeScalars.map(\.value))
        values += [0x1F600, 0x20000, 0x10330, 0x1F600, 0xD800, 0xDFFF, 0xFFFF, 0x11_0000]
        values += (0..<2_500).map { 0x2_0000 + UInt32($0 * 7 % 2_500) }
        values += Array("end".unicodeScalars.map(\.value)) + [0x2_0003]
        let pool = LabelPool(values: values)
        #expect(pool.count == values.count)
        #expect(values.indices.map { pool[$0] } == values)
        #expect(pool.withReader { reader in values.indices.map { reader[$0] } } == values)
        #expect(pool.values(in: 3..<40) == Array(values[3..<40]))
        // Two bytes a position, and a table entry a distinct wide value.
        #expect(pool.memoryBytes < values.count * 2 + 2_100 * 4 + 500 * 16)
    }

    @Test func aMostlyASCIIPoolTakesAByteAPositionAndWidensOnItsWayPastTheTable() {
        // ASCII with a few accented letters and ideographs: one byte a position.
        var values: [UInt32] = Array(String(repeating: "zoë lantern 北极光 café ", count: 200).unicodeScalars.map(\.value))
        var pool = LabelPool(values: values)
        #expect(!pool.isWide)
        #expect(pool.memoryBytes < values.count + 64)
        #expect(values.indices.map { pool[$0] } == values)
        // Appended one by one, the 129th distinct non-ASCII scalar widens
        // the pool; everything before it and after it reads back.
        let more: [UInt32] = (0..<300).map { 0x4E00 + UInt32($0) } + [0x1F600, 0x61]
        for value in more {
            pool.append(value)
            values.append(value)
        }
        #expect(pool.isWide)
        #expect(pool.count == values.count)
        #expect(values.indices.map { pool[$0] } == values)
        #expect(pool.withReader { reader in values.indices.map { reader[$0] } } == values)
        var copied = [UInt32](repeating: 0, count: values.count)
        copied.withUnsafeMutableBufferPointer { pool.copyValues(start: 0, count: values.count, to: $0.baseAddress!) }
        #expect(copied == values)
        let matched = values.withUnsafeBufferPointer { pool.matchLength(start: 0, count: values.count, of: $0, from: 0) }
        #expect(matched == values.count)
        // A pool made whole from the same values is wide at once and equal.
        let made = LabelPool(values: values)
        #expect(made.isWide)
        #expect(values.indices.map { made[$0] } == values)
    }

    /// A trie that starts on ASCII words and later takes hundreds of
    /// distinct ideographs (its pool widening mid-way) finds every token.
    @Test func aTrieWhosePoolWidensFindsEveryToken() {
        var e = engine([item("a/1", title: "harbour lantern")])
        let ideographs = (0..<300).map { String(Character(Unicode.Scalar(0x4E00 + UInt32($0))!)) }
        e.index(ideographs.enumerated().map { item("h/\($0.offset)", title: "\($0.element)塔 quay") })
        #expect(e.ids("harbour") == ["a/1"])
        #expect(e.ids(ideographs[0] + "塔") == ["h/0"])
        #expect(e.ids(ideographs[299] + "塔") == ["h/299"])
        #expect(e.ids("quay").count == 50)
    }

    /// Tokens of astral scalars (Extension B ideographs, Gothic letters),
    /// more of them than the table holds: found exactly and with a typo,
    /// spelled out in explanations, and the same after a snapshot.
    @Test func tokensOfAstralScalarsAreFoundSpelledAndSaved() throws {
        let gothic = "\u{10330}\u{10331}\u{10332}\u{10333}"
        var items = (0..<2_200).map { n in
            item("cjk/\(n)", title: "lantern \(String(Character(Unicode.Scalar(0x2_0000 + UInt32(n))!)))")
        }
        items.append(item("gothic/1", title: "\(gothic)ab harbour"))
        items.append(item("gothic/2", title: "\(gothic)xy quay"))
        let e = engine(items)
        let late = String(Character(Unicode.Scalar(0x2_0000 + 2_150)!))
        #expect(e.ids(late) == ["cjk/2150"])
        #expect(e.ids("lantern " + late) == ["cjk/2150"])
        #expect(Set(e.ids(gothic)) == ["gothic/1", "gothic/2"])
        // One typo in the middle of the Gothic run.
        let typo = "\u{10330}\u{10331}\u{10334}\u{10333}ab"
        #expect(e.ids(typo).first == "gothic/1")
        let explained = e.search(SearchQuery(late, limit: 5, now: referenceNow, explainsMatches: true))
        #expect(explained.results.first?.explanation.matches.first?.token == late)
        let loaded = try SnapshotTests.load(try SnapshotTests.bytes(of: e))
        for query in [late, "lantern " + late, gothic, typo, "harbour"] {
            #expect(loaded.ids(query) == e.ids(query), "\(query)")
        }
        // Deleting and adding astral tokens after the load keeps them readable.
        var changed = loaded
        changed.deleteItems(identifiers: ["gothic/2"])
        changed.index([item("gothic/3", title: "\(gothic)zz tide")])
        #expect(Set(changed.ids(gothic)) == ["gothic/1", "gothic/3"])
    }
}
