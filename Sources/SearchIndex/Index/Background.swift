import Dispatch

/// Work started on another thread now, its value waited for later.
final class Background<Value: Sendable>: @unchecked Sendable {
    // Written once on the worker before `group` is left; read only after
    // waiting on it.
    private var result: Value?
    private let group = DispatchGroup()

    init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async(group: group) { self.result = work() }
    }

    /// The work's value, once it is done.
    func value() -> Value {
        group.wait()
        return result!
    }
}
