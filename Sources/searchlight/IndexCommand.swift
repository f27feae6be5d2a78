import ArgumentParser
import Catalog
import Foundation
import SearchIndex
import SearchStore
import SearchSupport

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
            try index.prepareForImport()
            for (file, items) in zip(files, batches) {
                try index.index(items, clientState: "imported \(file)", at: global.date)
                let done = "imported \(items.count) item\(items.count == 1 ? "" : "s") from \(file)"
                do { try Output.line(done) } catch let failure as Output.WriteFailure {
                    // The file is in the store: the user must learn that too.
                    throw CommandFailure(message: "\(done), but \(failure)", code: ExitStatus.ioError)
                }
            }
            // The next process answers from the snapshot instead of rebuilding.
            do { try index.leaveReady() } catch {
                Output.error("notice: the import is stored, but the index could not be made ready for the next start (\(error))")
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
            // The counts a current snapshot keeps need no engine; without
            // them the index is opened as every reader opens it.
            var index = try CommandContext.open(global, needsEngine: false)
            if try index.currentSummary() == nil { index = try CommandContext.open(global) }
            let stats = try IndexStatistics(index, now: global.date)
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
            // Read from the store as it stands: no engine is built.
            let index = try CommandContext.open(global, needsEngine: false)
            let activities = try index.store.readableActivities()
            let exposure = try publicOnly ? Exposure(index.store, activities: activities) : nil
            // Each chunk's lines are made on every core (a coder for each
            // share) and written at once, in the store's order.
            try index.store.forEachChunkOfRecords { records in
                let shown = exposure.map { exposure in records.filter { exposure.isPublic($0) } } ?? records
                let lines = try ParallelWork.map(shown[...], minimum: 256) {
                    let encoder = JSONForm.encoder()
                    return { record in
                        // The same bytes, made by hand when every value is plain.
                        if let line = ItemExporter.plainLine(record) { return Output.line(ofJSON: line) }
                        var object = JSONForm.encodable(record.item, with: encoder) as? [String: Any] ?? [:]
                        object["source"] = record.source.rawValue
                        return try Output.jsonLine(object)
                    }
                }
                try Output.text(lines.joined())
            }
            for activity in activities {
                if let exposure, !exposure.isPublic(activity) { continue }
                try Output.json(["source": "activity", "identifier": activity.identifier, "activity": JSONForm.encodable(activity)] as [String: Any])
            }
        }
    }
}

/// What may leave the device (SPEC 1, privacy): public items, pages that do
/// not mirror a private or restricted item, and activities that ask for
/// public indexing and point only at public items.
struct Exposure {
    /// Page URLs owned by items that are not public.
    let hiddenURLs: Set<String>
    /// The items activities point at that may be shown publicly.
    let publicRelated: Set<String>

    /// Reads the store once for what the records' visibility hides.
    init(_ store: IndexStore, activities: [UserActivity]) throws {
        let related = Set(activities.compactMap(\.relatedUniqueIdentifier))
        var hidden = Set<String>()
        var relatedRecords: [IndexRecord] = []
        try store.forEachRecord { record in
            if record.source == .item, record.item.visibility != .public, let url = record.item.attributeSet.url { hidden.insert(url) }
            if related.contains(record.item.uniqueIdentifier) { relatedRecords.append(record) }
        }
        hiddenURLs = hidden
        publicRelated = Set(relatedRecords.filter { Self.isPublic($0, hiding: hidden) }.map(\.item.uniqueIdentifier))
    }

    private static func isPublic(_ record: IndexRecord, hiding hiddenURLs: Set<String>) -> Bool {
        guard record.item.visibility == .public else { return false }
        if record.source == .web, let url = record.item.attributeSet.url, hiddenURLs.contains(url) { return false }
        return true
    }

    func isPublic(_ record: IndexRecord) -> Bool { Self.isPublic(record, hiding: hiddenURLs) }

    func isPublic(_ activity: UserActivity) -> Bool {
        guard activity.isEligibleForPublicIndexing else { return false }
        if let related = activity.relatedUniqueIdentifier, !publicRelated.contains(related) { return false }
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
