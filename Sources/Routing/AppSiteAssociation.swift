import Foundation

/// One domain's `apple-app-site-association` file: which URL paths open in
/// the app. Rules are tried in order and the first that matches decides;
/// `NOT ` in front of a pattern excludes. In patterns `*` matches any run of
/// characters (slashes included) and `?` exactly one.
public struct AppSiteAssociation: Sendable, Hashable {
    public struct Rule: Sendable, Hashable, CustomStringConvertible {
        public var pattern: String
        public var excludes: Bool

        public var description: String { (excludes ? "NOT " : "") + pattern }

        public func matches(_ path: String) -> Bool {
            Self.match(Array(pattern.unicodeScalars), Array(path.unicodeScalars))
        }

        /// Glob match with `*` and `?`, iterative with one backtrack point
        /// (linear enough for hostile 20 kB paths).
        static func match(_ p: [Unicode.Scalar], _ s: [Unicode.Scalar]) -> Bool {
            var pi = 0, si = 0
            var star = -1, mark = 0
            while si < s.count {
                if pi < p.count, p[pi] == "?" || p[pi] == s[si] {
                    pi += 1; si += 1
                } else if pi < p.count, p[pi] == "*" {
                    star = pi; mark = si; pi += 1
                } else if star >= 0 {
                    pi = star + 1; mark += 1; si = mark
                } else {
                    return false
                }
            }
            while pi < p.count, p[pi] == "*" { pi += 1 }
            return pi == p.count
        }
    }

    public var domain: String
    public var rules: [Rule]

    public init(domain: String, rules: [Rule]) {
        self.domain = domain
        self.rules = rules
    }

    /// Reads the `applinks.details[].paths` form.
    public init(domain: String, json bytes: [UInt8]) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let applinks = object["applinks"] as? [String: Any],
            let details = applinks["details"] as? [[String: Any]]
        else {
            throw RoutingError(.badAssociation, "\(domain): apple-app-site-association has no applinks.details")
        }
        var rules: [Rule] = []
        for detail in details {
            for path in detail["paths"] as? [String] ?? [] {
                if path.hasPrefix("NOT ") {
                    rules.append(Rule(pattern: String(path.dropFirst(4)).trimmingCharacters(in: .whitespaces), excludes: true))
                } else {
                    rules.append(Rule(pattern: path, excludes: false))
                }
            }
        }
        self.init(domain: domain, rules: rules)
    }

    /// The rule that decides `path`, if any; the path opens in the app when
    /// that rule does not exclude.
    public func decidingRule(for path: String) -> Rule? {
        rules.first { $0.matches(path) }
    }
}
