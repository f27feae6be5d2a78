import Foundation

/// Values by key, the least recently used forgotten once their weights
/// add up past `capacity`: an eighth of it at a time, so that a keystroke
/// pays a lookup and an insert, and only one in many a sort of the ticks.
/// Not thread-safe: its owner holds a lock (`TermMatchCache`).
package struct RecentlyUsed<Value> {
    @usableFromInline struct Entry {
        @usableFromInline var value: Value
        @usableFromInline var weight: Int
        @usableFromInline var lastUsed: UInt64

        @inlinable init(value: Value, weight: Int, lastUsed: UInt64) {
            self.value = value
            self.weight = weight
            self.lastUsed = lastUsed
        }
    }

    /// The most weight kept.
    package let capacity: Int
    @usableFromInline var entries: [String: Entry] = [:]
    @usableFromInline var clock: UInt64 = 0
    @usableFromInline var totalWeight = 0

    @inlinable package init(capacity: Int) {
        self.capacity = capacity
    }

    @inlinable package var count: Int { entries.count }

    /// The value for `key`, marked used now.
    @inlinable package mutating func use(_ key: String) -> Value? {
        guard let index = entries.index(forKey: key) else { return nil }
        clock &+= 1
        entries.values[index].lastUsed = clock
        return entries.values[index].value
    }

    /// The value for `key`, not marked used (a look that is not a use).
    @inlinable package func peek(_ key: String) -> Value? { entries[key]?.value }

    /// Keeps `value` for `key`; past `capacity`, forgets the least recently
    /// used down to seven eighths of it (never the value just kept).
    @inlinable package mutating func insert(_ value: Value, for key: String, weight: Int) {
        clock &+= 1
        if let old = entries.updateValue(Entry(value: value, weight: weight, lastUsed: clock), forKey: key) {
            totalWeight -= old.weight
        }
        totalWeight += weight
        guard totalWeight > capacity else { return }
        let target = capacity - capacity / 8
        var kept = 0
        var cutoff = UInt64.max
        for (lastUsed, weight) in entries.values.map({ ($0.lastUsed, $0.weight) }).sorted(by: { $0.0 > $1.0 }) {
            guard lastUsed == clock || kept + weight <= target else { break }
            kept += weight
            cutoff = lastUsed
        }
        entries = entries.filter { $0.value.lastUsed >= cutoff }
        totalWeight = kept
    }
}
