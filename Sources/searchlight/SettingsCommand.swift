import ArgumentParser
import SearchIndex

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Settings stored with the index.", subcommands: [IndexingSetting.self])
}

struct IndexingSetting: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "indexing", abstract: "Whether viewed records become search results (disabled | viewed-records).")

    @Argument(help: "disabled or viewed-records; omit to print the current value.")
    var value: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let value, IndexingPreference(rawValue: value) == nil {
            throw ValidationError("'\(value)' is not an indexing preference: use disabled or viewed-records")
        }
    }

    func run() throws {
        try CommandContext.run {
            let index = try CommandContext.open(global)
            if let value, let preference = IndexingPreference(rawValue: value) {
                try index.setPreference(preference, at: global.date)
            }
            try Output.line("indexing \(index.engine.preference.rawValue)")
        }
    }
}
