import Foundation
import TestSupport
import Testing
@testable import SearchIndex
@testable import SearchSnapshot
@testable import SearchModel

/// The pieces a snapshot is read with: each record's attribute set from
/// the run of sets, and the large arrays copied on every core.
@Suite struct SnapshotReaderTests {
    /// `items` written as the records section writes them: their sets in one
    /// run, then each record naming where its set lies (the last one's
    /// place moved by `shift`).
    private func written(_ items: [SearchableItem], shift: Int = 0) throws -> (sets: [UInt8], records: [UInt8]) {
        var sets: [UInt8] = []
        for item in items {
            item.attributeSet.packed.withBytesAndTail { bytes, tail in
                let word = PackedStorage.recordWord(count: bytes.count, tail: tail) ?? .max
                withUnsafeBytes(of: word) { sets.append(contentsOf: $0) }
                sets.append(contentsOf: bytes)
            }
        }
        var records: [UInt8] = []
        var out = SnapshotWriter { records.append(contentsOf: $0) }
        var setStart = 0
        for (offset, item) in items.enumerated() {
            if offset == items.count - 1 { setStart += shift }
            try out.write(UInt8(0))
            try out.write(item, attributesAt: &setStart)
        }
        try out.flush()
        return (sets, records)
    }

    /// The records read back, each passed to `check` while the bytes they
    /// may borrow (with an `owner`) are alive.
    private func read(
        _ written: (sets: [UInt8], records: [UInt8]), count: Int, verified: Bool, owner: (AnyObject & Sendable)? = nil,
        check: ([IndexRecord]) -> Void = { _ in }
    ) throws(SnapshotError) -> [IndexRecord] {
        var records: [IndexRecord] = []
        var failure: SnapshotError?
        written.sets.withUnsafeBytes { sets in
            written.records.withUnsafeBytes { bytes in
                var input = SnapshotReader(bytes, owner: owner, verified: verified)
                do throws(SnapshotError) {
                    for _ in 0..<count { records.append(try input.readRecord(attributesIn: sets)) }
                } catch {
                    failure = error
                }
                check(records)
            }
        }
        if owner != nil { return [] }
        if let failure { throw failure }
        return records
    }

    @Test(arguments: [false, true])
    func recordsReadTheirSetsFromTheRun(verified: Bool) throws {
        let items = SnapshotTests().richItems(3, count: 40)
        let records = try read(try written(items), count: items.count, verified: verified)
        #expect(records.map(\.item) == items)
        #expect(records.allSatisfy { $0.source == .item })
    }

    /// Read in place, the sets of neighbouring records share a window
    /// over the run (one object for many sets); a set too large for a
    /// record, or whose record word disagrees with its record, is read
    /// apart, and a damaged one is refused unless the file was verified.
    @Test(arguments: [false, true])
    func setsReadInPlaceShareWindowsOverTheRun(verified: Bool) throws {
        final class Owner: Sendable {}
        var items = SnapshotTests().richItems(5, count: 60)
        items[7].attributeSet.contentDescription = String(repeating: "long ", count: 8_000)
        let written = try written(items)
        _ = try read(written, count: items.count, verified: verified, owner: Owner()) { records in
            #expect(records.map(\.item) == items)
            let storages = Set(records.map { ObjectIdentifier($0.item.attributeSet.packed.storage) })
            #expect(storages.count == 2)
            #expect(records.allSatisfy { $0.item.attributeSet.packed.isBorrowed })
        }
        // A record word that disagrees: that set is read apart, still in place.
        var disagreeing = written
        let firstCount = items[0].attributeSet.packed.withBytes(\.count)
        disagreeing.sets[4 + firstCount] ^= 0x01
        _ = try read(disagreeing, count: 2, verified: verified, owner: Owner()) { records in
            #expect(records.map(\.item) == Array(items.prefix(2)))
            #expect(Set(records.map { ObjectIdentifier($0.item.attributeSet.packed.storage) }).count == 2)
        }
    }

    @Test(arguments: [false, true])
    func aSetPlacedOutsideTheRunIsRefused(verified: Bool) throws {
        let items = SnapshotTests().richItems(4, count: 3)
        let misplaced = try written(items, shift: 1)
        // The last set now ends one byte past the run.
        #expect(throws: SnapshotError(.malformed, "an attribute set lies outside the run of sets")) {
            try read(misplaced, count: items.count, verified: verified)
        }
        let far = try written(items, shift: Int(UInt32.max) + 5)
        #expect(throws: SnapshotError(.malformed, "an attribute set lies outside the run of sets")) {
            try read(far, count: items.count, verified: verified)
        }
        // Unmoved, the same records read.
        #expect(try read(try written(items), count: items.count, verified: verified).map(\.item) == items)
    }

    /// Large arrays are copied by every core, each its own part: the parts
    /// must meet exactly, from any alignment of the source.
    @Test(arguments: [0, 1, 3])
    func aLargeArrayIsCopiedWhole(misalignment: Int) {
        let count = SnapshotReader.parallelCopyMinimum / 4 + 1_001
        var source = [UInt8](repeating: 0, count: count * 4 + misalignment)
        var random = SeededGenerator(seed: 8)
        for index in source.indices { source[index] = UInt8.random(in: 0...255, using: &random) }
        let copied: [UInt32] = source.withUnsafeBytes { SnapshotReader.array(from: $0.baseAddress! + misalignment, count: count) }
        let expected: [UInt32] = source.withUnsafeBytes { bytes in
            (0..<count).map { bytes.loadUnaligned(fromByteOffset: misalignment + $0 * 4, as: UInt32.self) }
        }
        #expect(copied.count == count)
        #expect(copied == expected)
    }
}
