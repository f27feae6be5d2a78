import Foundation
import Testing

/// The UI open in one terminal while other processes change the index
/// (SPEC section 7), in a real terminal (tmux), as a person would try it.
@Suite(.serialized) struct LiveIndexEndToEndTests {
    typealias Tmux = TerminalEndToEndTests.Tmux

    func walrusFile(_ cli: CLI, count: Int, name: String = "walrus.jsonl") throws -> String {
        let lines = (1...count).map {
            #"{"uniqueIdentifier":"walrus/\#($0)","domainIdentifier":"com.example.zoo","visibility":"public","attributeSet":{"title":"Walrus \#($0)"}}"#
        }
        return try cli.write(name, lines.joined(separator: "\n") + "\n")
    }

    /// A large index without a current snapshot opens at once: the UI says
    /// how far the read has come, takes the query typed meanwhile, and
    /// answers it when the engine is in.
    @Test(.enabled(if: TerminalEndToEndTests.tmuxAvailable)) func aLargeIndexIsReadBehindTheScreen() throws {
        let t = Tmux()
        defer { t.stop() }
        #expect(try t.cli.run(["index", "import", try walrusFile(t.cli, count: 120_000)]).status == 0)
        try FileManager.default.removeItem(atPath: t.cli.indexPath + ".snapshot")
        try t.open(width: 100, height: 30)
        try t.waitFor("building the index: ")
        try t.type("walrus 119999")
        try t.waitForAll("Results for “walrus 119999” appear when it is ready.", "reading the index…")
        try t.waitForAll("1/1 · ", "[item] Walrus 119999", seconds: 120)
        try t.quit()
        // Quitting saved the engine read: the next start loads it.
        #expect(FileManager.default.fileExists(atPath: t.cli.indexPath + ".snapshot"))
    }

    @Test(.enabled(if: TerminalEndToEndTests.tmuxAvailable)) func anotherProcessesChangesAppearWithNoKeyPressed() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.open(width: 100, height: 30)
        try t.type("walrus")
        try t.waitFor("No results for “walrus”")
        #expect(try t.cli.run(["index", "import", try walrusFile(t.cli, count: 3)]).status == 0)
        try t.waitForAll("Walrus 3", "1/3 · ", seconds: 2)
        try t.waitForAll("index changed by another process", "searchlight index import", "+3 items", seconds: 2)
        #expect(try t.cli.run(["index", "delete", "--domain", "com.example.zoo"]).status == 0)
        try t.waitUntil("the walruses to go", seconds: 2) { !$0.contains("Walrus") && $0.contains("No results") }
        #expect(try t.cli.run(["settings", "indexing", "disabled"]).status == 0)
        try t.waitFor("indexing disabled", seconds: 2)
        try t.send("C-t")
        // The other process's operations are marked as such in the log.
        try t.waitForAll("preference", "disabled", "⇄ by searchlight settings", "last written by searchlight settings · pid ")
        try t.send("Escape")
        try t.quit()
    }

    @Test(.enabled(if: TerminalEndToEndTests.tmuxAvailable)) func openingAnItemAnotherProcessDeletedRecordsNothing() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.open(width: 100, height: 30)
        // A query only that item matches: once it is gone, nothing else is opened.
        try t.type("northern lights diaries")
        try t.waitFor("Northern Lights Diaries")
        let id = try #require(try t.cli.ids("northern lights diaries").first)
        #expect(try t.cli.run(["settings", "indexing", "disabled"]).status == 0)
        #expect(try t.cli.run(["index", "delete", "--id", id]).status == 0)
        // At once, before or after the UI has followed: either way nothing is recorded.
        try t.send("Enter")
        Thread.sleep(forTimeInterval: 1)
        try t.send("Escape")
        try t.quit()
        let export = try t.cli.run(["index", "export"])
        #expect(!export.stdout.contains("\"\(id)\""))
        let stats = try t.cli.run(["index", "stats", "--json"]).json
        #expect(stats?["engagements"] as? Int == 0)
        #expect(stats?["indexingPreference"] as? String == "disabled")
        #expect(try t.cli.run(["index", "export"]).stdout.contains("activity") == false)
    }

    @Test(.enabled(if: TerminalEndToEndTests.tmuxAvailable)) func killingTheUIDuringABackgroundImportLeavesTheStoreAsItWas() throws {
        let t = Tmux()
        defer { t.stop() }
        #expect(try t.cli.run(["index", "stats", "--json"]).status == 0)
        let before = try t.cli.run(["index", "export"]).stdout
        let file = try walrusFile(t.cli, count: 60_000, name: "big.jsonl")
        try t.start(width: 100, height: 30)
        try t.launch(arguments: "--import '\(file)'")
        // Killed while its one transaction is being written.
        try t.waitFor("writing big.jsonl", seconds: 30)
        let pkill = Process()
        pkill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        pkill.arguments = ["-KILL", "-f", t.cli.indexPath]
        try pkill.run()
        pkill.waitUntilExit()
        try t.waitFor("SESSION-DONE")
        #expect(try t.cli.run(["index", "export"]).stdout == before)
    }

    @Test(.enabled(if: TerminalEndToEndTests.tmuxAvailable)) func quittingDuringABackgroundImportAsksFirst() throws {
        let t = Tmux()
        defer { t.stop() }
        _ = try t.cli.run(["index", "stats"])
        let file = try walrusFile(t.cli, count: 60_000, name: "big.jsonl")
        try t.start(width: 100, height: 30)
        try t.launch(arguments: "--import '\(file)'")
        try t.waitUntil("the import to start", seconds: 20) { $0.contains("reading big.jsonl") || $0.contains("writing big.jsonl") }
        try t.send("C-c")
        // Unless it finished first, the UI asks; answering no keeps it open.
        let screen = try t.waitUntil("a question or the end", seconds: 10) {
            $0.contains("quit and discard it?") || $0.contains("imported 60000 items")
        }
        if screen.contains("quit and discard it?") {
            try t.send("n")
            try t.waitFor("cancelled")
        }
        try t.waitFor("imported 60000 items from big.jsonl", seconds: 120)
        try t.type("walrus")
        try t.waitFor("1/60,000")
        try t.quit()
        #expect(try t.cli.run(["search", "walrus", "--limit", "0"]).stdout.contains("60000"))
    }
}
