import Foundation
import SearchIndex
import TerminalUI

/// Types a query one keystroke at a time and records, for every keystroke,
/// the top results with their movement against the keystroke before.
enum Replay {
    struct Entry: Sendable, Hashable {
        var uniqueIdentifier: String
        var title: String
        /// 1-based.
        var rank: Int
        var movement: RankMovement
        var sources: [Source]
        /// The result's rule values.
        var key: RankingKey
        /// For a result that rose or arrived, the rule that puts it above the
        /// result now after it (`RankingKey.decidingRule`); nil otherwise.
        var decidedBy: String?
    }

    struct Step: Sendable, Hashable {
        var query: String
        var total: Int
        var microseconds: Int
        var results: [Entry]
        /// (identifier, title) of results that left the top since the keystroke before.
        var dropped: [(String, String)]

        static func == (a: Step, b: Step) -> Bool {
            a.query == b.query && a.total == b.total && a.results == b.results
                && a.dropped.map(\.0) == b.dropped.map(\.0)
        }
        func hash(into hasher: inout Hasher) { hasher.combine(query) }
    }

    /// One step for every non-blank prefix of `query`.
    static func run(_ query: String, in engine: SearchEngine, top: Int, now: Date) -> [Step] {
        var steps: [Step] = []
        var previous: [(String, String)] = []
        var prefix = ""
        for character in query {
            prefix.append(character)
            if prefix.allSatisfy(\.isWhitespace) { continue }
            let step = Self.step(prefix, in: engine, top: top, now: now, previous: previous)
            previous = step.results.map { ($0.uniqueIdentifier, $0.title) }
            steps.append(step)
        }
        return steps
    }

    /// The rule that keeps the result at `rank` above the next, when it moved up or is new.
    private static func decidingRule(at rank: Int, in results: [SearchResult], movement: RankMovement) -> String? {
        switch movement {
        case .up, .new: break
        case .down, .same: return nil
        }
        guard rank + 1 < results.count else { return nil }
        return RankingKey.decidingRule(results[rank].explanation.key, results[rank + 1].explanation.key)
    }

    /// One answer compared with the `previous` top list (identifier, title).
    static func step(_ query: String, in engine: SearchEngine, top: Int, now: Date, previous: [(String, String)]) -> Step {
        let start = DispatchTime.now().uptimeNanoseconds
        // A filter word still being typed (`kind:pho`) is left out until it is known.
        let response = engine.search(SearchQuery(typing: query, limit: top, now: now))
        let micros = Int((DispatchTime.now().uptimeNanoseconds - start) / 1000)
        let ids = response.results.map(\.uniqueIdentifier)
        let (movements, dropped) = RankMovement.compare(previous: previous.map(\.0), current: ids)
        let titles = Dictionary(previous, uniquingKeysWith: { a, _ in a })
        return Step(
            query: query, total: response.total, microseconds: micros,
            results: response.results.enumerated().map { rank, result in
                Entry(uniqueIdentifier: result.uniqueIdentifier, title: result.title, rank: rank + 1,
                      movement: movements[rank], sources: result.sources, key: result.explanation.key,
                      decidedBy: decidingRule(at: rank, in: response.results, movement: movements[rank]))
            },
            dropped: dropped.map { ($0, titles[$0] ?? $0) })
    }
}
