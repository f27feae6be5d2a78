import Foundation
import SearchIndex
import SearchStore

/// Asked to index everything again when the store was missing, damaged or
/// of an older format, as Core Spotlight asks an app.
public protocol CSSearchableIndexDelegate: AnyObject {
    func searchableIndex(
        _ searchableIndex: CSSearchableIndex, reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void)
    func searchableIndex(
        _ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
        acknowledgementHandler: @escaping () -> Void)
}

/// Core Spotlight's index, backed by Searchlight's store: the same file the
/// terminal UI and the CLI use (`SEARCHLIGHT_INDEX`, else
/// `$XDG_DATA_HOME/searchlight/index.sqlite`, else
/// `~/.local/share/searchlight/index.sqlite`).
///
/// Operations run in order on a queue of the index's own; each is one
/// transaction, whole or not at all, and its completion handler is called
/// once, on another queue, as Apple's are. Between `beginBatch()` and
/// `endBatch(withClientState:)` operations wait, and are applied in order
/// as one write with the client state when the batch ends: all or none.
public final class CSSearchableIndex: @unchecked Sendable {
    /// Told to index again when the store had to be made anew.
    public weak var indexDelegate: (any CSSearchableIndexDelegate)?
    /// The store's file.
    public let path: String
    private let queue = DispatchQueue(label: "searchlight.spotlight.index")
    // Touched only on `queue`.
    private var opened: PersistentIndex?
    private var batch: [Operation]?

    private enum Operation {
        case index([SearchableItem])
        case deleteIdentifiers([String])
        case deleteDomains([String])
        case deleteAll

        var step: PersistentIndex.BatchStep {
            switch self {
            case .index(let items): .index(items)
            case .deleteIdentifiers(let ids): .deleteIdentifiers(ids)
            case .deleteDomains(let domains): .deleteDomains(domains)
            case .deleteAll: .deleteAll
            }
        }
    }

    private static let defaultIndex = CSSearchableIndex(path: IndexStore.defaultPath)

    /// The default index.
    public class func `default`() -> CSSearchableIndex { defaultIndex }

    /// Whether indexing works here: always, with a writable store.
    public class func isIndexingAvailable() -> Bool { true }

    /// A named index: a file of its own beside the default one.
    public convenience init(name: String) {
        let folder = (IndexStore.defaultPath as NSString).deletingLastPathComponent
        self.init(path: (folder as NSString).appendingPathComponent(name + ".sqlite"))
    }

    /// An index in the store at `path` (Searchlight's addition: tests and tools).
    public init(path: String) {
        self.path = path
    }

    // MARK: - Operations

    public func indexSearchableItems(_ items: [CSSearchableItem], completionHandler: (@Sendable (Error?) -> Void)? = nil) {
        do {
            let converted = try items.map { item throws(CSIndexError) in try item.searchableItem() }
            submit(.index(converted), completionHandler)
        } catch {
            DispatchQueue.global().async { completionHandler?(error) }
        }
    }

    public func deleteSearchableItems(withIdentifiers identifiers: [String], completionHandler: (@Sendable (Error?) -> Void)? = nil) {
        submit(.deleteIdentifiers(identifiers), completionHandler)
    }

    public func deleteSearchableItems(withDomainIdentifiers domainIdentifiers: [String], completionHandler: (@Sendable (Error?) -> Void)? = nil) {
        submit(.deleteDomains(domainIdentifiers), completionHandler)
    }

    public func deleteAllSearchableItems(completionHandler: (@Sendable (Error?) -> Void)? = nil) {
        submit(.deleteAll, completionHandler)
    }

    public func beginBatch() {
        queue.sync { if batch == nil { batch = [] } }
    }

    /// Applies the batch's operations in order, with the client state, in
    /// one write.
    public func endBatch(withClientState clientState: Data, completionHandler: (@Sendable (Error?) -> Void)? = nil) {
        queue.async { [self] in
            let steps = (batch ?? []).map(\.step)
            batch = nil
            let error = run { index in
                try index.apply(steps, clientState: "base64:" + clientState.base64EncodedString())
            }
            DispatchQueue.global().async { completionHandler?(error) }
        }
    }

