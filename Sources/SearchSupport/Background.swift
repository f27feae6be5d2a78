import Dispatch

/// Frees `value` on another thread. A bulk build's inserting thread is its
/// critical path, and freeing each chunk's spent token arrays (thousands of
/// small arrays) would take its time while the other cores wait for work.
/// (The store frees read rows' bodies so too.)
/// Pass the caller's last reference (`consume`): one kept until later
/// makes the caller's release the last, and the freeing happen there.
public func releaseInBackground<Value: Sendable>(_ value: consuming Value) {
    let box = ReleaseBox(value)
    DispatchQueue.global().async { box.value = nil }
}

/// Holds a value until another thread drops it (the caller keeps no
/// reference to it, so the last release, and the freeing, happen there).
private final class ReleaseBox<Value: Sendable>: @unchecked Sendable {
    // Set once here, cleared once on the other thread.
    var value: Value?

    init(_ value: consuming Value) { self.value = value }
}
