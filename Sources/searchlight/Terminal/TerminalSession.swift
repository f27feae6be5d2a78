import Foundation
import TerminalUI

/// Runs the terminal UI: the screen model on this (main) thread, painted by
/// the ncurses driver after every key, until the user quits.
enum TerminalSession {
    /// Returns the state the user left (a picker's choice, an interrupt).
    @discardableResult
    static func run(backend: any SearchBackend, picking: Bool = false, query: String = "") throws -> AppState {
        let color = ProcessInfo.processInfo.environment["NO_COLOR"].map { $0.isEmpty } ?? true
        let terminal = try NcursesTerminal(color: color, onTTY: picking)
        defer { terminal.close() }
        let app = TerminalApp(backend: backend, width: terminal.width, height: terminal.height,
                              color: terminal.colorAvailable, picking: picking)
        if !query.isEmpty { app.start(with: query) }
        terminal.paint(app.render())
        var lastProgress: String?
        while !app.shouldQuit {
            // Keys first; background work only in the gaps between them. Idle,
            // the loop wakes ten times a second to follow other writers.
            let key = terminal.readKey(timeout: backend.hasPendingWork ? 0 : 100)
            if let key { app.handle(key) }
            let changed = backend.pump()
            if changed { app.refresh() }
            let notice = backend.takeNotice()
            if let notice { app.note(notice) }
            let progress = backend.progress
            if key != nil || changed || notice != nil || progress != lastProgress || backend.hasPendingWork {
                terminal.paint(app.render())
            }
            lastProgress = progress
        }
        return app.state
    }
}

extension TerminalSession {
    /// Plays a demo at a human pace: space pauses, → steps, Esc leaves.
    static func runDemo(script: DemoScript, backend: any SearchBackend, clock: DemoClock, speed: Double) {
        let color = ProcessInfo.processInfo.environment["NO_COLOR"].map { $0.isEmpty } ?? true
        guard let terminal = try? NcursesTerminal(color: color) else { return }
        defer { terminal.close() }
        let app = TerminalApp(backend: backend, width: terminal.width, height: terminal.height, color: terminal.colorAvailable)
        let player = DemoPlayer(script: script, app: app, backend: backend, clock: clock)
        var paused = false
        terminal.paint(app.render())
        while true {
            if player.isFinished && !paused {
                app.note("demo finished · Esc leaves")
                paused = true
                terminal.paint(app.render())
            }
            let key = terminal.readKey(timeout: paused ? 500 : Int32(max(1, Double(player.pause) / speed)))
            switch key {
            case .escape?, .control("c")?:
                return
            case .character(" ")?:
                paused.toggle()
                app.note(paused ? "paused · space resumes · → steps" : "playing")
            case .right?:
                player.tick()
            case .resize(let w, let h)?:
                app.handle(.resize(width: w, height: h))
            case nil:
                if !paused { player.tick() }
            default:
                break
            }
            terminal.paint(app.render())
        }
    }
}
