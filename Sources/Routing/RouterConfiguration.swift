import Foundation

extension Router {
    /// The router for a data folder: `associated-domains.json`, each domain's
    /// `web/<domain>/apple-app-site-association`, and `shortcuts.json`.
    /// Missing files mean no associated domains or no quick actions.
    public static func load(dataDirectory: String) throws -> Router {
        let fileManager = FileManager.default
        func read(_ relative: String) -> Data? {
            fileManager.contents(atPath: (dataDirectory as NSString).appendingPathComponent(relative))
        }
        var associations: [String: AppSiteAssociation] = [:]
        if let data = read("associated-domains.json") {
            guard let domains = try? JSONSerialization.jsonObject(with: data) as? [String] else {
                throw RoutingError(.badAssociation, "\(dataDirectory)/associated-domains.json: expected an array of domain names")
            }
            for domain in domains {
                guard let file = read("web/\(domain)/apple-app-site-association") else { continue }
                associations[domain.lowercased()] = try AppSiteAssociation(domain: domain, json: [UInt8](file))
            }
        }
        var shortcuts: [Shortcut] = []
        if let data = read("shortcuts.json") {
            do {
                shortcuts = try JSONDecoder().decode([Shortcut].self, from: data)
            } catch {
                throw RoutingError(.badAssociation, "\(dataDirectory)/shortcuts.json: \(error)")
            }
        }
        return Router(associations: associations, shortcuts: shortcuts)
    }
}
