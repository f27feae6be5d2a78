import Foundation

/// Maps over every document slot that a query borrows and hands back
/// clean, so that no query clears a megabyte before it starts.
///
/// A driving term of thousands of postings finds its candidates through
/// a byte a slot (the least hit code there) and a bit a slot (the slots
/// met, in order). Made for each query, the byte map would be a byte a
/// slot set to `TermProbe.miss` and then read whole, where the postings
/// touch a few percent of it. A borrowed map is clean: the query
/// puts back only the slots it marked, as it reads them off the bits. A
/// code map marked by two cores borrows the byte map too, for the second
/// core's marks, and puts every byte back as it merges them
/// (`TermCodeMap.takeLeast`).
///
/// ```
///   codes   ff ff 0c ff 04 ff …    a byte a slot, `miss` where unmarked
///   bits    …0 1 0 1 0 0           a bit a slot (slot 0 lowest), set where marked
/// ```
///
/// Every engine of the process shares the maps (a lock guards the idle
/// ones); a query that finds none idle (other threads hold them) gets new
/// ones, and maps too small for its index are made again.
final class SlotScratch: @unchecked Sendable {
    /// A byte and a bit for every slot: all `miss` and all clear when idle.
    struct Maps {
        let codes: UnsafeMutableBufferPointer<UInt8>
        let bits: UnsafeMutableBufferPointer<UInt64>

        init(slots: Int) {
            codes = .allocate(capacity: max(1, slots))
            codes.initialize(repeating: TermProbe.miss)
            bits = .allocate(capacity: max(1, (slots + 63) / 64))
            bits.initialize(repeating: 0)
        }

        func deallocate() {
            codes.deallocate()
            bits.deallocate()
        }
    }

    /// Idle maps kept: threads beyond it that query at once get maps of
    /// their own, let go when handed back.
    static let idleLimit = 2

    let lock = NSLock()
    var idle: [Maps] = []

    deinit { for maps in idle { maps.deallocate() } }

    /// Calls `body` with clean maps of at least `slots` slots (`codes`
    /// and `bits`), which it must leave clean.
    func withMaps<R>(
        slots: Int, _ body: (_ codes: UnsafeMutableBufferPointer<UInt8>, _ bits: UnsafeMutableBufferPointer<UInt64>) -> R
    ) -> R {
        var maps = take()
        if let small = maps, small.codes.count < slots {
            small.deallocate()
            maps = nil
        }
        // Room for an eighth more slots before maps are made again.
        let lent = maps ?? Maps(slots: slots + slots / 8)
        defer { give(lent) }
        return body(lent.codes, lent.bits)
    }

    /// Makes idle maps of at least `slots` slots unless there are some:
    /// the first query to borrow them would otherwise fault in their
    /// pages and fill them while the user waits.
    func prepare(slots: Int) {
        lock.lock(); defer { lock.unlock() }
        guard !idle.contains(where: { $0.codes.count >= slots }) else { return }
        if idle.count >= Self.idleLimit { idle.removeFirst().deallocate() }
        idle.append(Maps(slots: slots + slots / 8))
    }

    private func take() -> Maps? {
        lock.lock(); defer { lock.unlock() }
        return idle.popLast()
    }

    private func give(_ maps: Maps) {
        lock.lock(); defer { lock.unlock() }
        guard idle.count < Self.idleLimit else { return maps.deallocate() }
        idle.append(maps)
    }
}
