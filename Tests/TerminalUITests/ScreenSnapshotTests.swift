import SnapshotTesting
import Testing
@testable import SearchApp
@testable import TerminalUI

/// Whole screens at 100×30 and 40×12, compared with the stored snapshots in
/// `__Snapshots__` (text of every cell; styles are covered by unit tests).
@Suite(.snapshots(record: .missing)) struct ScreenSnapshotTests {
    func screen(_ width: Int, _ height: Int, _ keys: [Key], typing: String = "") throws -> String {
        let app = TerminalApp(backend: SteadyBackend(try makeBackend()), width: width, height: height, color: true)
        app.type(typing)
        for key in keys { app.handle(key) }
        return app.render().text
    }

    @Test(arguments: [(100, 30), (40, 12)])
    func emptyState(size: (Int, Int)) throws {
        assertSnapshot(of: try screen(size.0, size.1, []), as: .lines, named: "\(size.0)x\(size.1)")
    }

    @Test(arguments: [(100, 30), (40, 12)])
    func resultsForBre(size: (Int, Int)) throws {
        assertSnapshot(of: try screen(size.0, size.1, [], typing: "bre"), as: .lines, named: "\(size.0)x\(size.1)")
    }

    @Test(arguments: [(100, 30), (40, 12)])
    func cjkResults(size: (Int, Int)) throws {
        assertSnapshot(of: try screen(size.0, size.1, [], typing: "北极"), as: .lines, named: "\(size.0)x\(size.1)")
    }

    @Test(arguments: [(100, 30), (40, 12)])
    func detailOfBrent(size: (Int, Int)) throws {
        assertSnapshot(of: try screen(size.0, size.1, [.enter], typing: "brent"), as: .lines, named: "\(size.0)x\(size.1)")
    }

    @Test func help() throws {
        assertSnapshot(of: try screen(100, 30, [.function(1)]), as: .lines)
    }
}
