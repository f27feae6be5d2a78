import Foundation
import SearchIndex

/// What a route leads to in this index: an item's detail, or a screen that
/// lists items (the quick actions' routes), or nothing.
public enum Destination: Sendable {
    case item(SearchResult)
    case screen(title: String, items: [SearchResult])
    case notFound(String)

    /// Screens a quick action can open, by route content type.
    public static let screens: [String: String] = [
        "recent": "Recently viewed", "photos": "All photos", "people": "People", "shows": "Shows", "search": "Search",
    ]

    /// Resolves `route` against `engine` at `now`.
    public static func resolve(_ route: Route, in engine: SearchEngine, now: Date, limit: Int = 50) -> Destination {
        if engine.isVisible(route.uniqueIdentifier, at: now), let result = engine.result(for: route.uniqueIdentifier) {
            return .item(result)
        }
        guard let title = screens[route.contentType] else {
            return .notFound("nothing in the index is called \(route.uniqueIdentifier)")
        }
        func visible(_ ids: [String]) -> [SearchResult] {
            ids.filter { engine.isVisible($0, at: now) }.compactMap { engine.result(for: $0) }
        }
        func byType(_ type: String) -> [SearchResult] {
            visible(engine.records.keys.filter { $0.hasPrefix(type + "/") }.sorted { a, b in
                a.count != b.count ? a.count < b.count : a < b
            })
        }
        switch route.contentType {
        case "recent":
            var latest: [(id: String, date: Date)] = []
            for (id, dates) in engine.engagements {
                if let last = dates.filter({ $0 <= now }).max() { latest.append((id, last)) }
            }
            latest.sort { a, b in a.date != b.date ? a.date > b.date : a.id < b.id }
            let recent = latest.map(\.id)
            return .screen(title: title, items: Array(visible(recent).prefix(limit)))
        case "photos": return .screen(title: title, items: Array(byType("photo").prefix(limit)))
        case "people": return .screen(title: title, items: Array(byType("employee").prefix(limit)))
        case "shows":
            var shows = byType("show")
            if route.identifier == "tonight" {
                // Shows that air this evening (18:00 or later) on the clock's weekday.
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = "EEE"
                let day = formatter.string(from: now)
                shows = shows.filter { show in
                    guard let air = show.attributes.extras["airTime"] else { return false }
                    let parts = air.split(separator: " ")
                    return parts.count == 2 && parts[0] == day && (Int(parts[1].prefix(2)) ?? 0) >= 18
                }
                return .screen(title: "Tonight's shows (\(day))", items: shows)
            }
            return .screen(title: title, items: Array(shows.prefix(limit)))
        default:
            return .screen(title: title, items: [])
        }
    }
}
