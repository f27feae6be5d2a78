import TestSupport
import Testing
@testable import SearchStore

/// The checksum a load computes on every core must be the one the writer
/// computed streaming, piece by piece.
@Suite struct SnapshotChecksumTests {
    @Test func wordsSummedInPartsGiveTheStreamedValue() {
        var random = SeededGenerator(seed: 21)
        for count in [0, 1, 7, 8, 9, 4_095 * 8, 4_096 * 8 + 3, 100_003, 262_144 * 8 + 5] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            var streamed = SnapshotChecksum()
            // In uneven pieces, as the writer's chunks come.
            var start = 0
            while start < count {
                let end = min(count, start + Int.random(in: 1...70_000, using: &random))
                bytes[start..<end].withUnsafeBytes { streamed.update($0) }
                start = end
            }
            for workers in 1...4 {
                let parted = bytes.withUnsafeBytes { SnapshotChecksum.of($0, workers: workers) }
                #expect(parted.value == streamed.value, "\(count) bytes, \(workers) workers")
            }
        }
    }

    @Test func aChangedOrMovedWordChangesTheValue() {
        var bytes = [UInt8](repeating: 0, count: 64 * 1_024)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        let original = bytes.withUnsafeBytes { SnapshotChecksum.of($0, workers: 2).value }
        var changed = bytes
        changed[40_000] ^= 1
        var swapped = bytes
        swapped.swapAt(8, 40_000)
        #expect(changed.withUnsafeBytes { SnapshotChecksum.of($0, workers: 2).value } != original)
        #expect(swapped.withUnsafeBytes { SnapshotChecksum.of($0, workers: 2).value } != original)
    }
}
