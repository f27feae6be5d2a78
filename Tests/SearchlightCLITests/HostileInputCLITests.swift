import Foundation
import TestSupport
import SearchStore
import Testing

/// Hostile input and broken environments through the real binary (issue 72):
/// nothing accepted that cannot be read back, no byte from data reaches a
/// terminal, no input runs away, no write error crashes.
@Suite(.serialized) struct HostileInputCLITests {
    static let escape = "\u{1B}"
    static let osc52 = "\u{1B}]52;c;aGVsbG8=\u{07}"
    static let bidi = "\u{202E}"

    func hasRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F..<0xA0).contains($0.value) || $0.value == 0x202E }
    }

    @Test func aDateTheStoreCannotHoldIsRefusedAndTheIndexKept() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        for date in ["-0001-01-01T00:00:00Z", "292277026596-12-04T15:30:07Z"] {
            let file = try cli.write("bad.jsonl", #"{"uniqueIdentifier":"h/2","expirationDate":"\#(date)","attributeSet":{"title":"p"}}"#)
            let run = try cli.run(["index", "import", file])
            #expect(run.status == 65)
            #expect(run.stderr.contains("bad.jsonl:1: expirationDate:"))
        }
        let edges = try cli.write("edges.jsonl", """
            {"uniqueIdentifier":"e/1","expirationDate":"0001-01-01","attributeSet":{"title":"oldest"}}
            {"uniqueIdentifier":"e/2","expirationDate":"9999-12-31T23:59:59.9Z","attributeSet":{"title":"newest","rating":4.5,"extras":{"k":"v"}}}
            """)
        #expect(try cli.run(["index", "import", edges]).status == 0)
        try? FileManager.default.removeItem(atPath: cli.indexPath + ".snapshot")
        let search = try cli.run(["search", "newest"])
        #expect(search.status == 0)
        #expect(!search.stderr.contains("moved it"), "the store is never moved aside for a record")
        #expect(try cli.ids("newest") == ["e/2"])
        #expect(try cli.ids("brent").contains("employee/1"), "the rest of the index is there")
        let export = try cli.run(["index", "export"]).stdout
        #expect(export.contains(#""expirationDate":"0001-01-01T00:00:00Z""#))
        #expect(export.contains(#""expirationDate":"9999-12-31T23:59:59Z""#))
    }

    @Test func aQuarantinedRecordIsReportedByStatsAndLint() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        try IndexStore(path: cli.indexPath).executeForTesting(
            #"UPDATE records SET body = '{"uniqueIdentifier":"show/6","expirationDate":"zz"}' WHERE uniqueIdentifier = 'show/6'"#)
        try? FileManager.default.removeItem(atPath: cli.indexPath + ".snapshot")
        #expect(try cli.run(["search", "brent"]).status == 0)
        let stats = try cli.run(["index", "stats", "--json"])
        #expect((stats.json?["quarantined"] as? [[String: Any]])?.first?["uniqueIdentifier"] as? String == "show/6")
        #expect(try cli.run(["index", "stats"]).stdout.contains("unreadable 1"))
        #expect(try cli.run(["index", "lint"]).stdout.contains("show/6: unreadable:"))
        #expect(try cli.run(["index", "delete", "--id", "show/6"]).stdout.contains("deleted 1 item"))
        #expect(!(try cli.run(["index", "stats"]).stdout.contains("unreadable")))
    }

    @Test func escapeSequencesFromDataNeverReachOutput() throws {
        let cli = CLI()
        let file = try cli.write("hostile.jsonl", """
            {"uniqueIdentifier":"x/1","domainIdentifier":"d\\u001b[2J","attributeSet":{"contentType":"\\u001b]52;c;aGVsbG8=\\u0007","title":"zebra \\u202e gnirts","contentDescription":"\\u009b31m"}}
            """)
        #expect(try cli.run(["index", "import", file]).status == 0)
        for arguments in [["search", "zebra"], ["search", "zebra", "--explain"], ["open", "x/1"], ["replay", "zebra"],
                          ["index", "stats"], ["index", "lint"]] {
            let run = try cli.run(arguments)
            #expect(!hasRawControls(run.stdout), "\(arguments) printed a control character")
            #expect(!hasRawControls(run.stderr), "\(arguments) printed a control character on stderr")
        }
        let json = try cli.run(["search", "zebra", "--json"])
        #expect(!hasRawControls(json.stdout))
        #expect(json.stdout.contains(#"\u001b]52"#) && json.stdout.contains(#"\u202e"#))
        let result = (json.json?["results"] as? [[String: Any]])?.first
        #expect(result?["contentType"] as? String == Self.osc52, "JSON escapes keep the value")
        // A line break inside a field never starts a line of its own.
        let spoof = try cli.write("spoof.jsonl", #"{"uniqueIdentifier":"x/9","attributeSet":{"title":"yak\n2. Spoofed result"}}"#)
        #expect(try cli.run(["index", "import", spoof]).status == 0)
        let lines = try cli.run(["search", "yak"]).stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].contains("yak␊2. Spoofed result"), "\(lines)")
    }

    @Test func errorMessagesNeverEchoRawInput() throws {
        let cli = CLI()
        let cases = [
            #"{"uniqueIdentifier":"x/1","attributeSet":{"title":"t","extras":{"k\u001b[31m":1}}}"#,
            #"{"uniqueIdentifier":"x/1","expirationDate":"\u001b]0;title\u0007","attributeSet":{"title":"t"}}"#,
            #"{"uniqueIdentifier":"x/1","visibility":"\u001b[5m","attributeSet":{"title":"t"}}"#,
        ]
        for (i, line) in cases.enumerated() {
            let run = try cli.run(["index", "import", try cli.write("bad\(i)\(Self.escape)[1m.jsonl", line)])
            #expect(run.status == 65)
            #expect(!hasRawControls(run.stderr), "case \(i): \(run.stderr)")
        }
        let activity = try cli.run(["open", "--activity", #"{"activityType":"com.example.searchlight.view-show","userInfo":{"\u001b[2J":"1"}}"#])
        #expect(!hasRawControls(activity.stderr + activity.stdout))
        let usage = try cli.run(["search", "--\(Self.escape)]0;x\u{07}"])
        #expect(usage.status == 64)
        #expect(!hasRawControls(usage.stderr))
        let good = try cli.write("fine\(Self.bidi).jsonl", #"{"uniqueIdentifier":"x/2","attributeSet":{"title":"t"}}"#)
        let imported = try cli.run(["index", "import", good])
        #expect(imported.status == 0 && !hasRawControls(imported.stdout))
    }

    @Test func inputWithoutLineBreaksIsRefusedAtBoundedCost() throws {
        let cli = CLI()
        let started = Date()
        let zero = try cli.run(["index", "import", "/dev/zero"])
        #expect(zero.status == 65)
        #expect(zero.stderr.contains("/dev/zero:1: -: a line longer than 64 MB"))
        let sparse = (cli.folder as NSString).appendingPathComponent("sparse.jsonl")
        #expect(FileManager.default.createFile(atPath: sparse, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: sparse))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        #expect(try cli.run(["index", "import", sparse]).status == 65)
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test func aFailedWriteExits74AndSaysWhatWasCommitted() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        let file = try cli.write("one.jsonl", #"{"uniqueIdentifier":"full/1","attributeSet":{"title":"fullness"}}"#)
        for arguments in [["search", "aur"], ["search", "aur", "--json"], ["index", "export"], ["index", "import", file]] {
            let run = try runToDevFull(cli, arguments)
            #expect(run.status == 74, "\(arguments)")
        }
        let committed = try runToDevFull(cli, ["index", "import", file])
        #expect(committed.stderr.contains("imported 1 item from"))
        #expect(try cli.ids("fullness") == ["full/1"])
    }

    func runToDevFull(_ cli: CLI, _ arguments: [String]) throws -> CLI.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments + ["--index", cli.indexPath, "--data", CLI.dataDirectory]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Run(status: process.terminationStatus, stdout: "", stderr: String(decoding: errData, as: UTF8.self))
    }

    @Test func queriesAreBounded() throws {
        let cli = CLI()
        let many = try cli.run(["search"] + Array(repeating: "a", count: 65))
        #expect(many.status == 64 && many.stderr.contains("more than 64 terms"))
        let long = try cli.run(["search", String(repeating: "b", count: 1_001)])
        #expect(long.status == 64 && long.stderr.contains("longer than 1000 characters"))
        #expect(try cli.run(["replay", String(repeating: "c ", count: 70)]).status == 64)
        #expect(try cli.run(["search"] + Array(repeating: "a", count: 64)).status == 0)
    }

    @Test func aMalformedAssociationFileCostsOnlyItsDomain() throws {
        let cli = CLI()
        let data = (cli.folder as NSString).appendingPathComponent("data")
        try FileManager.default.copyItem(atPath: CLI.dataDirectory, toPath: data)
        try "{bad".write(toFile: data + "/web/photos.example.com/apple-app-site-association", atomically: true, encoding: .utf8)
        func open(_ target: String) throws -> CLI.Run {
            try cli.run(["open", target, "--index", cli.indexPath, "--data", data], withIndex: false)
        }
        let employee = try open("employee/1")
        #expect(employee.status == 0)
        #expect(employee.stderr.components(separatedBy: "warning:").count == 2, "warned once: \(employee.stderr)")
        #expect(try open("https://photos.example.com/photos/4").stdout.contains("not handled by Searchlight"))
        #expect(try open("https://sl.example.com/e/3").stdout.contains("route employee/3"))
    }

    @Test func missingInputExits66AndChangesNothing() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        let before = try cli.ids("brent")
        let missing = try cli.run(["index", "reset", "--index", cli.indexPath, "--data", "/nonexistent"], withIndex: false)
        #expect(missing.status == 66)
        let empty = (cli.folder as NSString).appendingPathComponent("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(try cli.run(["index", "reset", "--index", cli.indexPath, "--data", empty], withIndex: false).status == 66)
        #expect(try cli.ids("brent") == before)
        // An index that exists needs no fixtures, but a mistyped `--data` is still named.
        let mistyped = try cli.run(["search", "brent", "--index", cli.indexPath, "--data", "/nonexistent"], withIndex: false)
        #expect(mistyped.status == 66 && mistyped.stderr.contains("/nonexistent") && mistyped.stdout.isEmpty)
        #expect(try cli.run(["index", "import", "/nonexistent.jsonl"]).status == 66)
        let fresh = CLI()
        let created = try fresh.run(["search", "a", "--index", fresh.indexPath, "--data", "/nonexistent"], withIndex: false)
        #expect(created.status == 66)
        #expect(!FileManager.default.fileExists(atPath: fresh.indexPath), "no empty store is left behind")
    }

    @Test func smallerCasesNameTheRightFieldAndProblem() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "reset"]).status == 0)
        let cases: [(String, String)] = [
            (#"{"uniqueIdentifier":"v/1","visibility":"secret"}"#, ":1: visibility: expected public, private or restricted"),
            (#"{"uniqueIdentifier":"v/1","attributeSet":{"title":"x","rating":1e999}}"#, ":1: attributeSet.rating: number out of range"),
            (#"{"uniqueIdentifier":"v/1","attributeSet":{"title":"x\u0000y"}}"#, ":1: attributeSet.title: NUL character in a string"),
            (#"{"uniqueIdentifier":"v/1","attributeSet":{"title":"x","extras":{"k\u0000":"v"}}}"#, ":1: attributeSet.extras.k"),
        ]
        for (i, (line, expected)) in cases.enumerated() {
            let run = try cli.run(["index", "import", try cli.write("case\(i).jsonl", line)])
            #expect(run.status == 65)
            #expect(run.stderr.contains(expected), "\(run.stderr)")
        }
        let bom = try cli.write("bom.json", "\u{FEFF}[{\"uniqueIdentifier\":\"bom/1\",\"attributeSet\":{\"title\":\"bommel\"}}]")
        #expect(try cli.run(["index", "import", bom]).status == 0)
        #expect(try cli.ids("bommel") == ["bom/1"])
        let zero = try cli.run(["search", "a", "--limit", "0"])
        #expect(zero.status == 0 && !zero.stdout.contains("No results") && zero.stdout.contains("results in"))
    }

    @Test func theCrawlerLimitHoldsForWhatALinkLeadsTo() throws {
        let cli = CLI()
        let site = (cli.folder as NSString).appendingPathComponent("site/big.example.com")
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let target = (cli.folder as NSString).appendingPathComponent("huge.bin")
        try Data(repeating: 0x61, count: 6 << 20).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: site + "/page.html", withDestinationPath: target)
        try "<title>small page</title>".write(toFile: site + "/small.html", atomically: true, encoding: .utf8)
        let run = try cli.run(["crawl", (cli.folder as NSString).appendingPathComponent("site")])
        #expect(run.status == 0)
        #expect(try cli.ids("small", ["--domain", "web.big.example.com"]).count == 1)
        #expect((run.stdout + run.stderr).contains("larger than"))
    }

    @Test func dotSegmentsInALinkAreRefused() throws {
        let cli = CLI()
        for url in ["https://photos.example.com/photos/../../etc/passwd", "https://photos.example.com/photos/%2e%2e/x"] {
            let run = try cli.run(["open", url])
            #expect(run.status == 1 && run.stderr.contains("refused"), "\(url)")
            #expect(!run.stdout.contains("browser"))
        }
    }
}
