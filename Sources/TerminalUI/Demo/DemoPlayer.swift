import Foundation
import SearchIndex

/// The clock a demo moves (`clock` steps); the backend reads it.
public final class DemoClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    public init(_ date: Date) { current = date }
    public var now: Date {
        get { lock.lock(); defer { lock.unlock() }; return current }
        set { lock.lock(); current = newValue; lock.unlock() }
    }
}

/// Plays a demo script against the screen model, one tick at a time: a
/// keystroke of a `type` step, or one other step. The terminal driver paces
/// the ticks; `--print` runs them all and prints each summary.
public final class DemoPlayer {
    public let script: DemoScript
    public let app: TerminalApp
    private let backend: any SearchBackend
    private let clock: DemoClock
    private var lineIndex = 0
    private var typed = 0
    public private(set) var caption: String?
    /// Summaries of what the screen showed after each tick, for `--print`.
    public private(set) var summaries: [String] = []
    private var lastTop: [(String, String)] = []
    private let top: Int

    public init(script: DemoScript, app: TerminalApp, backend: any SearchBackend, clock: DemoClock, top: Int = 5) {
        self.script = script
        self.app = app
        self.backend = backend
        self.clock = clock
        self.top = top
        app.showMovement = true
    }

    public var isFinished: Bool { lineIndex >= script.lines.count }

    /// How long to wait before the next tick, at a human pace.
    public var pause: Int {
        guard !isFinished else { return 0 }
        switch script.lines[lineIndex].step {
        case .wait(let ms): return ms
        case .type: return 180
        case .caption: return 400
        default: return 900
        }
    }

    /// Performs the next tick.
    public func tick() {
        guard !isFinished else { return }
        let line = script.lines[lineIndex]
        var summarize = true
        switch line.step {
        case .caption(let text):
            caption = text
            app.caption = text
            summarize = false
            summaries.append("## \(text)")
        case .type(let text):
            let characters = Array(text)
            if typed < characters.count {
                app.handle(.character(characters[typed]))
                typed += 1
            }
            if typed < characters.count {
                record(line)
                return
            }
            typed = 0
        case .key(let key): app.handle(key)
        case .wait: summarize = false
        case .openSelected: app.handle(.enter)
        case .back: app.handle(.escape)
        case .openIdentifier(let id, let times):
            for _ in 0..<times { _ = backend.open(identifier: id) }
            app.note("opened \(id) \(times) time\(times == 1 ? "" : "s")")
        case .delete(let id): app.note(backend.deleteItem(id))
        case .deleteDomain(let domain): app.note(backend.deleteDomain(domain))
        case .indexing(let preference): app.note(backend.setPreference(preference))
        case .clock(let date):
            clock.now = date
            app.note("clock \(ISO8601DateFormatter().string(from: date))")
        }
        lineIndex += 1
        if summarize {
            app.refresh()
            record(line)
        }
    }

    /// Adds the whole screen as it is now to the summaries (`demo --print --frames`).
    public func appendFrame() {
        summaries.append("--- frame ---\n" + app.render().lines.joined(separator: "\n") + "\n--- end of frame ---")
    }

    /// A screen-independent summary: the step, the query and the top
    /// results with their movement since the last summary.
    private func record(_ line: DemoScript.Line) {
        // An empty query's starting point is not an answer: summarised as none.
        let answered = !app.state.showsStartingPoint
        let results = answered ? Array(app.state.results.prefix(top)) : []
        let (movements, dropped) = RankMovement.compare(previous: lastTop.map(\.0), current: results.map(\.uniqueIdentifier))
        let titles = Dictionary(lastTop, uniquingKeysWith: { a, _ in a })
        var out = ["[\(line.number)] \(Self.describe(line.step))  query “\(app.state.query)”  \(answered ? app.state.response?.total ?? 0 : 0) result\(answered && app.state.response?.total == 1 ? "" : "s")"]
        if let message = app.state.message { out.append("    \(message)") }
        if case .detail(let detail) = app.state.mode { out.append("    detail: \(detail.title) — \(detail.via)") }
        for (rank, result) in results.enumerated() {
            let sources = result.sources.map(\.rawValue).joined(separator: "+")
            out.append("    \(rank + 1). \(result.title)  \(movements[rank])  \(result.uniqueIdentifier)  (\(sources))")
        }
        if !dropped.isEmpty { out.append("    dropped: " + dropped.map { "\(titles[$0] ?? $0) (\($0))" }.joined(separator: ", ")) }
        lastTop = results.map { ($0.uniqueIdentifier, $0.title) }
        summaries.append(out.joined(separator: "\n"))
    }

    static func describe(_ step: DemoScript.Step) -> String {
        switch step {
        case .caption(let text): "caption \(text)"
        case .type(let text): "type \(text)"
        case .key(let key): "key \(DemoScript.name(of: key))"
        case .wait(let ms): "wait \(ms)ms"
        case .openSelected: "open"
        case .back: "back"
        case .openIdentifier(let id, let times): "open \(id) \(times)"
        case .delete(let id): "delete \(id)"
        case .deleteDomain(let domain): "delete-domain \(domain)"
        case .indexing(let preference): "indexing \(preference.rawValue)"
        case .clock(let date): "clock \(ISO8601DateFormatter().string(from: date))"
        }
    }

    /// Plays everything without pauses.
    public func playAll() {
        while !isFinished { tick() }
    }
}
