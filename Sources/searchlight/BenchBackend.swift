import Foundation
import SearchIndex
import TerminalUI

/// The terminal UI's view of the benchmark's in-memory engine, so `bench`
/// can time a keystroke through the screen model (query, state, every cell
/// of the screen) on the same index as the engine figures. Only typing is
/// timed; anything that would change the index is refused with a message.
final class BenchBackend: SearchBackend {
    private let engine: SearchEngine
    private let now: Date

    init(engine: SearchEngine, now: Date) {
        self.engine = engine
        self.now = now
    }

    func search(_ text: String, limit: Int, explained: Bool) -> (response: SearchResponse, microseconds: Int) {
        let start = DispatchTime.now().uptimeNanoseconds
        let response = engine.search(SearchQuery(typing: text, limit: limit, now: now, explainsMatches: explained))
        return (response, Int((DispatchTime.now().uptimeNanoseconds - start) / 1000))
    }

    /// As the real backend: the rows on screen are highlighted on every keystroke.
    func matchedTokens(of identifiers: [String], query: String) -> [String: Set<String>] {
        engine.matchedTokens(of: identifiers, for: query)
    }

    func open(_ result: SearchResult) -> Detail { Detail(via: "benchmark", title: result.title) }
    func open(identifier: String) -> Detail { Detail(via: "benchmark", title: identifier) }
    var quickActions: [QuickAction] { [] }
    func runQuickAction(_ type: String) -> Detail { Detail(via: "benchmark", title: type) }
    func inspector() -> InspectorSnapshot {
        InspectorSnapshot(byDomain: [], bySource: [], preference: engine.preference, log: [])
    }
    func togglePreference() -> String { Self.readOnly }
    func setPreference(_ preference: IndexingPreference) -> String { Self.readOnly }
    func deleteItem(_ identifier: String) -> String { Self.readOnly }
    func deleteDomain(_ domain: String) -> String { Self.readOnly }
    func deleteEverything() -> String { Self.readOnly }
    func reindex() -> String { Self.readOnly }
    var progress: String? { nil }

    private static let readOnly = "the benchmark's index is read-only"
}
