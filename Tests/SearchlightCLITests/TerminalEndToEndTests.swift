import Foundation
import TestSupport
import Testing

/// The real binary in a real terminal (tmux), used as a person would:
/// type, see, open, go back, resize, quit — and the terminal is as it was.
@Suite(.serialized) struct TerminalEndToEndTests {
    static let tmuxAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

    final class Tmux {
        let socket = "searchlight-e2e-\(UUID().uuidString.prefix(8))"
        let cli = CLI()

        @discardableResult
        func tmux(_ arguments: [String]) throws -> String {
            // Through the shell with system(3), not Foundation's Process: the
            // tmux server that new-session starts inherits the descriptors
            // Process watches and would keep it waiting forever.
            let outputPath = (cli.folder as NSString).appendingPathComponent("tmux-\(UUID().uuidString).out")
            defer { try? FileManager.default.removeItem(atPath: outputPath) }
            let words = ["/usr/bin/tmux", "-u", "-L", socket] + arguments
            // UTF-8 whatever the caller's locale: without it tmux draws
            // every character outside ASCII as `_`.
            let command = "TERM=xterm-256color TMUX= LANG=C.UTF-8 LC_ALL=C.UTF-8 " + words.map(Self.quote).joined(separator: " ")
                + " >" + Self.quote(outputPath) + " 2>/dev/null </dev/null"
            _ = system(command)
            return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        }

        static func quote(_ word: String) -> String {
            "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }

        func start(width: Int, height: Int) throws {
            try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "bash --norc --noprofile"])
            try tmux(["set-option", "-g", "status", "off"])
        }

