import ArgumentParser
import Foundation
import SearchIndex

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Print ranked results for a query.")

    @Argument(help: "The query; every term must match, as a word or a word's start. Filters: kind:NAME, domain:D, source:item|activity|web.")
    var query: [String]

    @Option(help: "At most this many results.")
    var limit = 20

    @Option(help: "Only results in this domain (and its subdomains); repeatable.")
    var domain: [String] = []

    @Flag(help: "Print one JSON object.")
    var json = false

    @Flag(help: "Show each ranking rule's value and what matched.")
    var explain = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
        let text = query.joined(separator: " ")
        if let problem = QueryLimits.problem(with: text) ?? QueryFilters.problem(with: text) { throw ValidationError(problem) }
    }

    func run() throws {
        try CommandContext.run {
            let index = try CommandContext.open(global)
            let text = query.joined(separator: " ")
            let started = DispatchTime.now().uptimeNanoseconds
            let response = index.engine.search(try SearchQuery(
                parsing: text, limit: limit, domains: domain, now: global.date, explainsMatches: explain))
            let took = Int((DispatchTime.now().uptimeNanoseconds - started) / 1000)
            if json {
                var object: [String: Any] = [
                    "query": text, "total": response.total, "tookMicroseconds": took,
                    "results": response.results.map { JSONForm.result($0, explain: explain) },
                ]
                if explain { object["plan"] = JSONForm.plan(response.plan) }
                try Output.json(object)
                BenchCommand.holdIfTimed()
                return
            }
            if response.total == 0 {
                try Output.line("No results for “\(Output.safe(text))”.")
                if explain { try Output.line(Output.safe(Self.describe(response.plan))) }
                return
            }
            for (rank, result) in response.results.enumerated() {
                let sources = result.sources.map(\.rawValue).joined(separator: "+")
                try Output.line("\(rank + 1). \(Output.safe(result.title))  [\(Output.safe(result.contentType))]  \(Output.safe(result.uniqueIdentifier))  (\(sources))")
                if explain {
                    for line in result.explanation.lines { try Output.line("     " + Output.safe(line)) }
                }
            }
            try Output.line("\(response.total) result\(response.total == 1 ? "" : "s") in \(took) µs")
            if explain { try Output.line(Output.safe(Self.describe(response.plan))) }
        }
    }

    /// The plan as `--explain` prints it: `plan: exact+scan (why)`.
    static func describe(_ plan: QueryPlan) -> String {
        let fallback = plan.fellBackFrom.map { ", after \($0.rawValue) could not answer" } ?? ""
        return "plan: \(plan.name) (\(plan.reason)\(fallback))"
    }
}
