import Foundation
import Glibc
import TestSupport
import Testing
@testable import SearchStore

/// The checksum a load computes from the file on every core must be the
/// one the writer computed streaming, piece by piece.
@Suite struct SnapshotChecksumTests {
    /// The checksum of `bytes` as a load reads them: from a file, after
    /// `offset` other bytes (a snapshot's header), on `workers` threads.
    private func checksumOfFile(_ bytes: [UInt8], offset: Int = 0, workers: Int, readingMore extra: Int = 0) -> SnapshotChecksum? {
        let path = scratchFolder("checksum").appendingPathComponent("file").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0xA5, count: offset) + Data(bytes))
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        return SnapshotChecksum.of(descriptor: descriptor, offset: offset, count: bytes.count + extra, workers: workers)
    }

    @Test func wordsReadInPartsGiveTheStreamedValue() {
        var random = SeededGenerator(seed: 21)
        // Ragged ends, parts smaller than a word, and several 256 KB pieces a worker.
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
                for offset in [0, 16, 21] {
                    let read = checksumOfFile(bytes, offset: offset, workers: workers)
                    #expect(read?.value == streamed.value, "\(count) bytes after \(offset), \(workers) workers")
                }
            }
        }
    }

    @Test func aFileShorterThanTheCountGivesNoChecksum() {
        let bytes = [UInt8](repeating: 7, count: 100_000)
        #expect(checksumOfFile(bytes, workers: 2) != nil)
        #expect(checksumOfFile(bytes, workers: 2, readingMore: 1) == nil)
        #expect(checksumOfFile(bytes, workers: 2, readingMore: 4_096) == nil)
    }

    @Test func aChangedOrMovedWordChangesTheValue() {
        var bytes = [UInt8](repeating: 0, count: 64 * 1_024)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        let original = checksumOfFile(bytes, workers: 2)?.value
        var changed = bytes
        changed[40_000] ^= 1
        var swapped = bytes
        swapped.swapAt(8, 40_000)
        #expect(original != nil)
        #expect(checksumOfFile(changed, workers: 2)?.value != original)
        #expect(checksumOfFile(swapped, workers: 2)?.value != original)
    }
}
