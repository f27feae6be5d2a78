import Foundation
import TerminalUI

/// Runs the terminal UI: the screen model on this (main) thread, painted by
/// the ncurses driver after every key, until the user quits.
enum TerminalSession {
    static func run(backend: any SearchBackend) {
        let color = ProcessInfo.processInfo.environment["NO_COLOR"].map { $0.isEmpty } ?? true
        let terminal = NcursesTerminal(color: color)
        defer { terminal.close() }
        let app = TerminalApp(backend: backend, width: terminal.width, height: terminal.height,
                              color: terminal.colorAvailable)
        terminal.paint(app.render())
        while !app.shouldQuit {
            guard let key = terminal.readKey(timeout: 250) else {
                if backend.progress != nil { terminal.paint(app.render()) }
                continue
            }
            app.handle(key)
            terminal.paint(app.render())
        }
    }
}
