/// Where opening something leads: a content type and an identifier, as a
/// photo app's router would have it (`employee` + `7`).
public struct Route: Sendable, Hashable, Codable, CustomStringConvertible {
    public var contentType: String
    public var identifier: String

    public init(contentType: String, identifier: String) {
        self.contentType = contentType
        self.identifier = identifier
    }

    /// The index identifier this route names (`type/id`).
    public var uniqueIdentifier: String { "\(contentType)/\(identifier)" }

    public var description: String { uniqueIdentifier }

    /// `type/id`, split at the first `/`; nil unless both parts are non-empty.
    public init?(uniqueIdentifier: String) {
        guard let slash = uniqueIdentifier.firstIndex(of: "/") else { return nil }
        let type = String(uniqueIdentifier[..<slash])
        let id = String(uniqueIdentifier[uniqueIdentifier.index(after: slash)...])
        guard !type.isEmpty, !id.isEmpty,
            type.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0 == "-" || $0 == "_" || ("0"..."9").contains($0) })
        else { return nil }
        self.init(contentType: type, identifier: id)
    }
}
