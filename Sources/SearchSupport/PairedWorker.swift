import Foundation
import Synchronization

/// A thread that takes the second of a keystroke's two parts of work, and
/// keeps looking for the next one for a while before it sleeps.
///
/// `DispatchQueue.concurrentPerform` wakes a sleeping pool thread, and on
/// a virtual machine whose other core has gone idle that wake-up is slow,
/// often as slow as the part itself, and often the caller ends up running
/// both parts: a keystroke's parts are short, and the wake-up took what
/// sharing them saved. A spinning thread begins a part within a few
/// microseconds.
///
/// It spins for `spinWindow` after its last part, then sleeps until the
/// next: typing costs up to that much of one core per keystroke, and an
/// idle program nothing.
///
/// States, one at a time:
/// ```
///  idle or asleep ─caller─▶ claimed ─caller─▶ posted ─worker─▶ running ─worker─▶ done ─caller─▶ idle
///                                               └─caller takes it back─▶ claimed ─caller─▶ idle
///  idle ─worker, its window over─▶ asleep      (a post from asleep signals it awake)
/// ```
/// A caller that finds it in any other state (another caller's part, or
/// a part of its own nested inside one) runs both parts itself.
final class PairedWorker: @unchecked Sendable {
    /// The process's worker, none on one core.
    static let shared: PairedWorker? = ParallelWork.workerCount > 1 ? PairedWorker() : nil

    /// How long the worker looks for the next part before it sleeps.
    static let spinWindow: UInt64 = 5_000_000

    private enum State {
        static let idle = 0, posted = 1, running = 2, done = 3, asleep = 4, claimed = 5
    }

    private let state = Atomic<Int>(State.idle)
    /// Written by the caller before `posted`, read by the worker after it.
    private nonisolated(unsafe) var part: (() -> Void)?
    private let wake = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "searchlight.paired-worker"
        thread.start()
    }

    /// Runs `first` here and `second` on the worker at once, or both here
    /// when the worker is busy; returns when both are done.
    func run(_ first: () -> Void, _ second: () -> Void) {
        withoutActuallyEscaping(second) { second in
            var wasAsleep = false
            if !state.compareExchange(expected: State.idle, desired: State.claimed, ordering: .acquiring).exchanged {
                guard state.compareExchange(expected: State.asleep, desired: State.claimed, ordering: .acquiring).exchanged else {
                    first()
                    second()
                    return
                }
                wasAsleep = true
            }
            part = second
            state.store(State.posted, ordering: .releasing)
            if wasAsleep { wake.signal() }
            first()
            // Not taken yet: the worker is slow to come, and this thread is free.
            if state.compareExchange(expected: State.posted, desired: State.claimed, ordering: .acquiring).exchanged {
                second()
            } else {
                var spins = 0
                while state.load(ordering: .acquiring) != State.done {
                    // Should the worker have lost its core, this one is offered to it.
                    spins &+= 1
                    if spins & 1023 == 0 { sched_yield() }
                }
            }
            part = nil
            state.store(State.idle, ordering: .releasing)
        }
    }

    /// The posted part, its reference let go before this returns (the
    /// caller's `withoutActuallyEscaping` checks that none is left).
    @inline(never)
    private func runPart() { part.unsafelyUnwrapped() }

    private func serve() {
        var lastPart = DispatchTime.now().uptimeNanoseconds
        var spins = 0
        while true {
            if state.load(ordering: .relaxed) == State.posted,
                state.compareExchange(expected: State.posted, desired: State.running, ordering: .acquiring).exchanged
            {
                runPart()
                state.store(State.done, ordering: .releasing)
                lastPart = DispatchTime.now().uptimeNanoseconds
                continue
            }
            // Now and then: the core is offered to any other thread that
            // wants it (a load's table builder, an import), and the clock
            // read, which costs more than a look at the state.
            spins &+= 1
            guard spins & 1023 == 0 else { continue }
            sched_yield()
            guard DispatchTime.now().uptimeNanoseconds - lastPart > Self.spinWindow else { continue }
            if state.compareExchange(expected: State.idle, desired: State.asleep, ordering: .relaxed).exchanged {
                wake.wait()
                lastPart = DispatchTime.now().uptimeNanoseconds
            }
        }
    }
}
