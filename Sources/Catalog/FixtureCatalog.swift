import Foundation
import SearchIndex

/// Maps the bundled fixtures (`Data/`) to searchable items.
///
/// Identifiers are `type/id` so that `employee/7` and `photo/7` never clash;
/// each kind has its own domain, so a kind can be deleted in one call.
public enum FixtureCatalog {
    public static let employeeDomain = "com.example.colleagues.employee"
    public static let showDomain = "com.example.tv.show"
    public static let photoDomain = "com.example.photos.photo"
    public static let albumDomain = "com.example.photos.album"
    public static let groupDomain = "com.example.photos.group"

    /// Every item the fixtures in `directory` describe, validated before
    /// anything is returned. A missing file contributes nothing (a folder
    /// with none of them is missing input); a broken one throws an
    /// `ImportError` naming the file, line and field.
    public static func items(in directory: String) throws -> [SearchableItem] {
        try requireFolder(directory)
        let names = ["employees.json", "shows.json", "photos.json"]
        guard names.contains(where: { FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0)) }) else {
            // An empty folder would empty the index it fills: refused, never applied.
            throw ImportError.missing(directory, "holds none of the fixtures (\(names.joined(separator: ", ")))")
        }
        var items: [SearchableItem] = []
        items += try load("employees.json", in: directory, as: FixtureRecords.Employee.self).map(employee)
        items += try load("shows.json", in: directory, as: FixtureRecords.Show.self).map(show)
        items += try photoItems(in: directory)
        var seen = Set<String>()
        for item in items where !seen.insert(item.uniqueIdentifier).inserted {
            throw ImportError(file: directory, line: 0, field: "id", message: "duplicate identifier \(item.uniqueIdentifier)")
        }
        return items
    }

    /// Throws the missing-input error unless `directory` is a folder.
    public static func requireFolder(_ directory: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ImportError.missing(directory, "no such folder")
        }
    }

    private static func read(_ name: String, in directory: String) throws -> (path: String, bytes: [UInt8])? {
        let path = (directory as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(file: path, line: 0, field: "-", message: "cannot read the file")
        }
        return (path, [UInt8](data))
    }

    private static func load<T: Decodable>(_ name: String, in directory: String, as type: T.Type) throws -> [T] {
        guard let (path, bytes) = try read(name, in: directory) else { return [] }
        return try JSONDocumentReader.elements(of: bytes, file: path).map {
            try JSONValueDecoder.decode(T.self, from: $0.bytes, file: path, line: $0.line)
        }
    }

    static func employee(_ e: FixtureRecords.Employee) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: "employee/\(e.id)", domainIdentifier: employeeDomain,
            attributeSet: AttributeSet(
                contentType: "public.contact", title: e.name,
                contentDescription: "\(e.title), \(e.department)",
                keywords: [e.department] + e.skills, thumbnail: e.picture,
                phoneNumbers: [e.phone], emailAddresses: [e.email], supportsPhoneCall: true,
                url: "https://colleagues.example.com/people/\(e.id)",
                extras: ["department": e.department, "jobTitle": e.title]),
            visibility: .public)
    }

    static func show(_ s: FixtureRecords.Show) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: "show/\(s.id)", domainIdentifier: showDomain, expirationDate: s.expires,
            attributeSet: AttributeSet(
                contentType: "public.movie", title: s.name,
                contentDescription: s.description, keywords: [s.genre], thumbnail: s.poster,
                rating: s.rating, url: s.url, extras: ["genre": s.genre, "airTime": s.airTime],
                rankingHint: s.audience.map(Double.init)),
            visibility: .public)
    }

    private struct PhotoFile: Decodable {
        var albums: [FixtureRecords.Collection]?
        var groups: [FixtureRecords.Collection]?
        var photos: [FixtureRecords.Photo]?
    }

    private static func photoItems(in directory: String) throws -> [SearchableItem] {
        guard let (path, bytes) = try read("photos.json", in: directory) else { return [] }
        let file = try JSONValueDecoder.decode(PhotoFile.self, from: bytes[...], file: path, line: 1)
        let albums = Dictionary((file.albums ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let groups = Dictionary((file.groups ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var items: [SearchableItem] = []
        for album in file.albums ?? [] { items.append(collection(album, kind: "album", domain: albumDomain)) }
        for group in file.groups ?? [] { items.append(collection(group, kind: "group", domain: groupDomain)) }
        for (index, photo) in (file.photos ?? []).enumerated() {
            if let album = photo.album, albums[album] == nil {
                throw ImportError(file: path, line: 1, field: "photos[\(index)].album", message: "no album \(album)")
            }
            if let group = photo.group, groups[group] == nil {
                throw ImportError(file: path, line: 1, field: "photos[\(index)].group", message: "no group \(group)")
            }
            var extras: [String: String] = [:]
            if let album = photo.album { extras["album"] = albums[album]!.title; extras["albumIdentifier"] = "album/\(album)" }
            if let group = photo.group { extras["group"] = groups[group]!.title; extras["groupIdentifier"] = "group/\(group)" }
            if let takenAt = photo.takenAt { extras["takenAt"] = takenAt }
            items.append(SearchableItem(
                uniqueIdentifier: "photo/\(photo.id)", domainIdentifier: photoDomain,
                attributeSet: AttributeSet(
                    contentType: "public.image", title: photo.title, contentDescription: photo.description,
                    keywords: photo.keywords ?? [], thumbnail: photo.thumbnail, url: photo.url, extras: extras,
                    rankingHint: photo.favorites.map(Double.init)),
                visibility: photo.visibility))
        }
        return items
    }

    private static func collection(_ c: FixtureRecords.Collection, kind: String, domain: String) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: "\(kind)/\(c.id)", domainIdentifier: domain,
            attributeSet: AttributeSet(
                contentType: kind == "album" ? "public.folder" : "public.item", title: c.title,
                contentDescription: c.description, keywords: c.keywords ?? [], thumbnail: c.thumbnail, url: c.url),
            visibility: c.visibility)
    }
}
