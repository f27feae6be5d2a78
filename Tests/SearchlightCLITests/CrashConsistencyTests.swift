import Foundation
import TestSupport
import SearchStore
import Testing

/// kill -9 at random moments during import, delete, reset and snapshot
/// writing: after each, the index holds all of the operation or none of
/// it, and the snapshot answers as a rebuild from the records does.
/// `SEARCHLIGHT_STRESS_ROUNDS` sets how many rounds (20 by default).
@Suite(.serialized) struct CrashConsistencyTests {
    enum Operation: CaseIterable { case importing, deletingDomain, resetting, writingSnapshot }

    let reliability = ReliabilityTests()

    func itemCount(_ cli: CLI) throws -> Int {
        try IndexStore(path: cli.indexPath).recordCounts()["item"] ?? 0
    }

    /// What a search answers, from the snapshot if it is current and
    /// then from the records (the snapshot removed first).
    func answersAgree(_ cli: CLI, round: Int) throws {
        for query in ["lantern", "brent", "harbour meadow"] {
            let fromSnapshot = try cli.run(["search", query, "--json", "--limit", "100"]).json
            try? FileManager.default.removeItem(atPath: cli.indexPath + ".snapshot")
            let rebuilt = try cli.run(["search", query, "--json", "--limit", "100"]).json
            #expect(fromSnapshot?["total"] as? Int == rebuilt?["total"] as? Int, "round \(round), “\(query)”")
            let ids = { (json: [String: Any]?) in (json?["results"] as? [[String: Any]] ?? []).compactMap { $0["uniqueIdentifier"] as? String } }
            #expect(ids(fromSnapshot) == ids(rebuilt), "round \(round), “\(query)”")
        }
    }

    @Test func killedAtRandomMomentsTheIndexHoldsAllOrNothing() throws {
        let rounds = ProcessInfo.processInfo.environment["SEARCHLIGHT_STRESS_ROUNDS"].flatMap(Int.init) ?? 20
        var random = SeededGenerator(seed: 20_261_129)
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        let fixtures = try itemCount(cli)
        var loaded = 0  // items of the generated domain now in the store
        for round in 0..<rounds {
            let before = try itemCount(cli)
            let operation = Operation.allCases.randomElement(using: &random)!
            let arguments: [String]
            let after: Int
            switch operation {
            case .importing:
                let file = try reliability.corpus(cli, name: "round\(round).jsonl", prefix: "s\(round)", count: 30_000)
                (arguments, after) = (["index", "import", file], before + 30_000)
            case .deletingDomain:
                (arguments, after) = (["index", "delete", "--domain", "com.example.load"], before - loaded)
            case .resetting:
                (arguments, after) = (["index", "reset"], fixtures)
            case .writingSnapshot:
                try? FileManager.default.removeItem(atPath: cli.indexPath + ".snapshot")
                (arguments, after) = (["search", "lantern"], before)
            }
            let process = try reliability.spawn(cli, arguments)
            Thread.sleep(forTimeInterval: Double.random(in: 0...1.2, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try itemCount(cli)
            #expect(now == before || now == after, "round \(round) (\(operation)): \(now) is neither \(before) nor \(after)")
            if now == after, now != before {
                switch operation {
                case .importing: loaded += 30_000
                case .deletingDomain, .resetting: loaded = 0
                case .writingSnapshot: break
                }
            }
            try answersAgree(cli, round: round)
        }
    }
}
