import Foundation
import Testing

/// `searchlight bench` as issue 6 describes it, on a corpus small enough for a test.
@Suite struct BenchCommandTests {
    /// Sixty items in the shape of `shared/bench/make_corpus.py`, and a
    /// workload of two queries (13 non-blank prefixes).
    func workload(_ cli: CLI) throws -> (corpus: String, queries: String) {
        let words = ["cozo", "lens", "misatonve", "ranger", "karen", "tomi"]
        let lines = (0..<60).map { i -> String in
            let title = "\(words[i % 6].capitalized) \(words[(i / 6) % 6].capitalized)"
            return #"{"uniqueIdentifier":"photo/\#(i)","domainIdentifier":"com.example.photos.photo","attributeSet":{"contentType":"public.image","title":"\#(title)","contentDescription":"\#(words[(i + 2) % 6]) \#(words[(i + 3) % 6])","keywords":["\#(words[(i + 4) % 6])"]}}"#
        }
        return (try cli.write("corpus.jsonl", lines.joined(separator: "\n") + "\n"), try cli.write("queries.txt", "cozo l\nmisatnove\n"))
    }

    @Test func reportsEveryFigureTheIssueNames() throws {
        let cli = CLI()
        let (corpus, queries) = try workload(cli)
        let run = try cli.run(["bench", "--corpus", corpus, "--queries", queries, "--json"], withIndex: false)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(run.json)
        #expect(json["items"] as? Int == 60)
        #expect(json["keystrokes"] as? Int == 15)
        for key in ["buildSeconds", "peakRSSBytes", "coldStartMilliseconds", "insertMicroseconds", "deleteMicroseconds"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        let keystrokes = try #require(json["keystrokeMicroseconds"] as? [String: Int])
        #expect(Set(keystrokes.keys) == ["p50", "p99", "max"])
        #expect(keystrokes["p50"]! <= keystrokes["p99"]! && keystrokes["p99"]! <= keystrokes["max"]!)
        // Every keystroke counted under the plan that answered it.
        let byPlan = try #require(json["keystrokesByPlan"] as? [String: [String: Int]])
        #expect(byPlan.values.map { $0["count"] ?? 0 }.reduce(0, +) == 15)
        #expect(byPlan.values.allSatisfy { $0["p50"]! <= $0["p99"]! })
        // A keystroke right after a one-item insert (an import behind the search bar).
        let afterUpdate = try #require(json["keystrokeAfterUpdateMicroseconds"] as? [String: Int])
        #expect(Set(afterUpdate.keys) == ["p50", "max"])
        #expect(afterUpdate["p50"]! <= afterUpdate["max"]!)
        // Where the engine's memory is, part by part, under the process's peak.
        let memory = try #require(json["memoryBytes"] as? [String: Int])
        let parts = memory.filter { $0.key != "total" && $0.key != "borrowed" }
        #expect(parts["tokenArena"]! > 0 && parts["attributeSets"]! > 0 && parts["postings"]! > 0)
        #expect(memory["total"] == parts.values.reduce(0, +))
        #expect(memory["total"]! < json["peakRSSBytes"] as! Int)
        // Both started processes' peaks are read before they exit.
        for key in ["coldStartPeakRSSBytes", "firstStartPeakRSSBytes"] {
            #expect((json[key] as? Int ?? 0) > 1_000_000, "\(key)")
        }
        // The machine's memory latency as the run starts and ends; the
        // start's 64 MB chase is not the peak of sixty items' bench.
        let latency = try #require(json["memoryLatencyNanoseconds"] as? [String: Double])
        #expect(Set(latency.keys) == ["start", "end"])
        #expect(latency.values.allSatisfy { $0 > 1 && $0 < 10_000 }, "\(latency)")
        #expect((json["peakRSSBytes"] as! Int) < 64 << 20)
    }

    @Test func aSavedIndexIsTypedOnAndLeftAsItWas() throws {
        let cli = CLI()
        let (corpus, queries) = try workload(cli)
        #expect(try cli.run(["index", "import", corpus]).status == 0)
        let before = try cli.ids("cozo")
        let countBefore = try #require(try cli.run(["index", "stats", "--json"]).json?["results"] as? Int)
        let run = try cli.run(["bench", "--saved-index", cli.indexPath, "--queries", queries, "--json"], withIndex: false)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(run.json)
        #expect(json["keystrokes"] as? Int == 15)
        #expect(json["insertMicroseconds"] is Int)
        #expect((json["keystrokeMicroseconds"] as? [String: Int])?["p90"] != nil)
        #expect((json["keystrokeAfterUpdateMicroseconds"] as? [String: Int])?["p50"] != nil)
        #expect((json["memoryLatencyNanoseconds"] as? [String: Double]).map { Set($0.keys) } == ["start", "end"])
        // The updates it timed (copies of items under new identifiers)
        // changed only its own copy of the engine.
        #expect(try cli.ids("cozo") == before)
        #expect(try cli.run(["index", "stats", "--json"]).json?["results"] as? Int == countBefore)
    }

    /// Stopping the bench while it has its corpus saved in a scratch store
    /// (its last part: hundreds of MB at 100,000 items) leaves nothing
    /// behind. SIGTERM, as `kill` or `timeout` send it: the test runner
    /// starts children with SIGINT ignored, as a shell starts background
    /// jobs, and the bench leaves an ignored signal ignored.
    @Test func anInterruptedBenchLeavesNoScratchStoreBehind() throws {
        let cli = CLI()
        let (_, queries) = try workload(cli)
        let lines = (0..<5_000).map { i in
            #"{"uniqueIdentifier":"photo/\#(i)","attributeSet":{"title":"Cozo \#(i)","contentDescription":"lens ranger \#(i % 97)"}}"#
        }
        let corpus = try cli.write("large.jsonl", lines.joined(separator: "\n") + "\n")
        let scratch = (cli.folder as NSString).appendingPathComponent("tmp")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        func scratchStores() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []).filter { $0.hasPrefix("searchlight-bench-") }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["bench", "--corpus", corpus, "--queries", queries, "--json"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning, scratchStores().isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        try #require(process.isRunning && !scratchStores().isEmpty, "the bench never reached its scratch store")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + SIGTERM)
        #expect(scratchStores().isEmpty, "left behind: \(scratchStores())")
    }

    @Test func aCorpusOrIndexWithoutItemsIsRefusedInOneLine() throws {
        let cli = CLI()
        let (_, queries) = try workload(cli)
        let empty = try cli.write("empty.jsonl", "")
        let run = try cli.run(["bench", "--corpus", empty, "--queries", queries, "--json"], withIndex: false)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("empty.jsonl: no items to time"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        // A saved index emptied by the user.
        #expect(try cli.run(["index", "delete", "--all"]).status == 0)
        let saved = try cli.run(["bench", "--saved-index", cli.indexPath, "--queries", queries, "--json"], withIndex: false)
        #expect(saved.status == 65, "\(saved.stderr)")
        #expect(saved.stderr.contains("no items to time"))
    }

    @Test func oneSourceOfItemsIsRequired() throws {
        let cli = CLI()
        let (corpus, queries) = try workload(cli)
        #expect(try cli.run(["bench", "--queries", queries], withIndex: false).status == 64)
        #expect(try cli.run(["bench", "--corpus", corpus, "--saved-index", cli.indexPath, "--queries", queries], withIndex: false).status == 64)
        // A saved index that is not there is a usage error, and none is made.
        let missing = cli.folder + "/missing.sqlite"
        let run = try cli.run(["bench", "--saved-index", missing, "--queries", queries], withIndex: false)
        #expect(run.status == 64)
        #expect(run.stderr.contains("no index at"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
