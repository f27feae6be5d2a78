/// The detail pane as wrapped lines, shared by the renderer (to draw a
/// window of them) and the screen model (to keep the selected related
/// item inside that window as it moves or scrolls).
struct DetailText {
    enum Tone { case heading, badge, muted, plain, alert }

    struct Line {
        var text: String
        var tone: Tone
        /// The related item this line shows (its first line only).
        var related: Int?
    }

    let lines: [Line]

    init(_ detail: Detail, selection: Int, width: Int) {
        var raw: [(String, Tone, Int?)] = [(detail.title, .heading, nil), (detail.subtitle, .badge, nil), (detail.via, .muted, nil)]
        if let url = detail.browserURL { raw.append(("This opens in the browser (not run here): \(url)", .alert, nil)) }
        for fact in detail.facts { raw.append(("\(fact.label): \(fact.value)", .plain, nil)) }
        if !detail.actions.isEmpty {
            raw.append(("Actions (shown, not run):", .heading, nil))
            for action in detail.actions { raw.append(("  • " + action, .plain, nil)) }
        }
        var lastHeading = ""
        for (index, related) in detail.related.enumerated() {
            if related.heading != lastHeading {
                raw.append((related.heading + ":", .heading, nil))
                lastHeading = related.heading
            }
            raw.append(((index == selection ? "▸ " : "  ") + related.title + "  " + related.identifier, .plain, index))
        }
        var lines: [Line] = []
        for (text, tone, related) in raw where !text.isEmpty {
            for (part, piece) in text.wrapped(toColumns: max(1, width)).enumerated() {
                lines.append(Line(text: piece, tone: tone, related: part == 0 ? related : nil))
            }
        }
        self.lines = lines
    }

    /// The line of related item `index`.
    func line(ofRelated index: Int) -> Int? {
        lines.firstIndex { $0.related == index }
    }

    /// The related items on lines `window`.
    func related(in window: Range<Int>) -> [Int] {
        window.clamped(to: lines.indices).compactMap { lines[$0].related }
    }

    /// The first line to show so that `line` is inside a window of
    /// `height` lines that started at `scroll`.
    static func scroll(_ scroll: Int, keeping line: Int, height: Int) -> Int {
        if line < scroll { return line }
        if line >= scroll + height { return line - height + 1 }
        return scroll
    }
}
