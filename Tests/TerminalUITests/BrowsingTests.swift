import Foundation
import SearchIndex
import TestSupport
import Testing
@testable import SearchApp
@testable import TerminalUI

/// Browsing as fzf and Spotlight users expect: scrolling, history, meta
/// keys, every result, a starting point, highlights, filters, a picker.
@Suite struct BrowsingTests {
    func app(width: Int = 100, height: Int = 30, extra: [SearchableItem] = [], picking: Bool = false) throws -> TerminalApp {
        TerminalApp(backend: try makeBackend(extra: extra), width: width, height: height, color: true, picking: picking)
    }

    func shownDetail(_ app: TerminalApp) -> Detail? {
        if case .detail(let detail) = app.state.mode { return detail }
        return nil
    }

    static func walruses(_ count: Int) -> [SearchableItem] {
        (0..<count).map {
            var attributes = AttributeSet(title: "Walrus \($0)")
            attributes.contentDescription = "Seen on the ice at dawn"
            return SearchableItem(uniqueIdentifier: "walrus/\($0)", domainIdentifier: "com.example.zoo", attributeSet: attributes, visibility: .public)
        }
    }

    // MARK: - Scrolling

    @Test func aLongDetailScrollsAndTheSelectionIsAlwaysShown() throws {
        let app = try app(width: 60, height: 15)
        app.type("brent")
        app.handle(.enter)
        var screen = app.render().text
        #expect(screen.contains("↓ more"))
        #expect(!screen.contains("▸"))  // the related items are below the fold
        let detail = try #require(shownDetail(app))
        for _ in 0..<(detail.related.count + 3) {
            app.handle(.down)
            // Whatever is selected is on screen.
            #expect(app.render().text.contains("▸ " + detail.related[app.state.detailSelection].title))
        }
        screen = app.render().text
        #expect(screen.contains("↑ more"))
        // Scrolling back to the top moves the selection onto a shown item.
        app.handle(.pageUp)
        app.handle(.pageUp)
        app.handle(.pageUp)
        #expect(app.state.detailScroll == 0)
        let shown = app.render().text
        if shown.contains("▸") {
            #expect(shown.contains("▸ " + detail.related[app.state.detailSelection].title))
        }
        // Enter opens exactly the item shown as selected.
        app.handle(.end)
        let selectedTitle = detail.related[app.state.detailSelection].title
        #expect(app.render().text.contains("▸ " + selectedTitle))
        app.handle(.enter)
        let opened = try #require(shownDetail(app))
        #expect(opened.title == selectedTitle)
    }

    @Test func thePreviewSaysWhenItIsCutAndScrollsWithShiftArrows() throws {
        let app = try app(width: 40, height: 12)
        app.type("brent")
        var screen = app.render()
        #expect(screen.text.contains("↓ more"))
        let firstPreviewLine = screen.lines[Layout(width: 40, height: 12).preview.top]
        app.handle(.shiftDown)
        screen = app.render()
        #expect(screen.text.contains("↑ more"))
        #expect(screen.lines[Layout(width: 40, height: 12).preview.top] != firstPreviewLine)
        app.handle(.shiftUp)
        #expect(app.render().lines[Layout(width: 40, height: 12).preview.top] == firstPreviewLine)
        // Another selection starts its preview at the top.
        app.handle(.shiftDown)
        app.handle(.down)
        #expect(app.state.previewScroll == 0)
    }

    @Test func theInspectorLogScrolls() throws {
        let app = try app(width: 80, height: 16)
        for _ in 0..<12 {
            app.type("x")
            app.handle(.backspace)
        }
        app.handle(.control("t"))
        for _ in 0..<6 {
            app.handle(.character("p"))
        }
        var screen = app.render().text
        #expect(screen.contains("↑ more"))
        app.handle(.pageUp)
        screen = app.render().text
        #expect(screen.contains("↓ more"))
    }

    // MARK: - History and selection

