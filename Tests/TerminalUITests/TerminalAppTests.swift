import Catalog
import Foundation
import Routing
import SearchIndex
import SearchStore
import TestSupport
import Testing
@testable import SearchApp
@testable import TerminalUI

@Suite struct TerminalAppTests {
    func app(width: Int = 100, height: Int = 30, extra: [SearchableItem] = []) throws -> TerminalApp {
        TerminalApp(backend: try makeBackend(extra: extra), width: width, height: height, color: true)
    }

    @Test func emptyStateSaysWhatToType() throws {
        let text = try app().render().text
        #expect(text.contains("Type to search"))
    }

    @Test func resultsFollowEveryKeystroke() throws {
        let app = try app()
        app.type("b")
        let first = app.state.results.map(\.uniqueIdentifier)
        app.type("rent")
        #expect(app.state.results.first?.title == "Brent Reid")
        #expect(app.state.results.map(\.uniqueIdentifier) != first)
        let screen = app.render()
        #expect(screen.lines[0].contains("Search › brent"))
        // fzf's position: the selected result of all that match.
        #expect(screen.lines[0].contains("1/\(app.state.response!.total) · "))
        #expect(screen.lines[0].contains("µs"))
        #expect(screen.text.contains("[person] Brent Reid"))
    }

    @Test func matchedCharactersAreHighlighted() throws {
        let app = try app()
        app.type("bre")
        let screen = app.render()
        let row = try #require(screen.lines.firstIndex { $0.contains("Brent Reid") })
        let column = try #require(Array(screen.lines[row]).firstIndex(of: "B"))
        #expect(screen[row, column].style.underline)
        #expect(screen[row, column + 2].style.underline)  // "e"
        #expect(!screen[row, column + 3].style.underline)  // "n"
    }

    @Test func noResultsSuggestsSomething() throws {
        let app = try app()
        app.type("qqqqzz")
        #expect(app.render().text.contains("No results for “qqqqzz”"))
    }

    @Test func thumbnailIsDescribedWithASwatch() throws {
        let app = try app()
        app.type("aurora over")
        let screen = app.render()
        let row = try #require(screen.lines.firstIndex { $0.contains("▣ 120×80 JPEG") })
        #expect(screen.lines[row].contains("aurora behind mountains"))
        let swatch = try #require(Array(screen.lines[row]).firstIndex(of: "█"))
        #expect(screen[row, swatch].style.foreground == RGB(hex: "#3BB273"))
    }

    @Test func noColorDropsColoursButKeepsEmphasis() throws {
        let app = TerminalApp(backend: try makeBackend(), width: 100, height: 30, color: false)
        app.type("bre")
        let screen = app.render()
        #expect(screen.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
        #expect(screen.cells.contains { $0.style.underline })
        #expect(!screen.text.contains("██"))
    }

    @Test func readlineEditingKeys() throws {
        let app = try app()
        app.type("brent reid")
        app.handle(.control("w"))
        #expect(app.state.query == "brent ")
        app.handle(.control("a"))
        app.type("x")
        #expect(app.state.query == "xbrent ")
        app.handle(.control("e"))
        app.handle(.backspace)
        #expect(app.state.query == "xbrent")
        app.handle(.home)
        app.handle(.delete)
        #expect(app.state.query == "brent")
        for _ in 0..<4 { app.handle(.right) }
        app.handle(.control("u"))
        #expect(app.state.query == "t")
        app.handle(.end)
        app.handle(.escape)
        #expect(app.state.query.isEmpty)
        #expect(!app.shouldQuit)
        app.handle(.escape)
        #expect(app.shouldQuit)
    }

    @Test func selectionMovesWithFzfKeysAndPages() throws {
        let app = try app()
        app.type("e")
        #expect(app.state.selection == 0)
        for key in [Key.down, .control("n"), .control("j")] { app.handle(key) }
        #expect(app.state.selection == 3)
        for key in [Key.up, .control("p"), .control("k")] { app.handle(key) }
        #expect(app.state.selection == 0)
        app.handle(.up)
        #expect(app.state.selection == 0)
        app.handle(.pageDown)
        #expect(app.state.selection == 9)  // nine three-row results fit in 100×30
        #expect(app.state.scroll == 1)
        app.handle(.pageUp)
        #expect(app.state.selection == 0)
        app.handle(.wheelDown)
        #expect(app.state.selection == 1)
    }

