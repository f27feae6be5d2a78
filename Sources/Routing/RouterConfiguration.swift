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
        // A malformed file is reported once and handles nothing; every
        // other way in still routes.
        var warnings: [String] = []
        var associations: [String: AppSiteAssociation] = [:]
        if let data = read("associated-domains.json") {
            if let domains = try? JSONSerialization.jsonObject(with: data) as? [String] {
                for domain in domains {
                    guard let file = read("web/\(domain)/apple-app-site-association") else { continue }
                    do {
                        associations[domain.lowercased()] = try AppSiteAssociation(domain: domain, json: [UInt8](file))
                    } catch let error as RoutingError {
                        warnings.append("\(error.message); \(domain) handles no links")
                    }
                }
            } else {
                warnings.append("\(dataDirectory)/associated-domains.json: expected an array of domain names; no links are handled")
            }
        }
        var shortcuts: [Shortcut] = []
        if let data = read("shortcuts.json") {
            do {
                shortcuts = try JSONDecoder().decode([Shortcut].self, from: data)
            } catch {
                warnings.append("\(dataDirectory)/shortcuts.json: not a list of quick actions; none are offered")
            }
        }
        var router = Router(associations: associations, shortcuts: shortcuts)
        router.warnings = warnings
        return router
    }
}
