import Foundation
import TestSupport
import Testing

@Suite struct CommandLineTests {
    @Test func searchJSONHasTheFieldsSpecFourLists() throws {
        let cli = CLI()
        let run = try cli.run(["search", "brent", "--json", "--explain"])
        #expect(run.status == 0)
        let json = try #require(run.json)
        #expect(json["query"] as? String == "brent")
        #expect(json["total"] as? Int ?? 0 >= 1)
        #expect(json["tookMicroseconds"] is Int)
        let first = try #require((json["results"] as? [[String: Any]])?.first)
        for key in ["uniqueIdentifier", "domainIdentifier", "contentType", "title", "sources", "highlights", "explain"] {
            #expect(first[key] != nil, "missing \(key)")
        }
        #expect(first["title"] as? String == "Brent Reid")
        let rules = ((first["explain"] as? [String: Any])?["rules"] as? [[String: Any]])?.compactMap { $0["rule"] as? String }
        #expect(rules == ["typos", "wholeWords", "exact", "field", "engagement", "rankingHint", "sources", "titleLength", "uniqueIdentifier"])
    }

    /// A command leaves its engine's memory to the process's exit, but
    /// still closes the store: SQLite removes the write-ahead log when the
    /// last connection closes, and the next process opens a clean file.
    @Test func aCommandClosesTheStoreOnItsWayOut() throws {
        let cli = CLI()
        let items = cli.folder + "/items.jsonl"
        try #"{"uniqueIdentifier":"note/1","attributeSet":{"title":"Brentford notes"}}"#.write(toFile: items, atomically: true, encoding: .utf8)
        for arguments in [["search", "brent"], ["index", "import", items], ["search", "brentford"]] {
            let run = try cli.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            let files = try FileManager.default.contentsOfDirectory(atPath: cli.folder)
            #expect(!files.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }, "\(arguments): \(files)")
        }
    }

    @Test func zeroResultsIsSuccess() throws {
        let run = try CLI().run(["search", "qqqqqq", "--json"])
        #expect(run.status == 0)
        #expect(run.json?["total"] as? Int == 0)
    }

    @Test func globalOptionsWorkBeforeAndAfterTheSubcommand() throws {
        let cli = CLI()
        let before = try cli.run(["--index", cli.indexPath, "--data", CLI.dataDirectory, "search", "cary", "--json"], withIndex: false)
        #expect(before.status == 0)
        #expect(((before.json?["results"] as? [[String: Any]])?.first?["title"] as? String) == "Cary Iowa")
        let env = try cli.run(["search", "cary", "--json"], environment: ["SEARCHLIGHT_INDEX": cli.indexPath, "SEARCHLIGHT_DATA": CLI.dataDirectory], withIndex: false)
        #expect(env.json?["total"] as? Int == before.json?["total"] as? Int)
    }

    @Test func usageErrorsExit64() throws {
        let cli = CLI()
        #expect(try cli.run(["search", "x", "--limit", "many"]).status == 64)
        #expect(try cli.run(["index", "delete"]).status == 64)
        #expect(try cli.run(["search", "x", "--now", "yesterday"]).status == 64)
        #expect(try cli.run(["settings", "indexing", "sometimes"]).status == 64)
        #expect(try cli.run(["frobnicate"]).status == 64)
    }

