import Foundation
import TestSupport
import SearchStore
import Testing

/// What trusted stores promise: nothing half-applied, nothing lost, damage
/// repaired, no leftovers (issue 7). These run the real binary.
@Suite(.serialized) struct ReliabilityTests {
    /// `count` items in JSON Lines, with identifiers `prefix/i`.
    func corpus(_ cli: CLI, name: String, prefix: String, count: Int) throws -> String {
        var text = ""
        text.reserveCapacity(count * 160)
        let words = ["lantern", "harbour", "meadow", "granite", "orchid", "pixel", "quartz", "saffron"]
        for i in 0..<count {
            text += #"{"uniqueIdentifier":"\#(prefix)/\#(i)","domainIdentifier":"com.example.load","visibility":"public","attributeSet":{"title":"\#(words[i % 8]) \#(words[(i / 8) % 8]) \#(i)","contentDescription":"generated record \#(i) for the reliability tests","keywords":["\#(words[(i / 64) % 8])"]}}"#
            text += "\n"
        }
        return try cli.write(name, text)
    }

    func counts(_ cli: CLI) throws -> [String: Int] {
        try IndexStore(path: cli.indexPath).recordCounts()
    }

    func spawn(_ cli: CLI, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments + ["--index", cli.indexPath, "--data", CLI.dataDirectory]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    @Test func anImportKilledAtAnyMomentLeavesTheIndexAsBeforeOrAsAfter() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        var expected = try counts(cli)["item"] ?? 0
        #expect(expected > 0)
        var killedInsideTheTransaction = false
        // Kill points: while reading the file, while writing, and one that
        // waits for the write-ahead log to grow (inside the transaction).
        for (round, delay) in [0.2, 1.0, 2.5, -1, 4.0, 6.0].enumerated() {
            let file = try corpus(cli, name: "load\(round).jsonl", prefix: "k\(round)", count: 200_000)
            let process = try spawn(cli, ["index", "import", file])
            if delay < 0 {
                let wal = cli.indexPath + "-wal"
                for _ in 0..<600 where process.isRunning && fileSize(wal) < 8 << 20 { Thread.sleep(forTimeInterval: 0.02) }
                killedInsideTheTransaction = process.isRunning && fileSize(wal) >= 8 << 20
            } else {
                Thread.sleep(forTimeInterval: delay)
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try counts(cli)["item"] ?? 0
            #expect(now == expected || now == expected + 200_000, "round \(round): \(now) is neither \(expected) nor \(expected + 200_000)")
            expected = now
        }
        #expect(killedInsideTheTransaction, "one kill should land inside the write transaction")
        #expect(try IndexStore(path: cli.indexPath).integrityCheck() == "ok")
        // And the index still answers.
        let search = try cli.run(["search", "brent", "--json"])
        #expect(search.status == 0)
        #expect(((search.json?["results"] as? [[String: Any]])?.first?["title"] as? String) == "Brent Reid")
    }

    @Test func resetAndCrawlKilledAtAnyMomentLeaveBeforeOrAfter() throws {
        let cli = CLI()
        let extra = try corpus(cli, name: "extra.jsonl", prefix: "x", count: 5_000)
        #expect(try cli.run(["index", "import", extra]).status == 0)
        let fixtures = try counts(cli)["item"]! - 5_000
        for delay in [0.0, 0.02, 0.05, 0.1, 0.2, 0.4, 0.8] {
            let before = try counts(cli)["item"] ?? 0
            let process = try spawn(cli, ["index", "reset"])
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let after = try counts(cli)["item"] ?? 0
            #expect(after == before || after == fixtures, "reset killed after \(delay)s left \(after)")
            if after == fixtures { try cli.run(["index", "import", extra]) }
        }
        for delay in [0.0, 0.02, 0.05, 0.1, 0.2, 0.4, 0.8] {
            try cli.run(["index", "delete", "--domain", "web"])
            let process = try spawn(cli, ["crawl", CLI.dataDirectory + "/web"])
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let web = try counts(cli)["web"] ?? 0
            #expect(web == 0 || web == 18, "crawl killed after \(delay)s left \(web) pages")
        }
        #expect(try IndexStore(path: cli.indexPath).integrityCheck() == "ok")
    }

    @Test func twoImportsAtOnceBothLandOrOneSaysBusy() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        let before = try counts(cli)["item"] ?? 0
        let a = try corpus(cli, name: "a.jsonl", prefix: "a", count: 30_000)
        let b = try corpus(cli, name: "b.jsonl", prefix: "b", count: 30_000)
        let first = try spawn(cli, ["index", "import", a])
        let second = try spawn(cli, ["index", "import", b])
        first.waitUntilExit()
        second.waitUntilExit()
        let statuses = [first.terminationStatus, second.terminationStatus]
        for status in statuses { #expect(status == 0 || status == 75, "exit \(status)") }
        let landed = statuses.filter { $0 == 0 }.count
        #expect(landed >= 1)
        #expect(try counts(cli)["item"] == before + 30_000 * landed)
    }

    @Test func aReaderKeepsAnsweringWhileAWriterWorks() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        let big = try corpus(cli, name: "big.jsonl", prefix: "w", count: 200_000)
        let writer = try spawn(cli, ["index", "import", big])
        var answered = 0
        while writer.isRunning {
            let run = try cli.run(["search", "cary", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            if ((run.json?["results"] as? [[String: Any]])?.first?["title"] as? String) == "Cary Iowa" { answered += 1 }
            if answered >= 3 { break }
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(answered >= 1)
    }

    @Test func aTruncatedStoreIsMovedAsideAndRebuilt() throws {
        let cli = CLI()
        let extra = try corpus(cli, name: "extra.jsonl", prefix: "t", count: 20_000)
        #expect(try cli.run(["index", "import", extra]).status == 0)
        let size = fileSize(cli.indexPath)
        #expect(size > 100_000)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: cli.indexPath))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        let run = try cli.run(["search", "brent", "--json"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("notice:"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(((run.json?["results"] as? [[String: Any]])?.first?["title"] as? String) == "Brent Reid")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cli.folder)
        #expect(leftovers.contains { $0.hasPrefix("index.sqlite.broken-") })
    }

    @Test func nothingIsLeftBehind() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        let file = try corpus(cli, name: "few.jsonl", prefix: "f", count: 100)
        #expect(try cli.run(["index", "import", file]).status == 0)
        #expect(try cli.run(["crawl", CLI.dataDirectory + "/web"]).status == 0)
        #expect(try cli.run(["search", "lantern"]).status == 0)
        #expect(try cli.run(["open", "employee/2"]).status == 0)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: cli.folder))
        #expect(files == ["index.sqlite", "index.sqlite.snapshot", "few.jsonl"], "\(files)")
    }

    @Test(arguments: [
        ("truncated", #"{"uniqueIdentifier":"z/1","attributeSet":{"title":"tru"#),
        ("deep", String(repeating: "[", count: 100_000)),
        ("deep object", "{\"uniqueIdentifier\":\"z/1\",\"attributeSet\":{\"extras\":" + String(repeating: "{\"a\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000) + "}}"),
        ("wrong type", #"{"uniqueIdentifier":["z"],"attributeSet":{}}"#),
        ("nul", "{\"uniqueIdentifier\":\"z/1\u{0}\",\"attributeSet\":{}}"),
        ("escape", "{\"uniqueIdentifier\":\"z/\u{1B}[2J\",\"attributeSet\":{}}"),
    ])
    func hostileImportsExit65NameTheLineAndChangeNothing(name: String, line: String) throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        let before = try counts(cli)
        let file = try cli.write("hostile.jsonl", #"{"uniqueIdentifier":"ok/1","attributeSet":{"title":"fine"}}"# + "\n" + line + "\n")
        let run = try cli.run(["index", "import", file])
        #expect(run.status == 65, "\(name): \(run.stderr)")
        #expect(run.stderr.contains("hostile.jsonl:2:"), "\(name): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(!run.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0 })
        #expect(try counts(cli) == before)
    }

    @Test func invalidUTF8AndAHugeValidLine() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        let path = (cli.folder as NSString).appendingPathComponent("bytes.jsonl")
        var bytes = Array(#"{"uniqueIdentifier":"u/1","attributeSet":{"title":"a"#.utf8) + [0xFF, 0xFE] + Array(#""}}"#.utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let bad = try cli.run(["index", "import", path])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("bytes.jsonl:1: -: invalid UTF-8"))
        let big = String(repeating: "walrus ", count: 1_500_000)  // ~10 MB
        bytes = Array(#"{"uniqueIdentifier":"u/2","visibility":"public","attributeSet":{"title":"Huge","contentDescription":"\#(big)"}}"#.utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let good = try cli.run(["index", "import", path])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try cli.ids("huge") == ["u/2"])
    }

    @Test func privateAndRestrictedNeverLeaveThroughAnyPublicPath() throws {
        let cli = CLI()
        // A private item whose page also exists on the web, and an activity
        // that claims public indexing for a restricted photo.
        let file = try cli.write("secret.jsonl", #"{"uniqueIdentifier":"photo/99","visibility":"private","attributeSet":{"title":"Secret lagoon","url":"https://secret.example.com/photos/99"}}"# + "\n")
        #expect(try cli.run(["index", "import", file]).status == 0)
        let web = (cli.folder as NSString).appendingPathComponent("web/secret.example.com/photos")
        try FileManager.default.createDirectory(atPath: web, withIntermediateDirectories: true)
        try "<title>Secret lagoon page</title>".write(toFile: web + "/99.html", atomically: true, encoding: .utf8)
        #expect(try cli.run(["crawl", (cli.folder as NSString).appendingPathComponent("web")]).status == 0)
        let activity = #"{"activityType":"com.apple.corespotlightitem","userInfo":{"kCSSearchableItemActivityIdentifier":"photo/9"}}"#
        #expect(try cli.run(["open", "--activity", activity]).status == 0)  // photo/9 is restricted
        let exported = try cli.run(["index", "export", "--public"]).stdout
        #expect(!exported.contains("Secret lagoon"))
        #expect(!exported.contains("photo/99"))
        #expect(!exported.contains("photo/9\""))
        for line in exported.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if object?["source"] as? String == "activity" { continue }
            #expect(object?["visibility"] as? String == "public")
        }
        // Locally it is all still findable.
        #expect(try cli.ids("lagoon") == ["photo/99"])
    }
}
