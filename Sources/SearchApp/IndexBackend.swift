import Catalog
import Foundation
import Routing
import SearchIndex
import SearchStore
import TerminalUI

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
        // Read on another thread: the UI draws and takes keys at once.
        if !index.isEngineLoaded, let path = index.store.path { load = EngineLoad(path: path, reason: .opening) }
    }

    // Background import: one thread reads, checks and writes each file in
    // one transaction of its own (whole or not at all, as the CLI's); the
    // UI loop then follows the store like any other writer's change.
    private let imports = BackgroundImport()
    /// The engine being read on another thread: at opening, or after
    /// another process's large change.
    private var load: EngineLoad?
    private var lastFollow = Date.distantPast
    private var notice: String?
    /// How often the store is asked for other writers' changes.
    static let followInterval: TimeInterval = 0.1

    public var progress: String? { load?.progress ?? imports.progress }
    /// Whether queries wait for the engine the UI opened with (nothing is
    /// answered yet).
    public var isLoading: Bool { load?.reason == .opening }
    public var hasPendingWork: Bool { imports.hasItemsInMemory }
    public var isImporting: Bool { imports.isRunning }

    /// Starts importing `path` in the background.
    public func startImport(path: String, domain: String? = nil) {
        imports.enqueue(path: path, domain: domain, storePath: index.store.path)
    }

    public func pump() -> Bool {
        if let items = imports.takeItemsInMemory() {
            // An index in memory has no second connection: applied here.
            do { try index.index(items.items, clientState: "imported \(items.label)", at: clock()) } catch {
                imports.fail(items.label, "import failed: \(error)")
            }
            return true
        }
        if let reason = load?.reason, let loaded = load?.take() {
            load = nil
            switch loaded {
            case .success(let engine):
                index.adopt(engine)
                if reason == .othersChanges {
                    notice = "index read again after another process's changes: \(Describe.grouped(engine.engine.records.count)) items"
                }
            case .failure(let error):
                notice = "could not read the index: \(error)"
                // Read here after all (an empty engine if it cannot be):
                // the UI must answer something.
                if !index.isEngineLoaded { _ = index.engine }
            }
            lastFollow = .distantPast
            return follow() || true
        }
        // A snapshot load's tables and copies are taken in once made.
        index.settleLoadedEngineIfReady()
        guard Date().timeIntervalSince(lastFollow) >= Self.followInterval else { return false }
        return follow()
    }

    /// Asks the store whether others wrote; applies their changes, or
    /// starts a rebuild when only that catches up. True when the engine changed.
    private func follow() -> Bool {
        lastFollow = Date()
        guard load == nil else { return false }
        do {
            switch try index.followStore() {
            case .current:
                return false
            case .caughtUp(let summary):
                notice = Self.describe(summary) ?? notice
                return true
            case .needsRebuild:
                guard let path = index.store.path else { return false }
                load = EngineLoad(path: path, reason: .othersChanges)
                return false
            }
        } catch {
            notice = "could not follow the index: \(error)"
            return false
        }
    }

    /// `index changed by another process (searchlight index import · pid 7): +1,000 items, −12`;
    /// nil when only this process wrote.
    static func describe(_ summary: PersistentIndex.ChangeSummary) -> String? {
        let others = summary.writers.filter { $0 != IndexStore.writerName && !$0.isEmpty }
        guard !others.isEmpty else { return nil }
        var parts: [String] = []
        if summary.added > 0 { parts.append("+\(Describe.grouped(summary.added)) item\(summary.added == 1 ? "" : "s")") }
        if summary.updated > 0 { parts.append("\(Describe.grouped(summary.updated)) updated") }
        if summary.removed > 0 { parts.append("−\(Describe.grouped(summary.removed))") }
        if summary.views > 0 { parts.append("\(Describe.grouped(summary.views)) viewed") }
        if let preference = summary.preference { parts.append("indexing \(preference.rawValue)") }
        let who = others.count == 1 ? others[0] : "\(others.count) processes"
        return "index changed by another process (\(who))" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }


    public func takeNotice() -> String? {
        defer { notice = nil }
        return notice
    }

    public func search(_ text: String, limit: Int, explained: Bool) -> (response: SearchResponse, microseconds: Int) {
        // Answered once the engine is read (`pump` says so).
        if isLoading { return (SearchResponse(query: text, total: 0, results: []), 0) }
        let start = DispatchTime.now().uptimeNanoseconds
        let response = index.engine.search(SearchQuery(typing: text, limit: limit, now: clock(), explainsMatches: explained))
        return (response, Int((DispatchTime.now().uptimeNanoseconds - start) / 1000))
    }

    public func matchedTokens(of identifiers: [String], query: String) -> [String: Set<String>] {
        if isLoading { return [:] }
        return index.engine.matchedTokens(of: identifiers, for: query)
    }

    /// Recently viewed items, at most this many, on an empty query.
    public static let recentLimit = 10

    public func startingPoint() -> [SearchResult] {
        if isLoading { return [] }
        let engine = index.engine
        let recents = engine.recentlyViewed(limit: Self.recentLimit, at: clock())
        // Counting visits every record: kept until the index changes.
        if domainRows?.generation != index.engineGeneration || index.engineGeneration == nil {
            let rows = engine.counts.byDomain.sorted { $0.key < $1.key }.map { domain, count in
                SearchResult(listing: "domain:\(domain)", title: domain, contentType: TerminalApp.domainListing,
                             description: "\(Describe.grouped(count)) item\(count == 1 ? "" : "s")")
            }
            domainRows = (index.engineGeneration, rows)
        }
        return recents + (domainRows?.rows ?? [])
    }
    private var domainRows: (generation: String?, rows: [SearchResult])?

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
        finishLoading()
        // What another process changed is seen before the item is shown.
        _ = follow()
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
        finishLoading()
        _ = follow()
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
        finishLoading()
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
            let note = recordView(result, route: resolution.route, at: now)
            let current = index.engine.result(for: result.uniqueIdentifier) ?? result
            return Detail(
                via: "opened via \(resolution.detail)" + (note.map { " · " + $0 } ?? ""), title: current.title,
                subtitle: "\(Describe.badge(current.contentType)) · \(current.uniqueIdentifier) · \(Describe.sources(current.sources)) · \(current.explanation.views) view\(current.explanation.views == 1 ? "" : "s")",
                facts: Describe.facts(current.attributes).map { Detail.Fact($0.0, $0.1) },
                actions: actions(current.attributes), related: related(current, now: now))
        }
    }

    /// Records the view on top of the store's latest state; a line for
    /// the detail pane when it could not be recorded.
    private func recordView(_ result: SearchResult, route: Route, at date: Date) -> String? {
        let activity = Router.viewActivity(for: route, title: result.title, contentType: result.contentType)
        do {
            let outcome = try index.becomeCurrent(activity, at: date, ifIndexed: result.uniqueIdentifier)
            return outcome == nil ? "deleted by another process: the view was not recorded" : nil
        } catch {
            return "the view was not recorded: \(error)"
        }
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
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        var log = ((try? index.operationLog(limit: 100)) ?? []).map { entry in
            // Another process's operation names its writer.
            let other = entry.writer.map { $0 != IndexStore.writerName } ?? false
            return (formatter.string(from: entry.date), entry.kind, entry.detail + (other ? " ⇄ by \(entry.writer!)" : ""))
        }
        log += imports.failures.map { (formatter.string(from: $0.date), "failed", $0.message) }
        let lastWriter = (try? index.store.lastWriter())?.map { $0.writer == IndexStore.writerName ? "this UI" : $0.writer }
        // Counted once the engine is read: the log and preference are the store's.
        guard !isLoading else {
            return InspectorSnapshot(byDomain: [], bySource: [], preference: index.preference, log: log, lastWriter: lastWriter)
        }
        let engine = index.engine
        let counts = engine.counts
        for id in engine.expiredIdentifiers(at: clock()) { log.append(("now", "expired", id)) }
        return InspectorSnapshot(
            byDomain: counts.byDomain.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            bySource: Source.allCases.map { ($0.rawValue, counts.bySource[$0.rawValue] ?? 0) },
            preference: engine.preference, log: log, lastWriter: lastWriter)
    }

    static let stillLoading = "the index is still being read: try again when it is in"

    private func attempt(_ body: () throws -> String) -> String {
        if isLoading { return Self.stillLoading }
        do { return try body() } catch { return "failed: \(error)" }
    }

    /// Waits for the engine being read at opening (what needs it, such as
    /// the inspector, is asked for only after a key).
    private func finishLoading() {
        while isLoading {
            if !pump() { Thread.sleep(forTimeInterval: 0.01) }
        }
    }

    public func togglePreference() -> String {
        if isLoading { return Self.stillLoading }
        _ = follow()
        return setPreference(index.engine.preference == .disabled ? .viewedRecords : .disabled)
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
