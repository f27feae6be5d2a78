import ArgumentParser
import Foundation
import Routing
import SearchIndex

struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open", abstract: "Route an identifier, print the route and the item, and record an engagement.")

    @Argument(help: "An identifier (type/id) or a searchlight://type/id URL.")
    var target: String

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try CommandContext.run {
            let route: Route
            let via: String
            if let url = URLComponents(string: target), url.scheme == "searchlight", let host = url.host, !host.isEmpty,
                let parsed = Route(uniqueIdentifier: host + url.path)
            {
                route = parsed
                via = "url"
            } else if let parsed = Route(uniqueIdentifier: target) {
                route = parsed
                via = "identifier"
            } else {
                throw CommandFailure(message: "'\(Output.safe(target))' is neither an identifier (type/id) nor a URL Searchlight opens", code: ExitStatus.usage)
            }
            let index = try CommandContext.open(global)
            guard index.engine.isVisible(route.uniqueIdentifier, at: global.date),
                let result = index.engine.result(for: route.uniqueIdentifier)
            else {
                throw CommandFailure(message: "nothing in the index is called \(Output.safe(route.uniqueIdentifier))", code: ExitStatus.failure)
            }
            var attributes = AttributeSet(contentType: result.contentType)
            attributes.relatedUniqueIdentifier = result.uniqueIdentifier
            let activity = UserActivity(
                activityType: "com.example.searchlight.view-\(route.contentType)", title: result.title,
                userInfo: ["id": route.identifier], contentAttributeSet: attributes, isEligibleForSearch: true,
                persistentIdentifier: "view/\(result.uniqueIdentifier)")
            let outcome = try index.becomeCurrent(activity, at: global.date)
            let opened = index.engine.result(for: route.uniqueIdentifier) ?? result
            if json {
                try Output.json([
                    "route": ["contentType": route.contentType, "identifier": route.identifier],
                    "via": via, "activity": outcome.rawValue,
                    "item": [
                        "uniqueIdentifier": opened.uniqueIdentifier, "domainIdentifier": opened.domainIdentifier ?? NSNull(),
                        "title": opened.title, "sources": opened.sources.map(\.rawValue),
                        "views": opened.explanation.views,
                        "attributeSet": JSONForm.encodable(opened.attributes),
                    ] as [String: Any],
                ] as [String: Any])
                return
            }
            Output.line("route \(Output.safe(route.contentType)) \(Output.safe(route.identifier)) (via \(via))")
            Output.line("\(Output.safe(opened.title))  [\(opened.contentType)]  \(opened.sources.map(\.rawValue).joined(separator: "+"))")
            if let description = opened.attributes.contentDescription { Output.line(Output.safe(description)) }
            Output.line("views \(opened.explanation.views)")
        }
    }
}

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
            Output.line("indexing \(index.engine.preference.rawValue)")
        }
    }
}
