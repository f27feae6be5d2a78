import Testing
@testable import TerminalUI

@Suite struct ScreenTests {
    @Test func wideCharactersTakeTwoCellsAndAreNeverCutInHalf() {
        var screen = Screen(width: 6, height: 1)
        let end = screen.write("北极光", row: 0, column: 1)
        #expect(end == 6)
        #expect(screen.lines == [" 北极 "])  // the third character would straddle the edge
        #expect(screen[0, 2].isContinuation)
        #expect(!screen[0, 5].isContinuation)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var screen = Screen(width: 4, height: 1)
        screen.write("北极", row: 0, column: 0)
        screen.write("x", row: 0, column: 1)
        #expect(screen.lines == [" x极"])
    }

    @Test func controlCharactersBecomeVisiblePlaceholders() {
        var screen = Screen(width: 20, height: 1)
        screen.write("a\u{1B}[2Jb\u{07}\u{7F}\u{9B}c", row: 0, column: 0)
        let line = screen.lines[0]
        #expect(line.hasPrefix("a␛[2Jb␇␡\u{FFFD}c"))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
    }

    @Test func truncationAndWrappingCountColumns() {
        #expect("北极光北极光".truncated(toColumns: 7) == "北极光…")
        #expect("Brent Reid".truncated(toColumns: 20) == "Brent Reid")
        #expect("one two three four".wrapped(toColumns: 9) == ["one two", "three", "four"])
        #expect("  indented words here".wrapped(toColumns: 10) == ["  indented", "  words", "  here"])
    }

    @Test func displayWidths() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("北极光") == 6)
        #expect(DisplayWidth.of("ｶﾀｶﾅ") == 4)  // halfwidth katakana
        #expect(DisplayWidth.of("Zoë") == 3)
        #expect(DisplayWidth.of("🌌") == 2)
    }
}
