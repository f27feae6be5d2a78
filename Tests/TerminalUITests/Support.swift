import Catalog
import Foundation
import TestSupport
import Routing
import SearchIndex
import SearchStore
@testable import SearchApp
@testable import TerminalUI

let fixedNow = ISO8601DateFormatter().date(from: "2026-11-22T20:00:00Z")!

/// A backend over the real fixtures in an in-memory index, at a fixed clock.
func makeBackend(extra: [SearchableItem] = []) throws -> IndexBackend {
    let index = try PersistentIndex(store: IndexStore(path: nil))
    try index.replaceAll(with: try FixtureCatalog.items(in: dataDirectory) + extra, reason: "fixtures", at: fixedNow)
    return IndexBackend(index: index, router: try Router.load(dataDirectory: dataDirectory), dataDirectory: dataDirectory,
                        clock: { fixedNow })
}

/// A backend over the fixtures in an index file of its own folder.
func makeFileBackend() throws -> IndexBackend {
    let path = scratchFolder("ui").appendingPathComponent("index.sqlite").path
    let index = try PersistentIndex(store: IndexStore(path: path))
    try index.replaceAll(with: try FixtureCatalog.items(in: dataDirectory), reason: "fixtures", at: fixedNow)
    _ = try index.loadEngine()
    return IndexBackend(index: index, router: try Router.load(dataDirectory: dataDirectory), dataDirectory: dataDirectory,
                        clock: { fixedNow })
}

/// Runs the UI loop's work between keys until `done` holds (at most thirty
/// seconds: a debug build on a machine busy with other suites is slow), as
/// the terminal session does; true when it held.
@discardableResult
func pump(_ backend: any SearchBackend, _ app: TerminalApp, until done: () -> Bool) -> Bool {
    for _ in 0..<3_000 {
        if backend.pump() { app.refresh() }
        if let notice = backend.takeNotice() { app.note(notice) }
        if done() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return false
}

/// A backend whose search time is always the same, so whole screens can be
/// compared with stored snapshots.
final class SteadyBackend: SearchBackend {
    let inner: IndexBackend
    /// Says an import runs, to test quitting during one.
    var importing = false
    var isImporting: Bool { importing }
    init(_ inner: IndexBackend) { self.inner = inner }
    func search(_ text: String, limit: Int, explained: Bool) -> (response: SearchResponse, microseconds: Int) {
        (inner.search(text, limit: limit, explained: explained).response, 42)
    }
    func open(_ result: SearchResult) -> Detail { inner.open(result) }
    func open(identifier: String) -> Detail { inner.open(identifier: identifier) }
    var quickActions: [QuickAction] { inner.quickActions }
    func runQuickAction(_ type: String) -> Detail { inner.runQuickAction(type) }
    func inspector() -> InspectorSnapshot {
        var snapshot = inner.inspector()
        snapshot.log = snapshot.log.map { ("00:00:00", $0.1, $0.2) }
        return snapshot
    }
    func togglePreference() -> String { inner.togglePreference() }
    func setPreference(_ preference: IndexingPreference) -> String { inner.setPreference(preference) }
    func deleteItem(_ identifier: String) -> String { inner.deleteItem(identifier) }
    func deleteDomain(_ domain: String) -> String { inner.deleteDomain(domain) }
    func deleteEverything() -> String { inner.deleteEverything() }
    func reindex() -> String { inner.reindex() }
    var progress: String? { nil }
    func matchedTokens(of identifiers: [String], query: String) -> [String: Set<String>] {
        inner.matchedTokens(of: identifiers, query: query)
    }
    func startingPoint() -> [SearchResult] { inner.startingPoint() }
}

extension TerminalApp {
    func type(_ text: String) {
        for character in text { handle(.character(character)) }
    }
}
