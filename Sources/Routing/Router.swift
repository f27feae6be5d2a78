import Foundation
import SearchIndex

/// Turns every way into content into one `Route`: a Core Spotlight
/// continuation, an app activity with its `userInfo`, a web-browsing
/// activity or URL (`searchlight://` or a universal link), a quick action,
/// or a bare `type/id` identifier.
///
/// The router only decides; it never opens anything itself. An `https` URL
/// it does not handle comes back as `.browser`, for the caller to offer.
public struct Router: Sendable {
    /// How a route was reached, for the detail pane and `open --json`.
    public struct Resolution: Sendable, Hashable {
        public var route: Route
        /// `identifier`, `core-spotlight`, `activity`, `url`, `universal-link`, `shortcut`.
        public var source: String
        /// The rule or key that decided, in words.
        public var detail: String
    }

    public enum Outcome: Sendable, Hashable {
        case route(Resolution)
        /// An `https` URL the app does not handle: offer it to the browser.
        case browser(url: String, reason: String)
    }

    /// The app's own URL scheme.
    public static let scheme = "searchlight"
    /// Longest input accepted; longer is refused as hostile.
    public static let maximumLength = 8192
    /// Prefix of the app's activity types: `com.example.searchlight.view-employee`.
    public static let viewActivityPrefix = "com.example.searchlight.view-"

    public var associations: [String: AppSiteAssociation]
    public var shortcuts: [Shortcut]
    /// What `load` passed over (a malformed association file), to show once.
    public var warnings: [String] = []

    /// URL path segment → content type, for universal links and short links.
    public static let pathAliases: [String: String] = [
        "photos": "photo", "albums": "album", "groups": "group", "people": "employee", "shows": "show",
        "p": "photo", "a": "album", "g": "group", "e": "employee", "s": "show",
    ]

    public init(associations: [String: AppSiteAssociation] = [:], shortcuts: [Shortcut] = []) {
        self.associations = associations
        self.shortcuts = shortcuts
    }

    // MARK: - Sources

    /// A bare `type/id`.
    public func route(identifier: String) throws -> Resolution {
        try checkSafe(identifier)
        guard let route = Route(uniqueIdentifier: identifier), Self.isSafeIdentifier(route.identifier) else {
            throw RoutingError(.notRoutable, "'\(identifier)' is not an identifier (type/id)")
        }
        return Resolution(route: route, source: "identifier", detail: "identifier \(route)")
    }

    /// An activity handed to the app to continue.
    public func route(activity: UserActivity) throws -> Outcome {
        try checkSafe(activity.activityType)
        switch activity.activityType {
        case UserActivity.searchableItemActionType:
            guard let id = activity.userInfo[UserActivity.searchableItemIdentifierKey], !id.isEmpty else {
                throw RoutingError(.missingUserInfo, "Core Spotlight continuation without \(UserActivity.searchableItemIdentifierKey)")
            }
            var resolution = try route(identifier: id)
            resolution.source = "core-spotlight"
            resolution.detail = "Core Spotlight item \(resolution.route)"
            return .route(resolution)
        case UserActivity.browsingWebType:
            guard let url = activity.webpageURL, !url.isEmpty else {
                throw RoutingError(.missingUserInfo, "web-browsing activity without a webpageURL")
            }
            return try route(url: url)
        default:
            guard activity.activityType.hasPrefix(Self.viewActivityPrefix) else {
                throw RoutingError(.unknownActivityType, "Searchlight does not handle activities of type \(activity.activityType)")
            }
            let required = activity.requiredUserInfoKeys.isEmpty ? ["id"] : activity.requiredUserInfoKeys
            let missing = required.filter { (activity.userInfo[$0] ?? "").isEmpty }.sorted()
            if !missing.isEmpty {
                throw RoutingError(.missingUserInfo, "activity \(activity.activityType) is missing userInfo \(missing.joined(separator: ", "))")
            }
            let type = String(activity.activityType.dropFirst(Self.viewActivityPrefix.count))
            guard let id = activity.userInfo["id"], Route(uniqueIdentifier: "\(type)/\(id)") != nil, Self.isSafeIdentifier(id) else {
                throw RoutingError(.missingUserInfo, "activity \(activity.activityType) has no usable userInfo id")
            }
            return .route(Resolution(route: Route(contentType: type, identifier: id), source: "activity",
                                     detail: "app activity \(activity.activityType)"))
        }
    }