    @Test func escPopsBackThroughThreeDetailsThenToTheSameResult() throws {
        let app = try app()
        app.type("b")
        app.handle(.down)
        app.handle(.down)
        let chosen = try #require(app.state.selected?.uniqueIdentifier)
        // Brent → a colleague → another colleague.
        app.handle(.enter)
        var titles: [String] = []
        for _ in 0..<2 {
            let detail = try #require(shownDetail(app))
            titles.append(detail.title)
            try #require(!detail.related.isEmpty)
            app.handle(.down)
            app.handle(.enter)
        }
        let third = try #require(shownDetail(app))
        #expect(app.state.history.count == 2)
        #expect(app.render().text.contains("Esc back to \(titles[1])"))
        app.handle(.escape)
        let second = try #require(shownDetail(app))
        #expect(second.title == titles[1] && second.title != third.title)
        #expect(app.state.detailSelection == 1)
        app.handle(.escape)
        let first = try #require(shownDetail(app))
        #expect(first.title == titles[0])
        app.handle(.escape)
        #expect(app.state.mode == .search)
        #expect(app.state.query == "b")
        // Opening recorded a view, which moved the item: the selection followed it.
        #expect(app.state.selected?.uniqueIdentifier == chosen)
    }

    // MARK: - Meta keys

    @Test func altKeysMoveAndDeleteByWords() throws {
        let app = try app()
        app.type("brent reid")
        app.handle(.alt("b"))
        #expect(app.state.query == "brent reid" && app.state.cursor == 6)
        app.handle(.alt("b"))
        #expect(app.state.cursor == 0)
        app.handle(.alt("f"))
        #expect(app.state.cursor == 5)
        app.handle(.alt("d"))
        #expect(app.state.query == "brent")
        app.handle(.alt("\u{7F}"))
        #expect(app.state.query == "" && app.state.cursor == 0)
        // On an empty query Alt-B is no Esc: it does not quit.
        app.handle(.alt("b"))
        #expect(!app.shouldQuit)
    }

    @Test func helpListsEveryKeyThatWorks() throws {
        let app = try app()
        app.handle(.function(1))
        let help = app.render().text
        for keys in ["Ctrl-B", "Ctrl-F", "Alt-B", "Alt-F", "Alt-D", "Alt-Backspace", "Shift-↑", "PgUp", "Ctrl-W", "Ctrl-U", "kind:"] {
            #expect(help.contains(keys), "\(keys)")
        }
    }

    // MARK: - Every result, always the query

    @Test func theQueryStaysVisibleAtNarrowWidths() throws {
        for width in 20...29 {
            let app = try app(width: width, height: 12)
            app.type("brent")
            let bar = app.render().lines[0]
            #expect(bar.contains("brent"), "\(width): \(bar)")
        }
        let app = try app(width: 25, height: 12)
        app.type("brent reid")
        #expect(app.render().lines[0].contains("brent reid"))
    }

    @Test func pagingReachesEveryResultAndShowsThePosition() throws {
        let app = try app(extra: Self.walruses(250))
        app.type("walrus")
        #expect(app.state.response?.total == 250)
        #expect(app.state.results.count == TerminalApp.pageSize)
        for _ in 0..<40 { app.handle(.pageDown) }
        #expect(app.state.selection == 249)
        #expect(app.state.results.count == 250)
        #expect(app.render().lines[0].contains("250/250 · "))
        #expect(app.state.selected?.uniqueIdentifier.hasPrefix("walrus/") == true)
    }

    // MARK: - Starting point

    @Test func anEmptyQueryShowsRecentViewsThenDomains() throws {
        // A clock that moves a minute a reading: the second view is the newer.
        final class Ticking: @unchecked Sendable { var now = fixedNow }
        let ticking = Ticking()
        let fixtures = try makeBackend()
        let backend = IndexBackend(index: fixtures.index, router: fixtures.router, dataDirectory: fixtures.dataDirectory) {
            ticking.now = ticking.now.addingTimeInterval(60)
            return ticking.now
        }
        let app = TerminalApp(backend: backend, width: 100, height: 30)
        app.type("brent")
        app.handle(.enter)
        app.handle(.escape)
        app.handle(.control("u"))
        app.type("aurora")
        app.handle(.enter)
        app.handle(.escape)
        app.handle(.control("u"))
        #expect(app.state.showsStartingPoint)
        let entries = app.state.results
        #expect(entries.prefix(2).map(\.title) == ["Aurora over the fjord", "Brent Reid"])
        #expect(entries.dropFirst(2).allSatisfy { $0.contentType == TerminalApp.domainListing })
        #expect(app.render().text.contains("recently viewed"))
        // A recent opens; a domain lists its items.
        app.handle(.enter)
        let detail = try #require(shownDetail(app))
        #expect(detail.title == "Aurora over the fjord")
        app.handle(.escape)
        app.handle(.down)
        app.handle(.down)
        app.handle(.enter)
        #expect(app.state.query.hasPrefix("domain:"))
        #expect(app.state.results.allSatisfy { $0.domainIdentifier != nil })
        // Typing replaces the starting point.
        app.handle(.control("u"))
        app.type("brent")
        #expect(!app.state.showsStartingPoint)
    }

