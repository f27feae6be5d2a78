import Foundation
import SearchIndex

/// Reads the web markup of pages under `DIR/<domain>/` and describes each
/// page as a public web item whose `url` is `https://<domain>/<path>`.
///
/// `photos.example.com/photos/1.html` is `https://photos.example.com/photos/1`;
/// an `index.html` stands for its folder. What a page says comes from its
/// markup, in this order of preference: Open Graph, then the standard
/// `<title>` and `<meta>` tags, then schema.org JSON-LD.
public enum WebCrawler {
    /// Pages larger than this are skipped: no real page is, and it bounds memory.
    public static let maximumPageBytes = 5 * 1024 * 1024

    /// What a crawl found.
    public struct Crawl: Sendable {
        public var items: [SearchableItem]
        /// The domains crawled (their web domain identifiers, `web.<host>`).
        public var domains: [String]
        /// Files passed over, with the reason.
        public var skipped: [(path: String, reason: String)]
    }

    public static func domainIdentifier(forHost host: String) -> String { "web.\(host)" }

    /// At most one byte more than `maximumPageBytes` of the file (through
    /// any link), so an oversized page is known without reading it all.
    static func readPage(at path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: maximumPageBytes + 1) ?? Data()
    }

    public static func crawl(directory: String) throws -> Crawl {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ImportError(file: directory, line: 0, field: "-", message: "not a directory")
        }
        var crawl = Crawl(items: [], domains: [], skipped: [])
        for host in try fileManager.contentsOfDirectory(atPath: directory).sorted() {
            let root = (directory as NSString).appendingPathComponent(host)
            guard fileManager.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            guard isHostName(host) else {
                crawl.skipped.append((root, "not a domain name"))
                continue
            }
            crawl.domains.append(domainIdentifier(forHost: host))
            let files = (fileManager.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
            for relative in files where relative.hasSuffix(".html") || relative.hasSuffix(".htm") {
                let path = (root as NSString).appendingPathComponent(relative)
                // The limit holds for what is read, wherever a link leads.
                guard let data = readPage(at: path) else {
                    crawl.skipped.append((path, "unreadable"))
                    continue
                }
                if data.count > maximumPageBytes {
                    crawl.skipped.append((path, "larger than \(maximumPageBytes) bytes"))
                    continue
                }
                let url = "https://\(host)/" + urlPath(forFile: relative)
                if let item = item(html: [UInt8](data), url: url, host: host) {
                    crawl.items.append(item)
                } else {
                    crawl.skipped.append((path, "not HTML"))
                }
            }
        }
        return crawl
    }

    static func isHostName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 253 && !text.hasPrefix(".") && !text.hasPrefix("-")
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
    }

    /// `photos/1.html` → `photos/1`; `about/index.html` → `about/`; `index.html` → ``.
    static func urlPath(forFile relative: String) -> String {
        var path = relative
        for suffix in [".html", ".htm"] where path.hasSuffix(suffix) {
            path.removeLast(suffix.count)
            break
        }
        if path == "index" { return "" }
        if path.hasSuffix("/index") { path.removeLast("index".count) }
        return path
    }

    /// The web item a page describes, or nil when the bytes are not HTML.
    public static func item(html bytes: [UInt8], url: String, host: String) -> SearchableItem? {
        guard let document = HTMLDocument(bytes: bytes) else { return nil }
        let jsonLD = document.elements
            .filter { $0.name == "script" && $0.attributes["type"]?.lowercased() == "application/ld+json" }
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.text.utf8))) as? [String: Any] }
            .first ?? [:]
        func clean(_ text: String?) -> String? {
            guard let text else { return nil }
            let collapsed = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            return collapsed.isEmpty ? nil : collapsed
        }
        let title = clean(document.meta("og:title")) ?? clean(document.first("title")?.text)
            ?? clean(jsonLD["name"] as? String) ?? clean(document.first("h1")?.text) ?? url
        let description = clean(document.meta("og:description")) ?? clean(document.meta("description"))
            ?? clean(jsonLD["description"] as? String)
        var keywords: [String] = []
        let fromLD: [String] = (jsonLD["keywords"] as? [String]) ?? ((jsonLD["keywords"] as? String).map { [$0] } ?? [])
        for list in [document.meta("keywords")].compactMap({ $0 }) + fromLD {
            for keyword in list.split(separator: ",") {
                if let k = clean(String(keyword)), !keywords.contains(k) { keywords.append(k) }
            }
        }
        var thumbnail: Thumbnail?
        if let image = clean(document.meta("og:image")) {
            let ext = (image.split(separator: "?").first.map(String.init) ?? image).split(separator: ".").last.map { String($0).lowercased() }
            thumbnail = Thumbnail(
                format: ext.flatMap { ["jpg": "jpeg", "jpeg": "jpeg", "png": "png", "gif": "gif", "webp": "webp"][$0] },
                width: document.meta("og:image:width").flatMap { Int($0) },
                height: document.meta("og:image:height").flatMap { Int($0) },
                caption: clean(document.meta("og:image:alt")) ?? "image at \(image)")
        }
        var extras: [String: String] = [:]
        if let appLink = clean(document.meta("al:ios:url")) ?? appArgument(document.meta("apple-itunes-app")) {
            extras["appLink"] = appLink
        }
        if let type = jsonLD["@type"] as? String { extras["schemaType"] = type }
        for key in ["jobTitle", "genre", "email", "telephone"] {
            if let value = jsonLD[key] as? String { extras[key] = value }
        }
        return SearchableItem(
            uniqueIdentifier: url, domainIdentifier: domainIdentifier(forHost: host),
            attributeSet: AttributeSet(
                contentType: "public.html", title: title, contentDescription: description, keywords: keywords,
                thumbnail: thumbnail, url: url, extras: extras),
            visibility: .public)
    }

    /// `app-id=1, app-argument=searchlight://photo/1` → `searchlight://photo/1`.
    static func appArgument(_ content: String?) -> String? {
        guard let content else { return nil }
        for part in content.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0] == "app-argument", !pair[1].isEmpty { return pair[1] }
        }
        return nil
    }
}
