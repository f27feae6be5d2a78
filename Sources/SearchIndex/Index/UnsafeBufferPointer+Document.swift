extension UnsafeBufferPointer<Document?> {
    /// Calls `body` with the document in `slot` where it lies, or returns
    /// nil for an empty slot.
    ///
    /// Why: `documents[slot]!` copies the whole document before reading
    /// one field of it, a retain and a release of its identifier, domain
    /// and set. An optional document is the
    /// document's own bytes (its empty case is one of the identifier's
    /// spare bit patterns; `RecordKeepingTests` checks the sizes agree),
    /// so a present one is read through a pointer to `Document`.
    @inline(__always)
    func withDocument<R>(at slot: Int, _ body: (borrowing Document) -> R) -> R? {
        precondition(slot >= 0 && slot < count, "slot out of range")
        let element = baseAddress.unsafelyUnwrapped + slot
        guard element.pointee != nil else { return nil }
        return UnsafeRawPointer(element).withMemoryRebound(to: Document.self, capacity: 1) { body($0.pointee) }
    }

    /// `withDocument` for a slot known to hold one (a ranked result's):
    /// its answer comes back as it is, not in an optional the caller
    /// unwraps (and copies).
    @inline(__always)
    func withPresentDocument<R>(at slot: Int, _ body: (borrowing Document) -> R) -> R {
        precondition(slot >= 0 && slot < count, "slot out of range")
        let element = baseAddress.unsafelyUnwrapped + slot
        precondition(element.pointee != nil, "no document in slot \(slot)")
        return UnsafeRawPointer(element).withMemoryRebound(to: Document.self, capacity: 1) { body($0.pointee) }
    }
}
