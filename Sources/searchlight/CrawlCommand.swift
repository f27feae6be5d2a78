import ArgumentParser
import Catalog
import Foundation
import SearchStore

struct CrawlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawl", abstract: "Index the web markup of the pages under DIR/<domain>/ as web items.")

    @Argument(help: "A folder with one subfolder per domain (e.g. Data/web).")
    var directory: String

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try CommandContext.run {
            let crawl = try WebCrawler.crawl(directory: directory)
            let index = try CommandContext.open(global)
            try index.replaceWebPages(crawl.items, inDomains: crawl.domains, at: global.date)
            for (path, reason) in crawl.skipped { Output.error("skipped \(Output.safe(path)): \(reason)") }
            let merged = crawl.items.filter { item in
                index.engine.result(for: item.uniqueIdentifier) == nil
            }.count
            try Output.line("crawled \(crawl.items.count) page\(crawl.items.count == 1 ? "" : "s") from \(crawl.domains.count) domain\(crawl.domains.count == 1 ? "" : "s"); \(merged) merged with app items")
        }
    }
}

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "List what breaks Apple's guidance for search results (long titles or descriptions, no thumbnail, too many keywords, activities without a related item).")

    @Flag(help: "Print a JSON array of findings.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try CommandContext.run {
            let index = try CommandContext.open(global)
            let engine = index.engine
            var findings: [ResultGuidance.Finding] = []
            for id in engine.records.keys.sorted() { findings += ResultGuidance.check(engine.records[id]!.item) }
            for id in engine.activities.keys.sorted() { findings += ResultGuidance.check(engine.activities[id]!, identifier: id) }
            for row in try index.quarantinedRecords() {
                findings.append(ResultGuidance.Finding(uniqueIdentifier: row.uniqueIdentifier, rule: "unreadable",
                                                       detail: "the stored record cannot be read back (\(row.problem)); delete or import it again"))
            }
            if json {
                try Output.json(findings.map { ["uniqueIdentifier": $0.uniqueIdentifier, "rule": $0.rule, "detail": $0.detail] })
                return
            }
            for finding in findings {
                try Output.line("\(Output.safe(finding.uniqueIdentifier)): \(finding.rule): \(Output.safe(finding.detail))")
            }
            try Output.line(findings.isEmpty ? "no findings" : "\(findings.count) finding\(findings.count == 1 ? "" : "s")")
        }
    }
}