    /// A URL: the app's scheme, a universal link, or something to refuse or offer to the browser.
    public func route(url text: String) throws -> Outcome {
        try checkSafe(text)
        guard let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
            !text[..<colon].isEmpty
        else {
            throw RoutingError(.notRoutable, "'\(text)' is not a URL")
        }
        let scheme = text[..<colon].lowercased()
        switch scheme {
        case Self.scheme:
            guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
                throw RoutingError(.notRoutable, "'\(text)' is not a searchlight://TYPE/ID URL")
            }
            let id = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            guard Route(uniqueIdentifier: "\(host)/\(id)") != nil, Self.isSafeIdentifier(id) else {
                throw RoutingError(.notRoutable, "'\(text)' is not a searchlight://TYPE/ID URL")
            }
            return .route(Resolution(route: Route(contentType: host, identifier: id), source: "url", detail: "URL \(text)"))
        case "https":
            guard let components = URLComponents(string: text), let host = components.host?.lowercased(), !host.isEmpty else {
                throw RoutingError(.notRoutable, "'\(text)' is not a URL")
            }
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            // Dot segments would make the path another than the one checked.
            if path.split(separator: "/", omittingEmptySubsequences: false)
                .contains(where: { [".", ".."].contains($0.removingPercentEncoding ?? String($0)) }) {
                throw RoutingError(.unsafe, "refused: '.' or '..' in the path of \(text)")
            }
            guard let association = associations[host] else {
                return .browser(url: text, reason: "\(host) is not an associated domain")
            }
            guard let rule = association.decidingRule(for: path), !rule.excludes else {
                let why = association.decidingRule(for: path).map { "excluded by \($0)" } ?? "no rule matches"
                return .browser(url: text, reason: "\(host)\(path): \(why)")
            }
            let segments = path.split(separator: "/").map(String.init)
            guard segments.count == 2, let type = Self.pathAliases[segments[0]],
                let id = segments[1].removingPercentEncoding, Self.isSafeIdentifier(id)
            else {
                return .browser(url: text, reason: "\(host)\(path) is allowed by \(rule) but names no screen of the app")
            }
            return .route(Resolution(route: Route(contentType: type, identifier: id), source: "universal-link",
                                     detail: "universal link \(host), rule \(rule)"))
        case "http":
            throw RoutingError(.refusedScheme, "refused: only https links are handled or offered to the browser")
        default:
            throw RoutingError(.refusedScheme, "refused: Searchlight does not open \(scheme): URLs")
        }
    }

    /// A quick action by its type.
    public func route(shortcut type: String) throws -> Resolution {
        guard let shortcut = shortcuts.first(where: { $0.type == type }) else {
            throw RoutingError(.notRoutable, "no quick action \(type)")
        }
        guard case .route(var resolution) = try route(url: shortcut.url) else {
            throw RoutingError(.badAssociation, "quick action \(type) does not open an app URL")
        }
        resolution.source = "shortcut"
        resolution.detail = "quick action “\(shortcut.title)”"
        return resolution
    }

    /// Whatever a user typed: a quick action type, a URL, or an identifier.
    public func route(_ input: String) throws -> Outcome {
        try checkSafe(input)
        if shortcuts.contains(where: { $0.type == input }) { return .route(try route(shortcut: input)) }
        if let colon = input.firstIndex(of: ":"), !input[..<colon].contains("/") { return try route(url: input) }
        return .route(try route(identifier: input))
    }

    // MARK: - Safety

    private func checkSafe(_ input: String) throws {
        if input.isEmpty { throw RoutingError(.notRoutable, "nothing to open") }
        if input.utf8.count > Self.maximumLength {
            throw RoutingError(.unsafe, "refused: input longer than \(Self.maximumLength) bytes")
        }
        if input.unicodeScalars.contains(where: {
            $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }) {
            throw RoutingError(.unsafe, "refused: control characters in the input")
        }
    }

    /// An identifier part that names an item and nothing else: no path
    /// traversal, no separators, no shell or URL syntax.
    static func isSafeIdentifier(_ id: String) -> Bool {
        !id.isEmpty && id != "." && id != ".." && id.count <= 256
            && id.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
    }
}

extension Router {
    /// The app activity for viewing `route`'s item: eligible for search,
    /// merged with the item through `relatedUniqueIdentifier`, never public.
    /// Making it current records the engagement.
    public static func viewActivity(for route: Route, title: String, contentType: String) -> UserActivity {
        var attributes = AttributeSet(contentType: contentType)
        attributes.relatedUniqueIdentifier = route.uniqueIdentifier
        return UserActivity(
            activityType: viewActivityPrefix + route.contentType, title: title,
            userInfo: ["id": route.identifier], requiredUserInfoKeys: ["id"], contentAttributeSet: attributes,
            isEligibleForSearch: true, isEligibleForPublicIndexing: false,
            persistentIdentifier: "view/\(route.uniqueIdentifier)")
    }
}
