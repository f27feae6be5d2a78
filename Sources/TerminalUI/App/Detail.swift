import SearchIndex

/// What the detail pane shows for an opened result or quick action.
public struct Detail: Sendable, Hashable {
    /// One line on how it was reached: "opened via Core Spotlight item employee/7".
    public var via: String
    public var title: String
    public var subtitle: String
    /// Attribute lines (label, value).
    public var facts: [Fact]
    /// What one could do with it: shown, never run.
    public var actions: [String]
    /// Related items: (title, identifier).
    public var related: [Related]
    /// Set when the target belongs in a browser instead.
    public var browserURL: String?

    public struct Fact: Sendable, Hashable {
        public var label: String
        public var value: String
        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    public struct Related: Sendable, Hashable {
        public var heading: String
        public var title: String
        public var identifier: String
        public init(heading: String, title: String, identifier: String) {
            self.heading = heading
            self.title = title
            self.identifier = identifier
        }
    }

    public init(via: String, title: String, subtitle: String = "", facts: [Fact] = [], actions: [String] = [],
                related: [Related] = [], browserURL: String? = nil) {
        self.via = via
        self.title = title
        self.subtitle = subtitle
        self.facts = facts
        self.actions = actions
        self.related = related
        self.browserURL = browserURL
    }
}

/// What the QA inspector shows.
public struct InspectorSnapshot: Sendable, Hashable {
    public var byDomain: [(String, Int)]
    public var bySource: [(String, Int)]
    public var preference: IndexingPreference
    /// Log lines, newest last: (time, kind, detail).
    public var log: [(String, String, String)]
    /// Which process wrote last (the CLI, the UI, a program through the library).
    public var lastWriter: String?

    public init(
        byDomain: [(String, Int)], bySource: [(String, Int)], preference: IndexingPreference, log: [(String, String, String)],
        lastWriter: String? = nil
    ) {
        self.byDomain = byDomain
        self.bySource = bySource
        self.preference = preference
        self.log = log
        self.lastWriter = lastWriter
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.byDomain.map { "\($0)=\($1)" } == b.byDomain.map { "\($0)=\($1)" }
            && a.bySource.map { "\($0)=\($1)" } == b.bySource.map { "\($0)=\($1)" }
            && a.preference == b.preference && a.log.map { "\($0)|\($1)|\($2)" } == b.log.map { "\($0)|\($1)|\($2)" }
            && a.lastWriter == b.lastWriter
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(preference) }
}

/// A quick action as the menu lists it.
public struct QuickAction: Sendable, Hashable {
    public var type: String
    public var title: String
    public var subtitle: String
    public init(type: String, title: String, subtitle: String) {
        self.type = type
        self.title = title
        self.subtitle = subtitle
    }
}
