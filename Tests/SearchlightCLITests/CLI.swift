import Foundation
import TestSupport
import Testing

/// Runs the real `searchlight` binary, as a script would.
struct CLI {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
        }
    }

    static let binary: String = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("searchlight").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        return "searchlight"
    }()

    static let dataDirectory = TestSupport.dataDirectory

    /// A fresh index file in its own folder.
    let indexPath: String = {
        scratchFolder("cli").appendingPathComponent("index.sqlite").path
    }()

    var folder: String { (indexPath as NSString).deletingLastPathComponent }

    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:], withIndex: Bool = true) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments + (withIndex ? ["--index", indexPath, "--data", Self.dataDirectory] : [])
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "SEARCHLIGHT_INDEX")
        env.removeValue(forKey: "SEARCHLIGHT_DATA")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func ids(_ query: String, _ extra: [String] = []) throws -> [String] {
        let run = try self.run(["search", query, "--json", "--limit", "100"] + extra)
        return (run.json?["results"] as? [[String: Any]] ?? []).compactMap { $0["uniqueIdentifier"] as? String }
    }
}
