import ArgumentParser
import Catalog
import Foundation
import SearchIndex
import SearchStore

struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index", abstract: "Import, delete, inspect, export and reset the index.",
        subcommands: [ImportCommand.self, DeleteCommand.self, StatsCommand.self, ExportCommand.self, ResetCommand.self, LintCommand.self])
}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Index items from JSON array or JSON Lines files; each file is applied whole or not at all.")

    @Argument(help: "Files to import.")
    var files: [String]

    @Option(help: "Put every imported item in this domain.")
    var domain: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file to import") }
        if let domain, domain.isEmpty { throw ValidationError("--domain must not be empty") }
    }

    func run() throws {
        try CommandContext.run {
            // Validate every file first, so the store is opened (and locked) only to write.
            let batches = try files.map { try ItemImporter.items(atPath: $0, domain: domain) }
            let index = try CommandContext.open(global, needsEngine: false)
            for (file, items) in zip(files, batches) {
                try index.index(items, clientState: "imported \(file)", at: global.date)
                let done = "imported \(items.count) item\(items.count == 1 ? "" : "s") from \(file)"
                do { try Output.line(done) } catch let failure as Output.WriteFailure {
                    // The file is in the store: the user must learn that too.
                    throw CommandFailure(message: "\(done), but \(failure)", code: ExitStatus.ioError)
                }
            }
        }
    }
}

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete by identifier, by domain (hierarchical), or everything.")

    @Option(parsing: .upToNextOption, help: "Identifiers to delete.")
    var id: [String] = []

    @Option(parsing: .upToNextOption, help: "Domains to delete, with their subdomains.")
    var domain: [String] = []

    @Flag(help: "Delete everything.")
    var all = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        let chosen = [!id.isEmpty, !domain.isEmpty, all].filter { $0 }.count
        if chosen != 1 { throw ValidationError("give exactly one of --id, --domain or --all") }
    }

    func run() throws {
        try CommandContext.run {
            let index = try CommandContext.open(global)
            if all {
                let count = index.engine.documentCount
                try index.deleteAll(at: global.date)
                try Output.line("deleted everything (\(count) result\(count == 1 ? "" : "s"))")
            } else if !id.isEmpty {
                let removed = try index.deleteItems(identifiers: id, at: global.date)
                try Output.line("deleted \(removed.count) item\(removed.count == 1 ? "" : "s")")
            } else {
                let removed = try index.deleteItems(domainIdentifiers: domain, at: global.date)
                try Output.line("deleted \(removed.count) item\(removed.count == 1 ? "" : "s")")
            }
        }
    }
}

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Counts by domain and source, sizes, and the index format version.")

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try CommandContext.run {
            let index = try CommandContext.open(global)
            let stats = IndexStatistics(index, now: global.date)
            if json {
                try Output.json(stats.jsonObject)
                return
            }
            for line in stats.lines { try Output.line(line) }
        }
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Print what is indexed as JSON Lines (the import format).")

    @Flag(name: .customLong("public"), help: "Only what may be shown publicly: never private or restricted items.")
    var publicOnly = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try CommandContext.run {
            let index = try CommandContext.open(global)
            let engine = index.engine
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = StoredDate.encodingStrategy
            let exposure = Exposure(engine)
            for id in engine.records.keys.sorted() {
                let record = engine.records[id]!
                if publicOnly && !exposure.isPublic(record) { continue }
                var object = JSONForm.encodable(record.item) as? [String: Any] ?? [:]
                object["source"] = record.source.rawValue
                try Output.json(object)
            }
            for id in engine.activities.keys.sorted() {
                let activity = engine.activities[id]!
                if publicOnly && !exposure.isPublic(activity) { continue }
                try Output.json(["source": "activity", "identifier": id, "activity": JSONForm.encodable(activity)] as [String: Any])
            }
        }
    }
}

/// What may leave the device (SPEC 1, privacy): public items, pages that do
/// not mirror a private or restricted item, and activities that ask for
/// public indexing and point only at public items.
struct Exposure {
    let engine: SearchEngine
    /// Page URLs owned by items that are not public.
    let hiddenURLs: Set<String>

    init(_ engine: SearchEngine) {
        self.engine = engine
        hiddenURLs = Set(engine.records.values.compactMap { record in
            record.source == .item && record.item.visibility != .public ? record.item.attributeSet.url : nil
        })
    }

    func isPublic(_ record: IndexRecord) -> Bool {
        guard record.item.visibility == .public else { return false }
        if record.source == .web, let url = record.item.attributeSet.url, hiddenURLs.contains(url) { return false }
        return true
    }

    func isPublic(_ activity: UserActivity) -> Bool {
        guard activity.isEligibleForPublicIndexing else { return false }
        if let related = activity.relatedUniqueIdentifier {
            guard let record = engine.records[related], isPublic(record) else { return false }
        }
        if let url = activity.webpageURL, hiddenURLs.contains(url) { return false }
        return true
    }
}

struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Drop the store and re-index from --data.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try CommandContext.run {
            // Validate the fixtures before touching the store.
            let items = try FixtureCatalog.items(in: global.dataDirectory)
            let index = try CommandContext.open(global, needsEngine: false)
            try index.replaceAll(with: items, reason: global.dataDirectory, at: global.date)
            try Output.line("re-indexed \(items.count) item\(items.count == 1 ? "" : "s") from \(global.dataDirectory)")
        }
    }
}
