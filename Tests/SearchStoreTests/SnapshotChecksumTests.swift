import Synchronization
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

    @Test func everyWordIsReportedSummedOnceAndTheValueHolds() {
        // Several stretches a worker (a stretch is 8 MB), and a ragged end.
        let count = 40 * 1_024 * 1_024 + 13
        var bytes = [UInt8](repeating: 0, count: count)
        for index in stride(from: 0, to: count, by: 4_093) { bytes[index] = UInt8(truncatingIfNeeded: index) }
        bytes.withUnsafeBytes { bytes in
            let base = Int(bitPattern: bytes.baseAddress!)
            let reported = Mutex<[Range<Int>]>([])
            let whole = SnapshotChecksum.of(bytes, workers: 2)
            let told = SnapshotChecksum.of(bytes, workers: 2) { stretch in
                let start = Int(bitPattern: stretch.baseAddress!) - base
                reported.withLock { $0.append(start..<(start + stretch.count)) }
            }
            #expect(told.value == whole.value)
            let ranges = reported.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound }
            #expect(ranges.count > 4)
            // Back to back from the first byte to the last whole word, none twice.
            #expect(ranges.first?.lowerBound == 0)
            #expect(ranges.last?.upperBound == count / 8 * 8)
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
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