        func send(_ keys: String...) throws { try tmux(["send-keys"] + keys) }
        func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }
        func screen() throws -> String { try tmux(["capture-pane", "-p"]) }

        /// Waits until the screen contains `text`, up to `seconds`.
        @discardableResult
        func waitFor(_ text: String, seconds: Double = 10) throws -> String {
            try waitUntil(text.debugDescription, seconds: seconds) { $0.contains(text) }
        }

        /// Waits until the screen contains every one of `texts` at once, up
        /// to `seconds`: a capture taken while the terminal is still
        /// painting can hold one line of the new screen and not the next.
        @discardableResult
        func waitForAll(_ texts: String..., seconds: Double = 10) throws -> String {
            try waitUntil(texts.debugDescription, seconds: seconds) { screen in texts.allSatisfy { screen.contains($0) } }
        }

        /// The screen once two captures a moment apart are alike (every key
        /// sent so far taken and drawn), up to `seconds`.
        func settled(seconds: Double = 10) throws -> String {
            var last = try screen()
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                Thread.sleep(forTimeInterval: 0.3)
                let now = try screen()
                if now == last { return now }
                last = now
            }
            Issue.record("the screen did not settle\n\(last)")
            return last
        }

        /// Waits until the screen satisfies `test`, up to `seconds`.
        @discardableResult
        func waitUntil(_ what: String, seconds: Double = 10, _ test: (String) -> Bool) throws -> String {
            var last = ""
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                last = try screen()
                if test(last) { return last }
                Thread.sleep(forTimeInterval: 0.05)
            }
            Issue.record("timed out waiting for \(what)\n\(last)")
            return last
        }

        func file(_ name: String) -> String { (cli.folder as NSString).appendingPathComponent(name) }

        func launch(_ extra: String = "", arguments: String = "") throws {
            let command = "stty -a > \(file("before.txt")); \(extra) '\(CLI.binary)' --index '\(cli.indexPath)' --data '\(CLI.dataDirectory)' \(arguments); " +
                "echo \"exit=$?\" > \(file("status.txt")); stty -a > \(file("after.txt")); clear; echo SESSION-'DONE'"
            try type(command)
            try send("Enter")
        }

        /// Starts a terminal of this size with the UI open and ready.
        func open(width: Int, height: Int, _ extra: String = "", arguments: String = "") throws {
            try start(width: width, height: height)
            try launch(extra, arguments: arguments)
            try waitFor("Type to search")
        }

        /// Quits the UI with Ctrl-C and waits for the shell to be back.
        func quit() throws {
            try send("C-c")
            try waitFor("SESSION-DONE")
        }

        func stop() { _ = try? tmux(["kill-server"]) }
    }

    @Test(.enabled(if: tmuxAvailable)) func typeOpenGoBackResizeQuit() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.open(width: 100, height: 30)
        try t.type("brent")
        var screen = try t.waitFor("Search › brent ")
        screen = try t.waitForAll("Brent Reid", "µs", "▣ 120×120 JPEG")
        try t.send("Enter")
        // Wait for a line further down the pane: a capture taken while the
        // terminal is still painting can hold the pane's top over the old list.
        screen = try t.waitForAll("Actions (shown, not run)", "opened via Core Spotlight item employee/1")
        try t.send("Escape")
        screen = try t.waitForAll("Tab why", "Search › brent", "▸ [person] Brent Reid")
        try t.tmux(["resize-window", "-x", "40", "-y", "12"])
        // Until the UI has repainted at the new size (tmux reflows the old
        // screen at once, and a busy machine may take a while to repaint).
        func rows(_ screen: String) -> [Substring] { Array(screen.split(separator: "\n", omittingEmptySubsequences: false).dropLast()) }
        screen = try t.waitUntil("the screen at 40×12") { screen in
            let lines = rows(screen)
            return screen.contains("Brent Reid") && lines.first?.hasPrefix("Search › brent") == true
                && lines.last?.hasPrefix("↑↓ move") == true
        }
        let lines = rows(screen)
        #expect(lines.count == 12)
        #expect(lines.first?.hasPrefix("Search › brent") == true)
        #expect(lines.last?.hasPrefix("↑↓ move") == true)
        try t.send("C-u")
        try t.type("北极")
        try t.waitFor("Search › 北极")
        screen = try t.waitForAll("北极光", "[photo] 北极光")
        try t.tmux(["resize-window", "-x", "100", "-y", "30"])
        try t.send("F1")
        try t.waitFor("Ctrl-W")
        try t.send("Escape")
        try t.quit()
        let before = try String(contentsOfFile: t.file("before.txt"), encoding: .utf8)
        let after = try String(contentsOfFile: t.file("after.txt"), encoding: .utf8)
        // Size lines differ after the resize; every mode flag must be back.
        func flags(_ s: String) -> [String] { s.split(separator: "\n").dropFirst().map(String.init) }
        #expect(flags(before) == flags(after))
        // Ctrl-C is an interrupt, as in fzf: exit 130.
        #expect(try String(contentsOfFile: t.file("status.txt"), encoding: .utf8).contains("exit=130"))
    }

    @Test(.enabled(if: tmuxAvailable)) func terminalIsRestoredOnSIGTERM() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.open(width: 80, height: 24)
        try t.type("aur")
        try t.waitFor("Search › aur")
        try t.waitFor("Aurora")
        let pkill = Process()
        pkill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        pkill.arguments = ["-TERM", "-f", t.cli.indexPath]
        try pkill.run()
        pkill.waitUntilExit()
        try t.waitFor("SESSION-DONE")
        let before = try String(contentsOfFile: t.file("before.txt"), encoding: .utf8)
        let after = try String(contentsOfFile: t.file("after.txt"), encoding: .utf8)
        #expect(before == after)
        #expect(try String(contentsOfFile: t.file("status.txt"), encoding: .utf8).contains("exit=143"))
    }

    @Test(.enabled(if: tmuxAvailable)) func noColorAndHostileDataStayPlain() throws {
        let t = Tmux()
        defer { t.stop() }
        let file = try t.cli.write("hostile.jsonl", #"{"uniqueIdentifier":"x/1","visibility":"public","attributeSet":{"title":"Zebra\u001b[2J\u001b]0;owned\u0007 title"}}"# + "\n")
        #expect(try t.cli.run(["index", "import", file]).status == 0)
        try t.start(width: 100, height: 30)
        try t.launch("NO_COLOR=1")
        try t.waitFor("Type to search")
        try t.type("zebra")
        try t.waitFor("Search › zebra")
        let screen = try t.waitForAll("Zebra", "Zebra␛[2J␛]0;owned␇ title")
        #expect(!screen.contains("owned\u{07}"))
        let colours = try t.tmux(["capture-pane", "-p", "-e"])
        #expect(!colours.contains("38;5;"), "NO_COLOR: no colour sequences")
        try t.quit()
    }

    @Test(.enabled(if: tmuxAvailable)) func everyBundledDemoPlaysInTheUI() throws {
        let t = Tmux()
        defer { t.stop() }
        try t.start(width: 100, height: 30)
        for demo in ReplayAndDemoTests.demos {
            let command = "'\(CLI.binary)' demo '\(demo)' --speed 20 --data '\(CLI.dataDirectory)' --index '\(t.cli.indexPath)'; echo demo-'exit'=$?"
            try t.type("clear; " + command)
            try t.send("Enter")
            try t.waitFor("▶ ", seconds: 30)
            try t.waitFor("demo finished", seconds: 30)
            try t.send("Escape")
            let screen = try t.waitFor("demo-exit=")
            #expect(screen.contains("demo-exit=0"), "\(demo)")
        }
    }
}
