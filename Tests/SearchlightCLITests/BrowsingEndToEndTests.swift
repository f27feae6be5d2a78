import Foundation
import Testing

/// Browsing as an fzf or Spotlight user would try it, in the real binary
/// in a real terminal (tmux).
@Suite(.serialized) struct BrowsingEndToEndTests {
    typealias Tmux = TerminalEndToEndTests.Tmux
    static let enabled = TerminalEndToEndTests.tmuxAvailable

    func lines(_ screen: String) -> [String] { screen.components(separatedBy: "\n") }

    @Test(.enabled(if: enabled)) func aLongDetailScrollsAtSixtyByFifteen() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.open(width: 60, height: 15)
        try t.type("brent")
        try t.waitFor("Brent Reid")
        try t.send("Enter")
        var screen = try t.waitFor("↓ more")
        for _ in 0..<12 { try t.send("Down") }
        try t.waitFor("▸ ")
        // Read once every Down is taken (two captures alike): the selected
        // related item is on screen, and Enter opens that one. The pane's
        // "↓ more" marker may end its line.
        screen = try t.settled()
        let selected = try #require(lines(screen).first { $0.contains("▸ ") })
        let identifier = try #require(selected.firstMatch(of: /employee\/\d+/).map { String($0.output) })
        try t.send("Enter")
        // The opened item's header line, once the whole new detail is
        // painted (a capture mid-paint can hold the new footer and old lines).
        try t.waitUntil("the detail of \(identifier)") { screen in
            screen.contains("Esc back to Brent Reid") && self.lines(screen)[3].contains(" · \(identifier) · ")
        }
        try t.quit()
    }

    @Test(.enabled(if: enabled)) func escWalksBackThroughThreeDetails() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.open(width: 100, height: 30)
        try t.type("brent")
        try t.waitFor("Brent Reid")
        try t.send("Enter")
        try t.waitFor("Others in Engineering")
        try t.send("Down")
        try t.send("Enter")
        try t.waitFor("Esc back to Brent Reid")
        try t.send("Down")
        try t.send("Enter")
        let third = try t.waitUntil("a third detail") { $0.contains("Esc back to") && !$0.contains("Esc back to Brent Reid") }
        #expect(third.contains("Esc back to"))
        try t.send("Escape")
        try t.waitFor("Esc back to Brent Reid")
        try t.send("Escape")
        try t.waitUntil("Brent's detail") { $0.contains("Others in Engineering") && !$0.contains("Esc back to") }
        try t.send("Escape")
        try t.waitForAll("Tab why", "Search › brent", "▸ [person] Brent Reid")
        try t.quit()
    }

    @Test(.enabled(if: enabled)) func altBMovesAWordOnBrentReid() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.open(width: 100, height: 30)
        try t.type("brent reid")
        try t.waitFor("Search › brent reid")
        try t.send("M-b")
        try t.type("X")
        try t.waitFor("Search › brent Xreid")
        // On an empty query Alt-B is not Esc: the UI stays.
        try t.send("C-u")
        try t.send("M-b")
        try t.type("aur")
        try t.waitFor("Search › aur")
        try t.quit()
    }

    @Test(.enabled(if: enabled)) func theQueryStaysVisibleAtTwentyFiveColumns() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.start(width: 25, height: 12)
        try t.launch()
        try t.waitFor("Type to")
        try t.type("brent")
        let screen = try t.waitUntil("the answer under the query") { screen in
            screen.contains("Brent Reid") && self.lines(screen).first?.hasPrefix("› brent") == true
        }
        #expect(lines(screen)[0].hasPrefix("› brent"))
        try t.quit()
    }

    @Test(.enabled(if: enabled)) func pageDownGoesPastResultOneHundred() throws {
        let t = Tmux()
        defer { t.stop() }
        let lines = (1...250).map {
            #"{"uniqueIdentifier":"walrus/\#($0)","visibility":"public","attributeSet":{"title":"Walrus \#($0)","contentDescription":"Seen on the ice at dawn"}}"#
        }
        #expect(try t.cli.run(["index", "import", try t.cli.write("w.jsonl", lines.joined(separator: "\n"))]).status == 0)
        try t.open(width: 100, height: 30)
        try t.type("walrus")
        try t.waitFor("1/250 · ")
        for _ in 0..<15 { try t.send("PageDown") }
        let screen = try t.waitUntil("a position past 100") { screen in
            guard let range = screen.range(of: #"(\d+)/250 · "#, options: .regularExpression) else { return false }
            return Int(screen[range].split(separator: "/")[0]) ?? 0 > 100
        }
        #expect(screen.contains("[item] Walrus"))
        // The description line highlights the word that matched there.
        try t.send("C-u")
        try t.type("dawn")
        try t.waitUntil("the answer to dawn") { $0.contains("Search › dawn ") && $0.contains("/251 · ") && $0.contains("Seen on the ice at") }
        // With attributes: taken again until a capture is not caught mid-paint.
        var line: String?
        for _ in 0..<50 where line == nil {
            line = try t.tmux(["capture-pane", "-p", "-e"]).components(separatedBy: "\n").first {
                $0.contains("Seen on the ice at") && $0.contains("dawn")
            }
            if line == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        let styledLine = try #require(line)
        let before = styledLine.components(separatedBy: "dawn")[0]
        #expect(before.hasSuffix("m"), "an attribute change right before the word: \(styledLine.debugDescription)")
        try t.quit()
    }

    @Test(.enabled(if: enabled)) func anEmptyQueryShowsTheTwoItemsJustOpened() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.open(width: 100, height: 30)
        for query in ["brent", "aurora over"] {
            try t.type(query)
            try t.waitFor("1/")
            try t.send("Enter")
            try t.waitFor("opened via")
            try t.send("Escape")
            try t.waitFor("Tab why")
            try t.send("C-u")
        }
        func viewedRows(_ screen: String) -> [String] {
            lines(screen).filter { $0.contains("[photo] Aurora over the fjord") || $0.contains("[person] Brent Reid") }
        }
        // The whole empty-query screen, not a capture taken mid-paint.
        let screen = try t.waitUntil("both viewed items and the domains") { screen in
            screen.contains("recently viewed") && viewedRows(screen).count == 2 && screen.contains("[domain] com.example.tv.show")
        }
        let rows = viewedRows(screen)
        #expect(rows.count == 2)
        #expect(rows.first?.contains("Aurora") == true)
        #expect(screen.contains("[domain] com.example.tv.show"))
        try t.quit()
    }

    @Test(.enabled(if: enabled)) func aKindFilterKeepsOnlyPhotos() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.open(width: 100, height: 30)
        try t.type("kind:photo aur")
        let screen = try t.waitFor("Aurora over the fjord")
        let badges = lines(screen).compactMap { line in line.range(of: #"\[[a-z]+\]"#, options: .regularExpression).map { String(line[$0]) } }
        #expect(!badges.isEmpty && badges.allSatisfy { $0 == "[photo]" })
        try t.send("C-u")
        try t.type("kind:bogus")
        try t.waitFor("refused: unknown filter kind:bogus")
        try t.quit()
    }

    @Test(.enabled(if: enabled)) func pickPrintsTheChosenIdentifierAndNeverDrawsOnStdout() throws {
        let t = Tmux()
        defer { t.stop() }
        _ = try t.cli.run(["index", "stats"])
        try t.start(width: 100, height: 30)
        let out = t.file("picked.txt")
        let pick = "'\(CLI.binary)' pick brent --index '\(t.cli.indexPath)' --data '\(CLI.dataDirectory)'"
        try t.type("\(pick) > '\(out)'; echo \"pick-exit=$?\"")
        try t.send("Enter")
        try t.waitFor("Brent Reid")
        try t.send("Enter")
        try t.waitFor("pick-exit=0")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "employee/1\n")
        // One command at a time: a second picker would hide the first's line.
        try t.type("\(pick) > '\(out).2'; echo \"esc-exit=$?\"")
        try t.send("Enter")
        try t.waitFor("Brent Reid")
        try t.send("Escape")
        try t.waitFor("esc-exit=130")
        #expect(try String(contentsOfFile: out + ".2", encoding: .utf8) == "")
    }

    @Test(.enabled(if: enabled)) func ctrlCExitsOneHundredThirty() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.open(width: 80, height: 24)
        try t.quit()
        #expect(try String(contentsOfFile: t.file("status.txt"), encoding: .utf8).contains("exit=130"))
    }
}