    public func fetchLastClientState(completionHandler: @escaping @Sendable (Data?, Error?) -> Void) {
        queue.async { [self] in
            var state: Data?
            let error = run { index in
                guard let stored = index.lastClientState else { return }
                state = stored.hasPrefix("base64:") ? Data(base64Encoded: String(stored.dropFirst(7))) : Data(stored.utf8)
            }
            let found = state
            DispatchQueue.global().async { completionHandler(found, error) }
        }
    }

    // MARK: - async forms

    public func indexSearchableItems(_ items: [CSSearchableItem]) async throws {
        try await withHandler { self.indexSearchableItems(items, completionHandler: $0) }
    }

    public func deleteSearchableItems(withIdentifiers identifiers: [String]) async throws {
        try await withHandler { self.deleteSearchableItems(withIdentifiers: identifiers, completionHandler: $0) }
    }

    public func deleteSearchableItems(withDomainIdentifiers domainIdentifiers: [String]) async throws {
        try await withHandler { self.deleteSearchableItems(withDomainIdentifiers: domainIdentifiers, completionHandler: $0) }
    }

    public func deleteAllSearchableItems() async throws {
        try await withHandler { self.deleteAllSearchableItems(completionHandler: $0) }
    }

    public func endBatch(withClientState clientState: Data) async throws {
        try await withHandler { self.endBatch(withClientState: clientState, completionHandler: $0) }
    }

    public func fetchLastClientState() async throws -> Data? {
        try await withCheckedThrowingContinuation { continuation in
            fetchLastClientState { data, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data) }
            }
        }
    }

    private func withHandler(_ start: (@escaping @Sendable (Error?) -> Void) -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            start { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    // MARK: - The store

    private func submit(_ operation: Operation, _ completionHandler: (@Sendable (Error?) -> Void)?) {
        queue.async { [self] in
            if batch != nil {
                batch!.append(operation)
                DispatchQueue.global().async { completionHandler?(nil) }
                return
            }
            let error = run { index in try apply(operation, to: index) }
            DispatchQueue.global().async { completionHandler?(error) }
        }
    }

    private func apply(_ operation: Operation, to index: PersistentIndex) throws {
        switch operation {
        case .index(let items): try index.index(items)
        case .deleteIdentifiers(let ids): try index.deleteItems(identifiers: ids)
        case .deleteDomains(let domains): try index.deleteItems(domainIdentifiers: domains)
        case .deleteAll: try index.deleteAll()
        }
    }

    /// Runs `body` on the opened store (on `queue`); its error as Core Spotlight reports one.
    private func run(_ body: (PersistentIndex) throws -> Void) -> Error? {
        do {
            try body(try store())
            return nil
        } catch let error as CSIndexError {
            return error
        } catch {
            return CSIndexError(.indexUnavailableError, "\(path): \(error)")
        }
    }

    /// The store, opened once; a new or rebuilt one makes the delegate index again.
    private func store() throws -> PersistentIndex {
        if let opened { return opened }
        let (index, event) = try PersistentIndex.open(path: path, delegate: nil, loadingEngine: false)
        opened = index
        switch event {
        case .created, .rebuilt(_, _, 0):
            DispatchQueue.global().async { [weak self] in
                guard let self, let delegate = self.indexDelegate else { return }
                delegate.searchableIndex(self, reindexAllSearchableItemsWithAcknowledgementHandler: {})
            }
        default:
            break
        }
        return index
    }

    /// For `NSUserActivity.becomeCurrent()`: recorded before it returns.
    func recordView(_ activity: UserActivity) throws {
        try queue.sync { [self] in
            if let error = run({ index in _ = try index.becomeCurrent(activity, at: Date()) }) { throw error }
        }
    }
}