    // MARK: - Highlights

    @Test func theDescriptionLineHighlightsMatchesTyposIncluded() throws {
        var item = AttributeSet(title: "Dawn")
        item.contentDescription = "A walrus hauled out on the ice"
        let app = try app(extra: [SearchableItem(uniqueIdentifier: "x/1", attributeSet: item, visibility: .public)])
        for query in ["walrus", "walrsu"] {  // the second with a typo (a swap)
            app.handle(.control("u"))
            app.type(query)
            let screen = app.render()
            let row = try #require(screen.lines.firstIndex { $0.contains("A walrus hauled") })
            let column = try #require(screen.lines[row].range(of: "walrus").map { screen.lines[row].distance(from: screen.lines[row].startIndex, to: $0.lowerBound) })
            #expect(screen[row, column].style.underline, "\(query)")
            #expect(!screen[row, column - 2].style.underline, "\(query)")
        }
    }

    // MARK: - Filters

    @Test func filtersRestrictAndAnUnknownOneIsRefusedInTheBar() throws {
        let app = try app()
        app.type("kind:photo aur")
        #expect(!app.state.results.isEmpty)
        #expect(app.state.results.allSatisfy { $0.contentType == "public.image" })
        app.handle(.control("u"))
        app.type("kind:show")
        #expect(app.state.results.count >= 10 && app.state.results.allSatisfy { $0.contentType == "public.movie" })
        app.handle(.control("u"))
        app.type("kind:bogus brent")
        #expect(app.state.results.isEmpty)
        #expect(app.render().lines[0].contains("refused: unknown filter kind:bogus"))
    }

    // MARK: - Picker, interrupts, mouse

    @Test func aPickerChoosesOnEnterAndCancelsOnEsc() throws {
        let picker = try app(picking: true)
        picker.type("brent")
        picker.handle(.enter)
        #expect(picker.shouldQuit && !picker.state.interrupted)
        #expect(picker.state.chosen?.uniqueIdentifier == "employee/1")
        let cancelled = try app(picking: true)
        cancelled.type("brent")
        cancelled.handle(.escape)
        #expect(cancelled.shouldQuit && cancelled.state.interrupted && cancelled.state.chosen == nil)
    }

    @Test func ctrlCQuitsAsInterrupted() throws {
        let app = try app()
        app.handle(.control("c"))
        #expect(app.shouldQuit && app.state.interrupted)
    }

    @Test func aClickSelectsAndAClickOnTheSelectionOpens() throws {
        let app = try app()
        app.type("bre")
        app.handle(.click(row: 2 + 3, column: 5))
        #expect(app.state.selection == 1 && app.state.mode == .search)
        app.handle(.click(row: 2 + 3, column: 5))
        if case .detail = app.state.mode {} else { Issue.record("a click on the selection opens") }
    }

    @Test func theWheelScrollsThePaneUnderThePointer() throws {
        let app = try app(width: 40, height: 12)
        app.type("brent")
        let preview = Layout(width: 40, height: 12).preview
        app.handle(.wheel(up: false, row: preview.top, column: preview.left + 1))
        #expect(app.state.previewScroll > 0 && app.state.selection == 0)
        app.handle(.wheel(up: false, row: 3, column: 2))
        #expect(app.state.selection == 1)
    }

    @Test func emojiSequencesTakeTheColumnsOfOneCluster() {
        #expect(DisplayWidth.of("👨‍👩‍👧") == 2)
        #expect(DisplayWidth.of("🇳🇴") == 2)
        #expect(DisplayWidth.of("❤️") == 2)
        #expect(DisplayWidth.of("a👨‍👩‍👧b") == 4)
    }
}
