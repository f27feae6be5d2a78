import Testing
@testable import TerminalUI

/// The arrows beside a result: where it stood at the keystroke before.
@Suite struct RankMovementTests {
    @Test func movementsAndDropped() {
        let (movements, dropped) = RankMovement.compare(previous: ["a", "b", "c", "d"], current: ["c", "a", "e", "b"])
        #expect(movements.map(\.description) == ["↑2", "↓1", "new", "↓2"])
        #expect(dropped == ["d"])
        #expect(RankMovement.compare(previous: [], current: ["a"]).movements == [.new])
        #expect(RankMovement.compare(previous: ["a"], current: ["a"]).movements == [.same])
    }
}
