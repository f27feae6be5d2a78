import ArgumentParser
import Foundation
import Routing
import SearchIndex

struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Route an identifier, URL, quick action or activity; print the route and the item; record an engagement.")

    @Argument(help: "type/id, searchlight://type/id, an https link, or a quick action type.")
    var target: String?

    @Option(help: "Route this activity instead (JSON text, or a file holding it).")
    var activity: String?

    @Flag(help: "Start the system browser for an https link Searchlight does not handle.")
    var browser = false

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if (target == nil) == (activity == nil) { throw ValidationError("give something to open, or --activity") }
    }

    func run() throws {
        try CommandContext.run {
            let router = try loadRouter()
            let outcome: Router.Outcome
            do {
                if let activity {
                    outcome = try router.route(activity: try parseActivity(activity))
                } else {
                    outcome = try router.route(target!)
                }
            } catch let error as RoutingError {
                let code = error.kind == .notRoutable ? ExitStatus.usage : (error.kind == .badAssociation ? ExitStatus.badData : ExitStatus.failure)
                throw CommandFailure(message: Output.safe(error.message), code: code)
            }
            switch outcome {
            case .browser(let url, let reason):
                try offerToBrowser(url: url, reason: reason)
            case .route(let resolution):
                try open(resolution)
            }
        }
    }

    private func loadRouter() throws -> Router {
        do {
            let router = try Router.load(dataDirectory: global.dataDirectory)
            for warning in router.warnings { Output.error("warning: " + warning) }
            return router
        } catch let error as RoutingError {
            throw CommandFailure(message: error.message, code: ExitStatus.badData)
        }
    }

    private func parseActivity(_ text: String) throws -> UserActivity {
        let data: Data
        if text.trimmingCharacters(in: .whitespaces).hasPrefix("{") {
            data = Data(text.utf8)
        } else if let contents = FileManager.default.contents(atPath: text) {
            data = contents
        } else {
            throw CommandFailure(message: "--activity: cannot read \(Output.safe(text))", code: ExitStatus.usage)
        }
        do {
            return try JSONDecoder().decode(UserActivity.self, from: data)
        } catch {
            throw CommandFailure(message: "--activity: not a user activity (\(error))", code: ExitStatus.badData)
        }
    }

    private func offerToBrowser(url: String, reason: String) throws {
        var launched = false
        if browser, url.lowercased().hasPrefix("https://") {
            // An argument vector, never a shell: the URL is one argument.
            let opener = Process()
            opener.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-open")
            opener.arguments = [url]
            launched = (try? opener.run()) != nil
        }
        if json {
            try Output.json(["browser": ["url": url, "reason": reason, "launched": launched]] as [String: Any])
        } else {
            try Output.line("not handled by Searchlight (\(Output.safe(reason)))")
            try Output.line("open it in a browser: \(Output.safe(url))")
        }
    }

    private func open(_ resolution: Router.Resolution) throws {
        let index = try CommandContext.open(global)
        let route = resolution.route
        switch Destination.resolve(route, in: index.engine, now: global.date) {
        case .notFound(let message):
            throw CommandFailure(message: Output.safe(message), code: ExitStatus.failure)
        case .screen(let title, let items):
            if json {
                try Output.json([
                    "route": ["contentType": route.contentType, "identifier": route.identifier],
                    "via": resolution.source, "detail": resolution.detail,
                    "screen": ["title": title, "items": items.map { JSONForm.result($0, explain: false) }],
                ] as [String: Any])
                return
            }
            try Output.line("route \(Output.safe(route.description)) (via \(Output.safe(resolution.detail)))")
            try Output.line(title)
            for item in items { try Output.line("  \(Output.safe(item.title))  \(Output.safe(item.uniqueIdentifier))") }
        case .item(let result):
            let activity = Router.viewActivity(for: route, title: result.title, contentType: result.contentType)
            let outcome = try index.becomeCurrent(activity, at: global.date)
            let opened = index.engine.result(for: route.uniqueIdentifier) ?? result
            if json {
                try Output.json([
                    "route": ["contentType": route.contentType, "identifier": route.identifier],
                    "via": resolution.source, "detail": resolution.detail, "activity": outcome.rawValue,
                    "item": [
                        "uniqueIdentifier": opened.uniqueIdentifier, "domainIdentifier": opened.domainIdentifier ?? NSNull(),
                        "title": opened.title, "sources": opened.sources.map(\.rawValue),
                        "views": opened.explanation.views, "visibility": opened.visibility.rawValue,
                        "attributeSet": JSONForm.encodable(opened.attributes),
                    ] as [String: Any],
                ] as [String: Any])
                return
            }
            try Output.line("route \(Output.safe(route.description)) (via \(Output.safe(resolution.detail)))")
            try Output.line("\(Output.safe(opened.title))  [\(Output.safe(opened.contentType))]  \(opened.sources.map(\.rawValue).joined(separator: "+"))")
            if let description = opened.attributes.contentDescription { try Output.line(Output.safe(description)) }
            try Output.line("views \(opened.explanation.views)")
        }
    }
}
