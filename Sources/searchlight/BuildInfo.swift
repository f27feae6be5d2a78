import Foundation

/// What `searchlight --version` prints: the package's version, and the
/// commit of the checkout the binary was built in when there is one.
enum BuildInfo {
    /// The package's version; raised with each release.
    static let packageVersion = "0.9.0"

    static var version: String {
        guard let commit = checkoutCommit() else { return packageVersion }
        return "\(packageVersion) (\(commit))"
    }

    /// The commit `HEAD` names in the git checkout above the binary (built
    /// with `swift build`, it lies in the checkout's `.build`), read from
    /// `.git` without running git; nil outside a checkout.
    static func checkoutCommit() -> String? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let git = folder.appendingPathComponent(".git")
            if let head = try? String(contentsOf: git.appendingPathComponent("HEAD"), encoding: .utf8) {
                let line = head.trimmingCharacters(in: .whitespacesAndNewlines)
                guard line.hasPrefix("ref: ") else { return String(line.prefix(12)) }
                let ref = String(line.dropFirst(5))
                if let hash = try? String(contentsOf: git.appendingPathComponent(ref), encoding: .utf8) {
                    return String(hash.trimmingCharacters(in: .whitespacesAndNewlines).prefix(12))
                }
                return packedRef(ref, in: git).map { String($0.prefix(12)) }
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    private static func packedRef(_ ref: String, in git: URL) -> String? {
        guard let packed = try? String(contentsOf: git.appendingPathComponent("packed-refs"), encoding: .utf8) else { return nil }
        for line in packed.split(separator: "\n") where line.hasSuffix(" " + ref) {
            return line.split(separator: " ").first.map(String.init)
        }
        return nil
    }
}
