import Catalog
import Foundation
import Routing
import SearchIndex
import SearchStore

/// The backend over a real index: queries the engine, opens through the
/// router (recording an engagement), and runs the inspector's actions on
/// the persistent index.
public final class IndexBackend: SearchBackend {
    public let index: PersistentIndex
    public let router: Router
    public let dataDirectory: String
    private let clock: () -> Date

    public init(index: PersistentIndex, router: Router, dataDirectory: String, clock: @escaping () -> Date) {
        self.index = index
        self.router = router
        self.dataDirectory = dataDirectory
        self.clock = clock
    }

    // Background import: a thread reads and validates the file; the UI loop
    // applies it in slices between keystrokes, so typing stays responsive
    // and the results follow the index as it grows.
    private let imports = ImportQueue()
    /// Items applied per slice between two keystrokes.
    public static let sliceSize = 250

    public var progress: String? { imports.progress }
    public var hasPendingWork: Bool { imports.hasSlices }

    /// Starts importing `path` in the background.
    public func startImport(path: String, domain: String? = nil) {
        let label = (path as NSString).lastPathComponent
        let queue = imports
        queue.begin(label)
        let thread = Thread {
            do {
                queue.add(try ItemImporter.items(atPath: path, domain: domain), sliceSize: Self.sliceSize)
            } catch {
                queue.fail("import failed: \(error)")
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    public func pump() -> Bool {
        guard let (slice, label) = imports.next() else {
            // Idle: a snapshot load's tables and copies are taken in once made.
            index.settleLoadedEngineIfReady()
            return false
        }
        do {
            try index.index(slice, clientState: "importing \(label)", at: clock())
        } catch {
            imports.fail("import stopped: \(error)")
            return false
        }
        imports.applied(slice.count)
        return true
    }

    public func search(_ text: String, limit: Int, explained: Bool) -> (response: SearchResponse, microseconds: Int) {
        let start = DispatchTime.now().uptimeNanoseconds
        let response = index.engine.search(SearchQuery(text, limit: limit, now: clock(), explainsMatches: explained))
        return (response, Int((DispatchTime.now().uptimeNanoseconds - start) / 1000))
    }

    // MARK: - Opening

    /// The activity the system would hand the app to continue this result.
    func continuation(for result: SearchResult) -> UserActivity {
        if result.sources.contains(.item) {
            return UserActivity(activityType: UserActivity.searchableItemActionType,
                                userInfo: [UserActivity.searchableItemIdentifierKey: result.uniqueIdentifier])
        }
        if result.sources.contains(.web), let url = result.attributes.url {
            return UserActivity(activityType: UserActivity.browsingWebType, webpageURL: url)
        }
        if let stored = index.engine.activities[result.uniqueIdentifier] { return stored }
        return UserActivity(activityType: UserActivity.searchableItemActionType,
                            userInfo: [UserActivity.searchableItemIdentifierKey: result.uniqueIdentifier])
    }

    public func open(_ result: SearchResult) -> Detail {
        let activity = continuation(for: result)
        do {
            switch try router.route(activity: activity) {
            case .route(let resolution):
                return detail(for: resolution)
            case .browser(let url, let reason):
                // A web page the app does not handle: shown, with the browser offer.
                return Detail(via: "opened via web page (\(reason))", title: result.title,
                              subtitle: "\(Describe.badge(result.contentType)) · \(result.uniqueIdentifier)",
                              facts: Describe.facts(result.attributes).map { Detail.Fact($0.0, $0.1) },
                              actions: ["open web page \(url)"], browserURL: url)
            }
        } catch {
            return Detail(via: "could not open: \(error)", title: result.title)
        }
    }

    public func open(identifier: String) -> Detail {
        do {
            return detail(for: try router.route(identifier: identifier))
        } catch {
            return Detail(via: "could not open: \(error)", title: identifier)
        }
    }

    public var quickActions: [QuickAction] {
        router.shortcuts.map { QuickAction(type: $0.type, title: $0.title, subtitle: $0.subtitle ?? "") }
    }

    public func runQuickAction(_ type: String) -> Detail {
        do {
            return detail(for: try router.route(shortcut: type))
        } catch {
            return Detail(via: "could not run the quick action: \(error)", title: type)
        }
    }

    private func detail(for resolution: Router.Resolution) -> Detail {
        let now = clock()
        switch Destination.resolve(resolution.route, in: index.engine, now: now) {
        case .notFound(let message):
            return Detail(via: "opened via \(resolution.detail)", title: message)
        case .screen(let title, let items):
            return Detail(via: "opened via \(resolution.detail)", title: title, subtitle: "\(items.count) item\(items.count == 1 ? "" : "s")",
                          related: items.map { Detail.Related(heading: title, title: $0.title, identifier: $0.uniqueIdentifier) })
        case .item(let result):
            recordView(result, route: resolution.route, at: now)
            let current = index.engine.result(for: result.uniqueIdentifier) ?? result
            return Detail(
                via: "opened via \(resolution.detail)", title: current.title,
                subtitle: "\(Describe.badge(current.contentType)) · \(current.uniqueIdentifier) · \(Describe.sources(current.sources)) · \(current.explanation.views) view\(current.explanation.views == 1 ? "" : "s")",
                facts: Describe.facts(current.attributes).map { Detail.Fact($0.0, $0.1) },
                actions: actions(current.attributes), related: related(current, now: now))
        }
    }

    private func recordView(_ result: SearchResult, route: Route, at date: Date) {
        let activity = Router.viewActivity(for: route, title: result.title, contentType: result.contentType)
        _ = try? index.becomeCurrent(activity, at: date)
    }

    private func actions(_ a: AttributeSet) -> [String] {
        var out: [String] = []
        if a.supportsPhoneCall == true { out += a.phoneNumbers.map { "call \($0)" } }
        out += a.emailAddresses.map { "e-mail \($0)" }
        if let url = a.url { out.append("open web page \(url)") }
        return out
    }

    /// Others in the same department; a photo's album and group; an album's
    /// photos; shows of the same genre.
    private func related(_ result: SearchResult, now: Date) -> [Detail.Related] {
        let engine = index.engine
        func visible(_ id: String) -> SearchResult? { engine.isVisible(id, at: now) ? engine.result(for: id) : nil }
        var out: [Detail.Related] = []
        let extras = result.attributes.extras
        func peers(prefix: String, key: String, heading: String) {
            guard let value = extras[key] else { return }
            let ids = engine.records.values
                .filter { $0.item.uniqueIdentifier.hasPrefix(prefix) && $0.item.uniqueIdentifier != result.uniqueIdentifier && $0.item.attributeSet.extras[key] == value }
                .map(\.item.uniqueIdentifier).sorted()
            for id in ids { if let r = visible(id) { out.append(Detail.Related(heading: heading, title: r.title, identifier: id)) } }
        }
        switch result.uniqueIdentifier.split(separator: "/").first {
        case "employee":
            peers(prefix: "employee/", key: "department", heading: "Others in \(extras["department"] ?? "the department")")
        case "photo":
            for key in ["albumIdentifier", "groupIdentifier"] {
                if let id = extras[key], let r = visible(id) {
                    out.append(Detail.Related(heading: key == "albumIdentifier" ? "Album" : "Group", title: r.title, identifier: id))
                }
            }
            peers(prefix: "photo/", key: "albumIdentifier", heading: "More in this album")
        case "album", "group":
            let key = result.uniqueIdentifier.hasPrefix("album/") ? "albumIdentifier" : "groupIdentifier"
            let ids = engine.records.values.filter { $0.item.attributeSet.extras[key] == result.uniqueIdentifier }
                .map(\.item.uniqueIdentifier).sorted()
            for id in ids { if let r = visible(id) { out.append(Detail.Related(heading: "Photos", title: r.title, identifier: id)) } }
        case "show":
            peers(prefix: "show/", key: "genre", heading: "More \(extras["genre"] ?? "") shows")
        default:
            break
        }
        return out
    }

    // MARK: - Inspector

    public func inspector() -> InspectorSnapshot {
        let engine = index.engine
        let counts = engine.counts
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        var log = ((try? index.operationLog(limit: 100)) ?? []).map { (formatter.string(from: $0.date), $0.kind, $0.detail) }
        for id in engine.expiredIdentifiers(at: clock()) { log.append(("now", "expired", id)) }
        return InspectorSnapshot(
            byDomain: counts.byDomain.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            bySource: Source.allCases.map { ($0.rawValue, counts.bySource[$0.rawValue] ?? 0) },
            preference: engine.preference, log: log)
    }

    private func attempt(_ body: () throws -> String) -> String {
        do { return try body() } catch { return "failed: \(error)" }
    }

    public func togglePreference() -> String {
        setPreference(index.engine.preference == .disabled ? .viewedRecords : .disabled)
    }

    public func setPreference(_ preference: IndexingPreference) -> String {
        attempt {
            try index.setPreference(preference, at: clock())
            return "indexing \(preference.rawValue)"
        }
    }

    public func deleteItem(_ identifier: String) -> String {
        attempt { "deleted \(try index.deleteItems(identifiers: [identifier], at: clock()).count) item" }
    }

    public func deleteDomain(_ domain: String) -> String {
        attempt {
            let removed = try index.deleteItems(domainIdentifiers: [domain], at: clock()).count
            return "deleted \(removed) item\(removed == 1 ? "" : "s") in \(domain)"
        }
    }

    public func deleteEverything() -> String {
        attempt {
            try index.deleteAll(at: clock())
            return "deleted everything"
        }
    }

    public func reindex() -> String {
        attempt {
            let items = try FixtureCatalog.items(in: dataDirectory)
            try index.replaceAll(with: items, reason: dataDirectory, at: clock())
            return "re-indexed \(items.count) items from \(dataDirectory)"
        }
    }
}

/// Work handed from the import thread to the UI loop, behind a lock.
final class ImportQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var slices: [[SearchableItem]] = []
    private var label: String?
    private var total = 0
    private var done = 0
    private var reading = false
    private var message: String?
    private var messageShownUntil = Date.distantPast

    func begin(_ label: String) {
        lock.lock(); defer { lock.unlock() }
        self.label = label
        reading = true
        message = nil
    }

    func add(_ items: [SearchableItem], sliceSize: Int) {
        lock.lock(); defer { lock.unlock() }
        reading = false
        total += items.count
        slices += stride(from: 0, to: items.count, by: sliceSize).map { Array(items[$0..<min(items.count, $0 + sliceSize)]) }
        if items.isEmpty { finish("imported nothing from \(label ?? "the file")") }
    }

    func fail(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        slices = []
        reading = false
        finish(text)
    }

    /// Must hold the lock.
    private func finish(_ text: String) {
        message = text
        messageShownUntil = Date().addingTimeInterval(5)
        label = nil
        total = 0
        done = 0
    }

    var hasSlices: Bool {
        lock.lock(); defer { lock.unlock() }
        return !slices.isEmpty
    }

    func next() -> ([SearchableItem], String)? {
        lock.lock(); defer { lock.unlock() }
        guard !slices.isEmpty else { return nil }
        return (slices.removeFirst(), label ?? "import")
    }

    func applied(_ count: Int) {
        lock.lock(); defer { lock.unlock() }
        done += count
        if slices.isEmpty && !reading { finish("imported \(done) items from \(label ?? "the file")") }
    }

    var progress: String? {
        lock.lock(); defer { lock.unlock() }
        if let label {
            if reading { return "reading \(label)…" }
            return "importing \(label): \(total == 0 ? 100 : done * 100 / total)% (\(done) of \(total))"
        }
        return Date() < messageShownUntil ? message : nil
    }
}
