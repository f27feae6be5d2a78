import Foundation

/// The repository's `Data/` directory, found by walking up from this file
/// (tests run from the package root or from a clean clone anywhere).
public let dataDirectory: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Data/employees.json").path) {
            return url.appendingPathComponent("Data").path
        }
    }
    return "Data"
}()

/// A small deterministic random generator (SplitMix64), so generated test
/// input is the same on every run and machine.
public struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A new, empty folder for one test's files, inside a folder of this test
/// process that is removed when the process exits, so runs leave nothing
/// behind in the temporary directory (failed tests included; only a crash
/// of the test process leaves its folder).
public func scratchFolder(_ prefix: String = "test") -> URL {
    let folder = scratchRoot.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

private let scratchRoot: URL = {
    let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("searchlight-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    scratchRootPath = root.path
    atexit {
        if let path = scratchRootPath { try? FileManager.default.removeItem(atPath: path) }
    }
    return root
}()

// Read by the exit handler, which cannot capture context; written once, before it is registered.
nonisolated(unsafe) private var scratchRootPath: String?
