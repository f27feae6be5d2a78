import Foundation

/// How long a read from memory takes on this machine at the moment: a
/// pointer chase through one shuffled cycle of 64 MB, each read's address
/// the value of the one before, so that no two overlap.
///
/// The benchmark's machine is shared: from one minute to the next the same
/// read takes longer or shorter, and every timing of a run moves with it. A
/// report that carries this figure, taken as it starts and as it ends, says
/// which kind of minute it was made in, and so which runs compare.
/// 64 MB is twice the benchmark machine's last-level cache: most steps are
/// a miss there and in the TLB, as a keystroke's first reads of an index are.
enum MemoryLatencyProbe {
    static let bytes = 64 << 20
    static let steps = 2_000_000

    /// Nanoseconds a step, to a tenth.
    static func nanosecondsPerRead() -> Double {
        let count = bytes / MemoryLayout<Int>.stride
        // Sattolo's shuffle: a permutation that is a single cycle, so the
        // chase visits every element before it comes back.
        var next = Array(0..<count)
        var generator = SplitMix64()
        next.withUnsafeMutableBufferPointer { next in
            for index in stride(from: count - 1, to: 0, by: -1) {
                next.swapAt(index, Int.random(in: 0..<index, using: &generator))
            }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let last = next.withUnsafeBufferPointer { next in
            var place = 0
            for _ in 0..<steps { place = next[place] }
            return place
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        // The chase's end is used, so that it is not left out as dead code.
        precondition(last >= 0)
        return (Double(elapsed) / Double(steps) * 10).rounded() / 10
    }

    /// The probe at the start of a report: nil where the process's peak
    /// could not be set back after it (`resetPeakResidentSet`).
    static func atStart() -> Double? {
        guard FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs") else { return nil }
        let nanoseconds = nanosecondsPerRead()
        return resetPeakResidentSet() ? nanoseconds : nil
    }

    /// Sets the process's peak resident set back to what it holds now
    /// (`/proc/self/clear_refs`), so that a probe's 64 MB is not the peak
    /// a report gives; false where that cannot be done.
    static func resetPeakResidentSet() -> Bool {
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? file.close() }
        return (try? file.write(contentsOf: Data("5".utf8))) != nil
    }

    /// SplitMix64, seeded alike every time: the system generator is a
    /// system call a number, and the shuffle draws eight million.
    private struct SplitMix64: RandomNumberGenerator {
        private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }
}
