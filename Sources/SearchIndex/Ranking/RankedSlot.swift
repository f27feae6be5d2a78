/// A document slot with its full ranking key: what a query ranks before it
/// builds results.
///
/// A struct rather than a `(key:, doc:)` tuple: each copy of such a tuple
/// goes through the runtime's generic value witnesses (a call for the
/// tuple, one for the key) for every result; a struct's copies are
/// compiled in place.
struct RankedSlot: Sendable {
    var key: RankingKey
    var doc: UInt32
}