    @Test func previewFollowsTheSelectionAndExplainsOnTab() throws {
        let app = try app()
        app.type("bre")
        app.handle(.down)
        var text = app.render().text
        #expect(text.contains("│ \(app.state.selected!.title)"))
        #expect(!text.contains("why here"))
        app.handle(.tab)
        text = app.render().text
        #expect(text.contains("why here"))
        #expect(text.contains("typos 0"))
    }

    @Test func theExplanationShowsTheExactAndHintRules() throws {
        let app = try app()
        app.type("northern lights")
        #expect(app.state.selected?.uniqueIdentifier == "show/16")
        app.handle(.tab)
        var text = app.render().text
        #expect(text.contains("exact yes"))
        #expect(text.contains("ranking hint 45000"))
        app.handle(.down)
        text = app.render().text
        #expect(app.state.selected?.uniqueIdentifier == "show/6")
        #expect(text.contains("exact no"))
        #expect(text.contains("ranking hint 3200000"))
    }

    /// The search bar leaves the matched tokens out of its queries (they
    /// cost more than ranking a short prefix); Tab brings them for the
    /// explanation it shows, and they follow the query while it is shown.
    @Test func tabNamesTheMatchedTokensAndKeepsNamingThem() throws {
        let app = try app()
        app.type("bre")
        #expect(app.state.results.allSatisfy { $0.explanation.matches.isEmpty })
        app.handle(.tab)
        #expect(app.render().text.contains("bre → "))
        #expect(app.state.results.allSatisfy { $0.explanation.matches.map(\.term) == ["bre"] })
        app.type("n")
        #expect(app.render().text.contains("bren → "))
        app.handle(.tab)
        app.type("t")
        #expect(app.state.results.allSatisfy { $0.explanation.matches.isEmpty })
        #expect(!app.render().text.contains("brent → "))
    }

    @Test func enterOpensThroughTheRouterAndEscGoesBack() throws {
        let app = try app()
        app.type("brent r")
        app.handle(.enter)
        guard case .detail(let detail) = app.state.mode else { Issue.record("no detail"); return }
        #expect(detail.via == "opened via Core Spotlight item employee/1")
        #expect(detail.actions.contains("call +1 (555) 010-2001"))
        #expect(detail.related.contains { $0.heading == "Others in Engineering" })
        #expect(app.render().text.contains("Actions (shown, not run)"))
        // The engagement is recorded: the result now has an activity source.
        #expect(app.state.results.first?.sources == [.item, .activity])
        app.handle(.escape)
        #expect(app.state.mode == .search)
        #expect(app.state.query == "brent r")
        #expect(app.state.selection == 0)
    }

    @Test func photoDetailShowsItsAlbum() throws {
        let app = try app()
        app.type("北极光")
        app.handle(.enter)
        guard case .detail(let detail) = app.state.mode else { Issue.record("no detail"); return }
        #expect(detail.related.contains { $0.heading == "Album" && $0.identifier == "album/1" })
        // Enter on a related item opens it.
        let index = try #require(detail.related.firstIndex { $0.identifier == "album/1" })
        for _ in 0..<index { app.handle(.down) }
        app.handle(.enter)
        guard case .detail(let album) = app.state.mode else { Issue.record("no detail"); return }
        #expect(album.title == "Arctic Winter")
        #expect(album.related.contains { $0.identifier == "photo/1" })
    }

    @Test func quickActionsRouteTheSameWay() throws {
        let app = try app()
        app.handle(.control("o"))
        #expect(app.render().text.contains("All photos"))
        app.handle(.down)
        app.handle(.enter)
        guard case .detail(let detail) = app.state.mode else { Issue.record("no detail"); return }
        #expect(detail.via.contains("quick action"))
        #expect(detail.title == "All photos")
        #expect(detail.related.count >= 10)
    }

