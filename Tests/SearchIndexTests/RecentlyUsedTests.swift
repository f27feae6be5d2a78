import Testing
@testable import SearchSupport

@Suite struct RecentlyUsedTests {
    /// Past its capacity the store forgets the entries used least
    /// recently, counting each by its weight, and keeps what was used
    /// since it was put in.
    @Test func forgetsTheLeastRecentlyUsedByWeight() {
        var store = RecentlyUsed<Int>(capacity: 16)
        for (index, key) in ["a", "b", "c", "d"].enumerated() { store.insert(index, for: key, weight: 4) }
        #expect(store.totalWeight == 16)
        #expect(store.use("a") == 0)
        store.insert(4, for: "e", weight: 2)
        // Down to 14 of weight: "b", used least recently, goes; "a" stays.
        #expect(store.peek("b") == nil)
        #expect(store.use("a") == 0)
        #expect(store.use("c") == 2 && store.use("d") == 3 && store.use("e") == 4)
        #expect(store.totalWeight == 14)
    }

    /// A value heavier than the whole capacity is kept (it was just
    /// computed and is about to be asked for again); the rest goes.
    @Test func keepsTheNewestEvenWhenHeavy() {
        var store = RecentlyUsed<String>(capacity: 8)
        store.insert("small", for: "a", weight: 1)
        store.insert("huge", for: "b", weight: 20)
        #expect(store.peek("b") == "huge")
        #expect(store.peek("a") == nil)
        #expect(store.count == 1 && store.totalWeight == 20)
    }

    /// Putting a key in again replaces its value and its weight.
    @Test func replacingAValueReplacesItsWeight() {
        var store = RecentlyUsed<Int>(capacity: 100)
        store.insert(1, for: "a", weight: 30)
        store.insert(2, for: "a", weight: 10)
        #expect(store.use("a") == 2)
        #expect(store.totalWeight == 10 && store.count == 1)
    }
}