    @Test func importIsAtomicAndBadDataExits65() throws {
        let cli = CLI()
        let good = try cli.write("good.jsonl", #"{"uniqueIdentifier":"note/1","domainIdentifier":"com.acme.notes","attributeSet":{"title":"Quarterly quokka review"}}"# + "\n")
        #expect(try cli.run(["index", "import", good]).status == 0)
        #expect(try cli.ids("quokka") == ["note/1"])
        let bad = try cli.write("bad.jsonl", #"{"uniqueIdentifier":"note/2","attributeSet":{"title":"Quokka crossing"}}"# + "\n" + #"{"uniqueIdentifier":"note/3","attributeSet":{"title":42}}"# + "\n")
        let run = try cli.run(["index", "import", bad])
        #expect(run.status == 65)
        #expect(run.stderr.contains("bad.jsonl:2: attributeSet.title"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(try cli.ids("quokka") == ["note/1"], "nothing of the bad file was applied")
    }

    @Test func importDomainThenDeleteByDomain() throws {
        let cli = CLI()
        let file = try cli.write("notes.json", "[" + #"{"uniqueIdentifier":"note/1","attributeSet":{"title":"Walrus"}}"# + "]")
        #expect(try cli.run(["index", "import", file, "--domain", "com.acme.notes.q3"]).status == 0)
        #expect(try cli.ids("walrus") == ["note/1"])
        #expect(try cli.run(["index", "delete", "--domain", "com.acme.notes"]).status == 0)
        #expect(try cli.ids("walrus").isEmpty)
        #expect(try cli.ids("brent").first == "employee/1", "other domains stay")
    }

    @Test func deleteAllLeavesAnEmptyIndexThatStaysEmpty() throws {
        let cli = CLI()
        #expect(try cli.run(["index", "delete", "--all"]).status == 0)
        #expect(try cli.ids("brent").isEmpty)
        let stats = try cli.run(["index", "stats", "--json"])
        #expect(stats.json?["results"] as? Int == 0)
        // Stats name the process that wrote last.
        #expect((stats.json?["lastWriter"] as? String)?.hasPrefix("searchlight index delete · pid ") == true)
        #expect(try cli.run(["index", "reset"]).status == 0)
        #expect(try cli.ids("brent").first == "employee/1")
    }

    @Test func openRecordsAnEngagementThatLiftsTheResult() throws {
        let cli = CLI()
        // Shows with an audience (their hint) lead "bre" until Brenda is opened.
        let before = try cli.ids("bre")
        #expect(before.first == "show/14" && before.contains("employee/4"))
        for _ in 0..<3 { #expect(try cli.run(["open", "employee/4"]).status == 0) }
        let after = try cli.ids("bre")
        #expect(after.first == "employee/4")
        let open = try cli.run(["open", "employee/4", "--json"])
        let item = open.json?["item"] as? [String: Any]
        #expect(item?["sources"] as? [String] == ["item", "activity"])
        #expect(item?["views"] as? Int == 4)
        #expect(try cli.run(["open", "employee/999"]).status == 1)
        #expect(try cli.run(["open", "not an id"]).status == 64)
    }

    @Test func statsCountByDomainAndSource() throws {
        let cli = CLI()
        let first = try #require(try cli.run(["index", "stats", "--json"]).json)
        // The first run builds the engine from the records and leaves its
        // snapshot beside the store for the next.
        #expect(first["snapshotBytes"] as? Int == 0)
        let run = try cli.run(["index", "stats", "--json"])
        let json = try #require(run.json)
        #expect(json["snapshotBytes"] as? Int ?? 0 > 10_000)
        let bySource = try #require(json["bySource"] as? [String: Int])
        #expect(bySource["item"] ?? 0 >= 50)
        let byDomain = try #require(json["byDomain"] as? [String: Int])
        #expect(byDomain["com.example.colleagues.employee"] ?? 0 >= 25)
        #expect(json["formatVersion"] as? Int == 2)
    }

    /// An import leaves a snapshot of its result: the next stats are read
    /// from it without building the engine, and say so; with the snapshot
    /// gone they are counted from the engine, the same.
    @Test func anImportLeavesTheIndexReadyAndStatsReadItsSummary() throws {
        let cli = CLI()
        let lines = (0..<300).map { #"{"uniqueIdentifier":"pier/\#($0)","domainIdentifier":"com.example.piers","attributeSet":{"title":"Pier \#($0)"}}"# }
        let file = try cli.write("piers.jsonl", lines.joined(separator: "\n"))
        #expect(try cli.run(["index", "import", file]).status == 0)
        let ready = try #require(try cli.run(["index", "stats", "--json"]).json)
        #expect(ready["snapshotCurrent"] as? Bool == true)
        #expect((ready["byDomain"] as? [String: Int])?["com.example.piers"] == 300)
        let snapshot = cli.indexPath + ".snapshot"
        let before = try FileManager.default.attributesOfItem(atPath: snapshot)[.modificationDate] as? Date
        #expect(try cli.run(["search", "pier", "--limit", "1"]).stdout.contains("Pier"))
        // The search loaded that snapshot: it had nothing to save.
        #expect(try FileManager.default.attributesOfItem(atPath: snapshot)[.modificationDate] as? Date == before)
        try FileManager.default.removeItem(atPath: snapshot)
        let counted = try #require(try cli.run(["index", "stats", "--json"]).json)
        #expect(counted["snapshotCurrent"] as? Bool == false)
        for key in ["results", "byDomain", "bySource", "expired", "engagements"] {
            #expect((counted[key] as? NSObject) == (ready[key] as? NSObject), "\(key)")
        }
    }

    @Test func exportPublicNeverHoldsPrivateOrRestrictedItems() throws {
        let cli = CLI()
        let all = try cli.run(["index", "export"]).stdout.split(separator: "\n")
        let shared = try cli.run(["index", "export", "--public"]).stdout.split(separator: "\n")
        #expect(shared.count < all.count)
        for line in shared {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["visibility"] as? String == "public")
        }
        #expect(all.contains { $0.contains("\"restricted\"") })
    }

    @Test func expirationFollowsTheClock() throws {
        let cli = CLI()
        let file = try cli.write("expiring.jsonl", #"{"uniqueIdentifier":"offer/1","expirationDate":"2030-01-01T00:00:00Z","attributeSet":{"title":"Ocelot offer"}}"# + "\n")
        #expect(try cli.run(["index", "import", file]).status == 0)
        #expect(try cli.ids("ocelot", ["--now", "2029-12-31T23:59:59Z"]) == ["offer/1"])
        #expect(try cli.ids("ocelot", ["--now", "2030-01-01T00:00:00Z"]).isEmpty)
    }

    @Test func indexingPreferenceSetting() throws {
        let cli = CLI()
        try cli.run(["open", "employee/2"])
        #expect(try cli.run(["index", "stats", "--json"]).json.flatMap { $0["bySource"] as? [String: Int] }?["activity"] == 1)
        #expect(try cli.run(["settings", "indexing", "disabled"]).stdout.contains("disabled"))
        #expect(try cli.run(["index", "stats", "--json"]).json.flatMap { $0["bySource"] as? [String: Int] }?["activity"] == 0)
        #expect(try cli.run(["settings", "indexing"]).stdout.contains("indexing disabled"))
    }

    @Test func damagedIndexIsRebuiltWithANotice() throws {
        let cli = CLI()
        try Data(repeating: 0x42, count: 1000).write(to: URL(fileURLWithPath: cli.indexPath))
        let run = try cli.run(["search", "brent", "--json"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("notice"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(try cli.ids("brent").first == "employee/1")
    }
}

@Suite struct CrawlAndLintTests {
    @Test func crawlShowsWebItemsAndMergedResultsListTwoSources() throws {
        let cli = CLI()
        let crawl = try cli.run(["crawl", CLI.dataDirectory + "/web"])
        #expect(crawl.status == 0)
        let stats = try cli.run(["index", "stats", "--json"])
        #expect((stats.json?["bySource"] as? [String: Int])?["web"] ?? 0 > 0)
        let result = (try cli.run(["search", "北极光", "--json"]).json?["results"] as? [[String: Any]])?.first
        #expect(result?["sources"] as? [String] == ["item", "web"])
        // Crawling again changes nothing.
        try cli.run(["crawl", CLI.dataDirectory + "/web"])
        #expect(try cli.run(["index", "stats", "--json"]).json?["results"] as? Int == stats.json?["results"] as? Int)
    }

    @Test func lintIsCleanOnTheFixturesAndFindsAnActivityWithoutItem() throws {
        let cli = CLI()
        let clean = try cli.run(["index", "lint", "--json"])
        #expect(clean.status == 0)
        #expect((try JSONSerialization.jsonObject(with: Data(clean.stdout.utf8)) as? [Any])?.isEmpty == true)
        let file = try cli.write("long.jsonl", #"{"uniqueIdentifier":"x/1","attributeSet":{"title":"\#(String(repeating: "t", count: 95))"}}"# + "\n")
        try cli.run(["index", "import", file])
        let lint = try cli.run(["index", "lint"])
        #expect(lint.stdout.contains("x/1: title-too-long"))
        #expect(lint.stdout.contains("x/1: no-thumbnail"))
    }
}

@Suite struct OpenCommandTests {
    @Test func everySourceOpens() throws {
        let cli = CLI()
        let cases: [([String], String, String)] = [
            (["open", "employee/7"], "employee/7", "identifier"),
            (["open", "searchlight://photo/1"], "photo/1", "url"),
            (["open", "https://photos.example.com/photos/4"], "photo/4", "universal-link"),
            (["open", "https://sl.example.com/e/2"], "employee/2", "universal-link"),
            (["open", "--activity", #"{"activityType":"com.apple.corespotlightitem","userInfo":{"kCSSearchableItemActivityIdentifier":"show/3"}}"#], "show/3", "core-spotlight"),
            (["open", "--activity", #"{"activityType":"com.example.searchlight.view-show","userInfo":{"id":"6"},"requiredUserInfoKeys":["id"]}"#], "show/6", "activity"),
            (["open", "--activity", #"{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://tv.example.com/shows/1"}"#], "show/1", "universal-link"),
        ]
        for (arguments, id, via) in cases {
            let run = try cli.run(arguments + ["--json"])
            #expect(run.status == 0, "\(arguments)")
            #expect((run.json?["item"] as? [String: Any])?["uniqueIdentifier"] as? String == id, "\(arguments)")
            #expect(run.json?["via"] as? String == via, "\(arguments)")
        }
        let shortcut = try cli.run(["open", "com.example.searchlight.people", "--json"])
        #expect(shortcut.json?["via"] as? String == "shortcut")
        #expect(((shortcut.json?["screen"] as? [String: Any])?["items"] as? [Any])?.count ?? 0 >= 25)
    }

    @Test func failuresHaveClearMessagesAndExitCodes() throws {
        let cli = CLI()
        let created = try cli.run(["index", "stats"])
        #expect(created.stderr.contains("notice: created a new index"))
        let browser = try cli.run(["open", "https://elsewhere.example.org/page", "--json"])
        #expect(browser.status == 0)
        #expect((browser.json?["browser"] as? [String: Any])?["url"] as? String == "https://elsewhere.example.org/page")
        for refused in ["javascript:alert(1)", "file:///etc/passwd", "employee/999"] {
            let run = try cli.run(["open", refused])
            #expect(run.status == 1, "\(refused)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
        let missing = try cli.run(["open", "--activity", #"{"activityType":"com.example.searchlight.view-show","requiredUserInfoKeys":["id"]}"#])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("missing userInfo id"))
        #expect(try cli.run(["open", "not an identifier"]).status == 64)
        #expect(try cli.run(["open", ""]).status == 64)
    }
}

@Suite struct ReplayAndDemoTests {
    @Test func replayIsPinnedOnTheFixtures() throws {
        let run = try CLI().run(["replay", "bren", "--no-times", "--top", "3"])
        #expect(run.status == 0)
        #expect(run.stdout == """
            “b”  24 results
              1. Code Breakers     new  show/14  (hint 1,480,000)
              2. Brentwood Nights  new  show/13  (hint 240,000)
              3. Birthday cake     new  photo/8
            “br”  9 results
              1. Code Breakers     =    show/14
              2. Brentwood Nights  =    show/13
              3. Brent Reid        new  employee/1
                 dropped: Birthday cake (photo/8)
            “bre”  6 results
              1. Code Breakers     =    show/14
              2. Brentwood Nights  =    show/13
              3. Brent Reid        =    employee/1
            “bren”  3 results
              1. Brentwood Nights  ↑1   show/13  (hint 240,000)
              2. Brent Reid        ↑1   employee/1
              3. Brenda Okafor     new  employee/4
                 dropped: Code Breakers (show/14)

            """)
    }

    @Test func replayJSONHasOneObjectPerKeystroke() throws {
        let run = try CLI().run(["replay", "aur", "--json"])
        let steps = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(steps.map { $0["query"] as? String } == ["a", "au", "aur"])
        for step in steps {
            for key in ["query", "total", "tookMicroseconds", "results", "dropped"] { #expect(step[key] != nil, "\(key)") }
            let first = try #require((step["results"] as? [[String: Any]])?.first)
            for key in ["uniqueIdentifier", "title", "rank", "movement"] { #expect(first[key] != nil, "\(key)") }
        }
    }

    @Test func replayIsDeterministic() throws {
        let cli = CLI()
        let a = try cli.run(["replay", "photo", "--no-times"]).stdout
        let b = try cli.run(["replay", "photo", "--no-times"]).stdout
        #expect(a == b)
        #expect(!a.isEmpty)
    }

    static let demos: [String] = {
        let folder = CLI.dataDirectory + "/demos"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".demo") }.sorted()
            .map { folder + "/" + $0 }
    }()

    @Test func everyBundledDemoPlaysCleanAndDeterministically() throws {
        #expect(Self.demos.count >= 7)
        let cli = CLI()
        for demo in Self.demos {
            let first = try cli.run(["demo", demo, "--print"])
            #expect(first.status == 0, "\(demo): \(first.stderr)")
            #expect(first.stderr.isEmpty, "\(demo)")
            #expect(try cli.run(["demo", demo, "--print"]).stdout == first.stdout, "\(demo)")
        }
    }

    /// Every demo's printed summary, pinned in `DemoOutputs/` (regenerate
    /// with `searchlight demo Data/demos/NAME.demo --print` after a deliberate change).
    @Test func demoOutputsArePinned() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("DemoOutputs").path
        let cli = CLI()
        for demo in Self.demos {
            let name = ((demo as NSString).lastPathComponent as NSString).deletingPathExtension
            let expected = try String(contentsOfFile: folder + "/\(name).txt", encoding: .utf8)
            #expect(try cli.run(["demo", demo, "--print"]).stdout == expected, "\(name)")
        }
    }

    @Test func demosShowWhatTheyPromise() throws {
        let cli = CLI()
        func last(_ demo: String) throws -> String {
            let out = try cli.run(["demo", CLI.dataDirectory + "/demos/\(demo).demo", "--print"]).stdout
            return String(out.components(separatedBy: "\n[").last ?? "")
        }
        #expect(try last("engagement").contains("1. Brenda Okafor  =  employee/4  (item+activity)"))
        #expect(try last("expiry").contains("dropped: New Year Countdown Special (show/15)"))
        #expect(try last("activity-merge").contains("1. 東京夜景  =  photo/4  (item+activity)"))
        #expect(try !last("delete-domain").split(separator: "\n").filter { $0.hasPrefix("    1") || $0.hasPrefix("    2") }.contains { $0.contains("show/") })
        #expect(try last("delete-domain").contains("dropped: The Night Kitchen (show/2)"))
        #expect(try last("cjk").contains("北极光"))
        let popularity = try last("popularity").split(separator: "\n").map(String.init)
        #expect(popularity.contains("    1. Northern Lights  ↑1  show/16  (item)"))
        #expect(popularity.contains("    2. Northern Lights Diaries  ↓1  show/6  (item)"))
    }

    @Test func aBrokenScriptNamesItsLine() throws {
        let cli = CLI()
        let file = try cli.write("bad.demo", "caption hi\nwait forever\n")
        let run = try cli.run(["demo", file, "--print"])
        #expect(run.status == 65)
        #expect(run.stderr.contains("bad.demo:2: step:"))
    }
}