    @Test func inspectorDeletesWithConfirmationAndResultsFollowAtOnce() throws {
        let app = try app()
        app.type("brent")
        let doomed = try #require(app.state.selected?.uniqueIdentifier)
        #expect(doomed == "employee/1")
        app.handle(.control("t"))
        var text = app.render().text
        #expect(text.contains("Inspector"))
        #expect(text.contains("com.example.colleagues.employee"))
        #expect(text.contains("indexing preference: viewed-records"))
        app.handle(.character("d"))
        #expect(app.render().text.contains("Delete \(doomed)? (y/n)"))
        app.handle(.character("n"))
        #expect(app.state.results.contains { $0.uniqueIdentifier == doomed })
        app.handle(.character("d"))
        app.handle(.character("y"))
        #expect(!app.state.results.contains { $0.uniqueIdentifier == doomed })
        text = app.render().text
        #expect(text.contains("deleted"))
        // The selection's domain, then everything, then re-index.
        let domain = try #require(app.state.selected?.domainIdentifier)
        app.handle(.character("D"))
        app.handle(.character("y"))
        #expect(!app.state.results.isEmpty)
        #expect(!app.state.results.contains { $0.domainIdentifier == domain })
        app.handle(.character("X"))
        app.handle(.character("y"))
        #expect(app.state.results.isEmpty)
        app.handle(.character("r"))
        app.handle(.character("y"))
        #expect(app.state.results.first?.title == "Brent Reid")
        app.handle(.character("p"))
        #expect(app.render().text.contains("indexing preference: disabled"))
        app.handle(.escape)
        #expect(app.state.mode == .search)
    }

