import TestSupport
import Testing
@testable import SearchSupport

/// The 4-byte table finds every slot it holds under its key's hash through
/// inserts, removals that shift buckets back over runs of equal hashes,
/// and growth, as a model of (hash, slot) pairs says.
@Suite struct TaggedBucketsTests {
    @Test(arguments: [1, 2, 3])
    func theTableHoldsWhatTheModelHolds(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        // Few distinct hashes (long runs of equal ones), some sharing a tag.
        let hashes: [UInt32] = (0..<12).map { _ in UInt32.random(in: 0...UInt32.max, using: &generator) }
        var hashOfSlot: [UInt32: UInt32] = [:]
        var table = TaggedBuckets()
        func hashOf(_ slot: UInt32, _ tag: UInt8) -> UInt32 { hashOfSlot[slot]! }
        func tag(_ hash: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: hash) & 0x0F }
        for step in 0..<4_000 {
            let slot = UInt32.random(in: 0..<300, using: &generator)
            if let hash = hashOfSlot[slot] {
                guard case .found(let bucket, _) = table.probe(hash: hash, tag: tag(hash), isKey: { $0 == slot }) else {
                    Issue.record("step \(step): slot \(slot) not found")
                    return
                }
                table.empty(bucket, hashOf: hashOf)
                hashOfSlot[slot] = nil
            } else {
                let hash = hashes.randomElement(using: &generator)!
                table.reserve(for: table.count + 1, hashOf: hashOf)
                guard case .vacant(let bucket) = table.probe(hash: hash, tag: tag(hash), isKey: { _ in false }) else { return }
                table.fill(bucket, tag: tag(hash), slot: slot)
                hashOfSlot[slot] = hash
            }
            #expect(table.count == hashOfSlot.count)
        }
        for hash in hashes {
            let found = table.slots(hash: hash, tag: tag(hash)).filter { hashOfSlot[$0] == hash }
            #expect(found.sorted() == hashOfSlot.filter { $0.value == hash }.keys.sorted())
        }
    }
}
