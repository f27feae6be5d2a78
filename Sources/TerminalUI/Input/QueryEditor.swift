/// Readline's editing of one line: the query's characters and the cursor.
///
/// Two notions of a word, as readline has them: Ctrl-W deletes back to
/// whitespace (`unix-word-rubout`); the Alt keys move over runs of letters
/// and digits (`backward-word`, `forward-word`, `kill-word`,
/// `backward-kill-word`). Invariant: `0 <= cursor <= characters.count`.
struct QueryEditor {
    var characters: [Character]
    var cursor: Int

    init(_ text: String, cursor: Int) {
        characters = Array(text)
        self.cursor = min(max(0, cursor), characters.count)
    }

    var text: String { String(characters) }

    private func isWordCharacter(_ index: Int) -> Bool {
        characters[index].isLetter || characters[index].isNumber
    }

    /// The start of the word before the cursor (Alt-B).
    var wordStartBefore: Int {
        var index = cursor
        while index > 0, !isWordCharacter(index - 1) { index -= 1 }
        while index > 0, isWordCharacter(index - 1) { index -= 1 }
        return index
    }

    /// The end of the word after the cursor (Alt-F).
    var wordEndAfter: Int {
        var index = cursor
        while index < characters.count, !isWordCharacter(index) { index += 1 }
        while index < characters.count, isWordCharacter(index) { index += 1 }
        return index
    }

    mutating func insert(_ character: Character) {
        characters.insert(character, at: cursor)
        cursor += 1
    }

    mutating func deleteBackward() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    mutating func deleteForward() {
        if cursor < characters.count { characters.remove(at: cursor) }
    }

    /// Ctrl-W: back to the previous whitespace.
    mutating func deleteToWhitespaceBackward() {
        var start = cursor
        while start > 0, characters[start - 1] == " " { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Alt-Backspace.
    mutating func deleteWordBackward() {
        let start = wordStartBefore
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Alt-D.
    mutating func deleteWordForward() {
        characters.removeSubrange(cursor..<wordEndAfter)
    }

    /// Ctrl-U.
    mutating func deleteToStart() {
        characters.removeSubrange(0..<cursor)
        cursor = 0
    }

    /// Applies an editing key; false when `key` does not edit the line.
    mutating func apply(_ key: Key) -> Bool {
        switch key {
        case .character(let c): insert(c)
        case .backspace, .control("h"): deleteBackward()
        case .delete, .control("d"): deleteForward()
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .alt("b"): cursor = wordStartBefore
        case .alt("f"): cursor = wordEndAfter
        case .alt("d"): deleteWordForward()
        case .alt("\u{7F}"): deleteWordBackward()
        case .control("u"): deleteToStart()
        case .control("w"): deleteToWhitespaceBackward()
        default: return false
        }
        return true
    }
}