    @Test func helpListsEveryKey() throws {
        let app = try app()
        app.handle(.character("?"))
        let text = app.render().text
        for keys in ["Ctrl-U", "Ctrl-W", "PgUp", "Enter", "Esc", "Ctrl-C", "Tab", "F1"] { #expect(text.contains(keys), "\(keys)") }
        app.handle(.escape)
        app.handle(.function(1))
        #expect(app.state.mode == .help)
    }

    @Test func resizeDownToFortyByTwelveKeepsEverythingInside() throws {
        let app = try app()
        app.type("北极")
        for (w, h) in [(40, 12), (100, 30), (41, 13), (20, 6), (10, 3), (40, 12)] {
            app.handle(.resize(width: w, height: h))
            let screen = app.render()
            #expect(screen.width == w && screen.height == h)
            #expect(screen.lines.allSatisfy { DisplayWidth.of($0) <= w })
        }
        #expect(app.render().text.contains("北极光"))
    }

    @Test func hostileTitlesNeverReachTheTerminal() throws {
        let hostile = SearchableItem(
            uniqueIdentifier: "x/1", domainIdentifier: "x",
            attributeSet: AttributeSet(title: "Evil\u{1B}[2J\u{1B}]0;owned\u{07}zebra", contentDescription: "bell\u{07}\u{9B}31m"),
            visibility: .public)
        let app = try app(extra: [hostile])
        app.type("evil")
        let screen = app.render()
        #expect(screen.text.contains("Evil␛[2J␛]0;owned␇zebra"))
        for cell in screen.cells {
            #expect(!cell.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        }
    }

    @Test func clickSelectsThenOpens() throws {
        let app = try app()
        app.type("bre")
        app.handle(.click(row: 2 + 3, column: 5))
        #expect(app.state.selection == 1)
        app.handle(.click(row: 2 + 3, column: 5))
        if case .detail = app.state.mode {} else { Issue.record("a second click opens") }
    }
}

@Suite struct BackgroundImportTests {
    func walrusFile(_ count: Int) throws -> String {
        let lines = (0..<count).map { #"{"uniqueIdentifier":"w/\#($0)","visibility":"public","attributeSet":{"title":"Walrus \#($0)"}}"# }
        let path = scratchFolder("walrus").appendingPathComponent("walrus.jsonl").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aBackgroundImportArrivesWholeWhileTypingIsAnswered() throws {
        let backend = try makeFileBackend()
        let app = TerminalApp(backend: backend, width: 100, height: 30)
        app.type("walrus")
        #expect(app.state.results.isEmpty)
        backend.startImport(path: try walrusFile(1_000))
        #expect(backend.isImporting)
        var seen: Set<Int> = []
        let arrived = pump(backend, app) {
            // Typing between two pieces of work still answers at once.
            app.handle(.backspace)
            app.type("s")
            seen.insert(app.state.response?.total ?? 0)
            return app.state.response?.total == 1_000
        }
        #expect(arrived)
        // Never a part of the file: the store holds it whole or not at all.
        #expect(seen.isSubset(of: [0, 1_000]))
        pump(backend, app) { !backend.isImporting }
        #expect(backend.progress == "imported 1000 items from walrus.jsonl")
        #expect(try backend.index.store.recordCounts()["item"] == backend.index.engine.records.count)
    }

    /// An index the UI opens without its engine is read on another
    /// thread: the screen says so at once, typing is taken meanwhile, and
    /// the query typed is answered when the engine is in.
    @Test func anIndexIsReadBehindAScreenThatAnswersWhenItIsIn() throws {
        let path = scratchFolder("ui").appendingPathComponent("index.sqlite").path
        let index = try PersistentIndex(store: IndexStore(path: path))
        try index.replaceAll(with: try FixtureCatalog.items(in: dataDirectory), reason: "fixtures", at: fixedNow)
        let (unread, _) = try PersistentIndex.open(path: path, delegate: nil, loadingEngine: false)
        let backend = IndexBackend(index: unread, router: try Router.load(dataDirectory: dataDirectory),
                                   dataDirectory: dataDirectory, clock: { fixedNow })
        let app = TerminalApp(backend: backend, width: 100, height: 30)
        app.type("brent")
        #expect(backend.isLoading)
        let waiting = app.render().text
        #expect(waiting.contains("Results for “brent” appear when it is ready."))
        #expect(waiting.contains("reading the index…"))
        #expect(!waiting.contains("No results"))
        #expect(pump(backend, app) { app.state.results.first?.title == "Brent Reid" })
        #expect(!backend.isLoading)
        #expect(unread.isEngineLoaded)
    }

    @Test func anIndexInMemoryTakesTheFileInOneBatch() throws {
        let backend = try makeBackend()
        let app = TerminalApp(backend: backend, width: 100, height: 30)
        app.type("walrus")
        backend.startImport(path: try walrusFile(600))
        #expect(pump(backend, app) { app.state.response?.total == 600 })
        #expect(try backend.index.operationLog().filter { $0.kind == "indexed" }.count == 1)
    }

    @Test func everyFailureStaysInTheInspectorLogAndChangesNothing() throws {
        let backend = try makeFileBackend()
        let app = TerminalApp(backend: backend, width: 100, height: 30)
        let folder = scratchFolder("bad")
        let first = folder.appendingPathComponent("first.jsonl").path
        let second = folder.appendingPathComponent("second.jsonl").path
        try "{\"uniqueIdentifier\":\"w/1\",\"attributeSet\":{}}\nnot json\n".write(toFile: first, atomically: true, encoding: .utf8)
        try "[{\"uniqueIdentifier\":\"w/2\",\"attributeSet\":{\"rating\":\"x\"}}]".write(toFile: second, atomically: true, encoding: .utf8)
        let before = backend.index.engine.documentCount
        let stored = try backend.index.store.recordCounts()
        backend.startImport(path: first)
        backend.startImport(path: second)
        pump(backend, app) { !backend.isImporting }
        #expect(backend.progress?.contains("second.jsonl") == true)
        let log = backend.inspector().log.filter { $0.1 == "failed" }.map(\.2)
        #expect(log.count == 2)
        #expect(log.first?.contains("first.jsonl:2:") == true)
        #expect(backend.index.engine.documentCount == before)
        #expect(try backend.index.store.recordCounts() == stored)
    }

    @Test func quittingDuringAnImportAsksFirst() throws {
        let backend = SteadyBackend(try makeBackend())
        backend.importing = true
        let app = TerminalApp(backend: backend, width: 100, height: 30)
        app.handle(.control("c"))
        #expect(!app.shouldQuit)
        #expect(app.render().text.contains("An import is running: quit and discard it? (y/n)"))
        app.handle(.character("n"))
        #expect(!app.shouldQuit && app.state.mode == .search)
        app.handle(.escape)
        app.handle(.character("y"))
        #expect(app.shouldQuit)
    }
}
