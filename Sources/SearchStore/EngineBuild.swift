import Foundation
import SearchIndex

/// An engine changed on a thread of its own while the caller goes on: a
/// large batch's build runs on one core while the store writes the batch
/// on the other.
final class EngineBuild: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Written only by the build's thread before `finished` is signalled,
    /// read only after `wait` has seen that signal.
    private var engine: SearchEngine?
    private var result: SearchEngine?

    /// Starts `change` on `engine`; the caller gives up its reference, so
    /// the change is made in place rather than on a copy.
    init(_ engine: consuming SearchEngine, change: @escaping @Sendable (inout SearchEngine) -> Void) {
        self.engine = engine
        let thread = Thread { [self] in
            var built = self.engine.take()!
            change(&built)
            result = built
            finished.signal()
        }
        thread.name = "searchlight.engine-build"
        // Deep tries recurse: the default secondary stack is small.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The changed engine, once the change is done.
    func wait() -> SearchEngine {
        finished.wait()
        finished.signal()
        return result!
    }
}
