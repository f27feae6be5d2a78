import Foundation
import Testing
@testable import SearchIndex
import Synchronization
@testable import SearchSupport

/// `ParallelWork.both` and the worker behind it: every part runs once,
/// its writes are seen when the call returns, and the worker does take
/// parts (so two-part keystrokes do run on two cores).
@Suite(.serialized) struct PairedWorkerTests {
    /// Counters two threads write to, each part its own.
    final class Counts: @unchecked Sendable {
        var first = 0
        var second = 0
    }

    @Test func eachPartRunsOnceAndIsSeenOnReturn() {
        let counts = Counts()
        for round in 0..<5_000 {
            // Now and then past the spin window, so that the worker has gone to sleep.
            if round % 1_000 == 999 { usleep(UInt32(PairedWorker.spinWindow / 1_000) + 5_000) }
            ParallelWork.both({ counts.first += 1 }, { counts.second += 1 })
            #expect(counts.first == round + 1 && counts.second == round + 1)
        }
    }

    @Test func theWorkerTakesTheSecondPartWhileTheFirstRuns() throws {
        try #require(PairedWorker.shared != nil, "one core: both parts run on the caller")
        let caller = pthread_self()
        var (concurrent, rounds) = (0, 0)
        // Another suite's bulk build may hold the worker for seconds (its
        // parts then run on their caller): rounds go on until the worker
        // has taken 25 parts, for at most a minute.
        let deadline = Date().addingTimeInterval(60)
        while concurrent < 25, Date() < deadline {
            rounds += 1
            if rounds % 10 == 9 { usleep(UInt32(PairedWorker.spinWindow / 1_000) + 5_000) }
            let started = Atomic<Bool>(false)
            nonisolated(unsafe) var ranElsewhere = false
            ParallelWork.both({
                // Waits (a while at most) for the second part to begin elsewhere.
                let deadline = DispatchTime.now().uptimeNanoseconds + 50_000_000
                while !started.load(ordering: .acquiring), DispatchTime.now().uptimeNanoseconds < deadline {}
            }, {
                ranElsewhere = pthread_equal(pthread_self(), caller) == 0
                started.store(true, ordering: .releasing)
            })
            if ranElsewhere { concurrent += 1 }
        }
        #expect(concurrent >= 25, "the worker took \(concurrent) of \(rounds) second parts")
    }

    @Test func nestedCallsRunInline() {
        let counts = Counts()
        let inner = Counts()
        for _ in 0..<500 {
            ParallelWork.both({
                counts.first += 1
                ParallelWork.both({ inner.first += 1 }, { inner.first += 1 })
            }, {
                counts.second += 1
                ParallelWork.both({ inner.second += 1 }, { inner.second += 1 })
            })
        }
        #expect(counts.first == 500 && counts.second == 500)
        #expect(inner.first == 1_000 && inner.second == 1_000)
    }

    @Test func callersOnManyThreadsEachGetTheirOwnParts() {
        let sums = (0..<8).map { _ in Counts() }
        DispatchQueue.concurrentPerform(iterations: 8) { caller in
            let counts = sums[caller]
            for i in 1...2_000 {
                ParallelWork.both({ counts.first += i }, { counts.second += 2 * i })
            }
        }
        for counts in sums {
            #expect(counts.first == 2_001_000 && counts.second == 4_002_000)
        }
    }
}
