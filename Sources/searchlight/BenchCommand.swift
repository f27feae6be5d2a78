import ArgumentParser
import Catalog
import Foundation
import SearchIndex
import SearchStore
import TerminalUI

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Import a corpus into a new index, type every query one keystroke at a time, and report the timings.")

    @Option(help: "Corpus in the import format (shared/bench/make_corpus.py).")
    var corpus: String?

    @Option(help: ArgumentHelp(
        "Type the queries against this saved index instead of importing a corpus: keystroke and update timings only.",
        discussion: "For profiling: a saved index with a snapshot opens in seconds, an import of a million items takes minutes."))
    var savedIndex: String?

    @Option(help: "Queries, one a line (shared/bench/make_queries.py).")
    var queries: String

    @Option(help: "Results per keystroke.")
    var limit = 50

    @Flag(help: "Print one JSON object.")
    var json = false

    @Option(help: "Also list the N slowest keystrokes (for profiling).")
    var slowest = 0

    func validate() throws {
        if (corpus == nil) == (savedIndex == nil) { throw ValidationError("give either --corpus or --saved-index") }
        if let savedIndex, !FileManager.default.fileExists(atPath: savedIndex) {
            throw ValidationError("no index at \(savedIndex)")
        }
    }

    /// Types every line of the queries file one keystroke at a time (every
    /// non-blank prefix is a query); returns each keystroke's time in
    /// microseconds, with its query. As the search bar asks (`explained`
    /// false): results with attributes and every rule's value, the matched
    /// tokens left to the one explanation on screen, and the highlights to
    /// the rows drawn (most results make theirs when read: the UI's
    /// timing below, keystroke to painted screen, includes them).
    private func typeQueries(
        _ lines: [String], on engine: SearchEngine, now: Date, explained: Bool = false
    ) -> [Keystroke] {
        var timings: [Keystroke] = []
        // Read once: the option's wrapper, read in the timed call, was a
        // hundredth of a short keystroke's samples.
        let limit = self.limit
        for line in lines {
            var prefix = ""
            for character in line {
                prefix.append(character)
                if prefix.allSatisfy(\.isWhitespace) { continue }
                let start = DispatchTime.now().uptimeNanoseconds
                let response = engine.search(SearchQuery(prefix, limit: limit, now: now, explainsMatches: explained))
                timings.append(Keystroke(micros: Double(DispatchTime.now().uptimeNanoseconds - start) / 1000, query: prefix, plan: response.plan.name))
            }
        }
        return timings
    }

    /// Updates are timed on copies of the items: none, nothing to time.
    private static func nothingToTime(_ path: String) -> CommandFailure {
        CommandFailure(message: "\(path): no items to time updates with", code: ExitStatus.badData)
    }

    /// The `i`th of `count` items taken evenly across `items`, under the
    /// identifier `identifier`: a new item to insert and delete again.
    private static func copy(_ i: Int, of count: Int, from items: [SearchableItem], as identifier: String) -> SearchableItem {
        var copy = items[i * max(1, items.count / count) % items.count]
        copy.uniqueIdentifier = identifier
        return copy
    }

    /// Median and maximum of ascending timings, in whole microseconds.
    private static func medianAndMax(_ timings: [Double]) -> [String: Int] {
        ["p50": Int(percentile(50, of: timings)), "max": Int(timings.last ?? 0)]
    }

    /// Times, in microseconds and ascending, of 200 one-item inserts and
    /// deletes on the full index (each a copy of an item under a new identifier).
    private static func timeUpdates(on engine: inout SearchEngine, copying items: [SearchableItem]) -> (inserts: [Double], deletes: [Double]) {
        var inserts: [Double] = []
        var deletes: [Double] = []
        for i in 0..<200 {
            let copy = Self.copy(i, of: 200, from: items, as: "bench/\(i)")
            var start = DispatchTime.now().uptimeNanoseconds
            engine.index([copy])
            inserts.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
            start = DispatchTime.now().uptimeNanoseconds
            engine.deleteItems(identifiers: [copy.uniqueIdentifier])
            deletes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        return (inserts.sorted(), deletes.sorted())
    }

    /// Times, in microseconds and ascending, of a one-letter keystroke (the
    /// first letter of the item's title) typed right after a one-item
    /// insert, 50 times: what a user sees while an import runs behind the
    /// search bar. The caches a change touches must be as ready as before it.
    private func timeKeystrokesAfterUpdates(on engine: inout SearchEngine, copying items: [SearchableItem]) -> [Double] {
        var timings: [Double] = []
        for i in 0..<50 {
            let copy = Self.copy(i, of: 50, from: items, as: "bench/after/\(i)")
            engine.index([copy])
            let letter = copy.attributeSet.title.flatMap { $0.lowercased().first { $0.isLetter } } ?? "a"
            let start = DispatchTime.now().uptimeNanoseconds
            let response = engine.search(SearchQuery(String(letter), limit: limit, now: Date(), explainsMatches: false))
            timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
            _ = response.total
            engine.deleteItems(identifiers: [copy.uniqueIdentifier])
        }
        return timings.sorted()
    }

    /// One timed keystroke: its time, the query typed so far and the plan that answered it.
    struct Keystroke {
        var micros: Double
        var query: String
        var plan: String
    }

    /// Keystrokes grouped by the plan that answered them: each group's count and percentiles.
    private static func byPlan(_ timings: [Keystroke]) -> [String: [String: Int]] {
        Dictionary(grouping: timings, by: \.plan).mapValues { keystrokes in
            let sorted = keystrokes.map(\.micros).sorted()
            return ["count": sorted.count, "p50": Int(percentile(50, of: sorted)), "p99": Int(percentile(99, of: sorted))]
        }
    }

    private func printSlowest(_ timings: [Keystroke]) throws {
        for keystroke in timings.sorted(by: { $0.micros > $1.micros }).prefix(slowest) {
            try Output.line("slow: \(Int(keystroke.micros)) µs  “\(keystroke.query)”  \(keystroke.plan)")
        }
    }

    /// The keystroke and update parts of the bench on a saved index.
    private func runOnSavedIndex(_ path: String) throws {
        let latencyAtStart = MemoryLatencyProbe.nanosecondsPerRead()
        // The store is closed before the updates below, so that they change
        // the only copy of the engine instead of copying it.
        var engine = try PersistentIndex(store: IndexStore(path: path)).engine
        // As after an import: best lists for every large prefix are part of the build.
        engine.warmTopLists()
        let lines = try String(contentsOfFile: queries, encoding: .utf8).split(separator: "\n").map(String.init)
        // Typed once untimed first: a saved index's pages come from the
        // mapped snapshot at first touch (an imported one is in memory).
        _ = typeQueries(lines, on: engine, now: Date())
        let timings = typeQueries(lines, on: engine, now: Date())
        let latencies = timings.map(\.micros).sorted()
        let explained = typeQueries(lines, on: engine, now: Date(), explained: true).map(\.micros).sorted()
        func percentile(_ p: Double) -> Int { Int(Self.percentile(p, of: latencies)) }
        // Updates on this process's copy of the engine: the saved index is not changed.
        let items = engine.records.keys.sorted().prefix(20_000).compactMap { engine.records[$0]?.item }
        guard !items.isEmpty else { throw Self.nothingToTime(path) }
        let (inserts, deletes) = Self.timeUpdates(on: &engine, copying: items)
        let afterUpdates = timeKeystrokesAfterUpdates(on: &engine, copying: items)
        let latencyAtEnd = MemoryLatencyProbe.nanosecondsPerRead()
        let report: [String: Any] = [
            "items": engine.documentCount, "keystrokes": latencies.count, "keystrokesByPlan": Self.byPlan(timings),
            "keystrokeMicroseconds": ["p50": percentile(50), "p90": percentile(90), "p99": percentile(99), "max": percentile(100)],
            "explainedKeystrokeMicroseconds": [
                "p50": Int(Self.percentile(50, of: explained)), "p99": Int(Self.percentile(99, of: explained)),
            ],
            "insertMicroseconds": Int(Self.percentile(50, of: inserts)), "deleteMicroseconds": Int(Self.percentile(50, of: deletes)),
            "keystrokeAfterUpdateMicroseconds": Self.medianAndMax(afterUpdates),
            "memoryBytes": Self.memoryReport(of: engine),
            "memoryLatencyNanoseconds": ["start": latencyAtStart, "end": latencyAtEnd],
        ]
        if json { try Output.json(report); return }
        try printSlowest(timings)
        for key in report.keys.sorted() { try Output.line("\(key): \(report[key]!)") }
    }

    func run() throws {
        try CommandContext.run {
            guard let corpus else { return try runOnSavedIndex(savedIndex!) }
            // The user's path first, in processes of its own: `index import`
            // into a fresh store, then the first `search`.
            let folder = try ScratchFolder(prefix: "searchlight-bench")
            defer { folder.remove() }
            let storePath = folder.url.appendingPathComponent("index.sqlite").path
            let firstQuery = try String(contentsOfFile: queries, encoding: .utf8).split(separator: "\n")
                .first { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? "a"
            let userPath = try timeUserPath(corpus: corpus, storePath: storePath, query: firstQuery, folder: folder)
            // The import's files written out now: the system would write them
            // back some thirty seconds later, on the cores the build is timed on.
            sync()
            // Before anything is read, its 64 MB given back and the peak set back after it.
            let latencyAtStart = MemoryLatencyProbe.atStart()
            let loadStart = Date()
            let items = try ItemImporter.items(atPath: corpus)
            guard !items.isEmpty else { throw Self.nothingToTime(corpus) }
            let parseSeconds = Date().timeIntervalSince(loadStart)
            let itemCount = items.count
            // The updates copy items taken evenly across the corpus; the
            // parsed array itself goes to the engine (`consume`), which
            // lets each set go as it codes it and the array once its
            // records hold the items (held here, every item and original
            // set would stay through the build).
            let sample = (0..<200).map { items[$0 * max(1, items.count / 200) % items.count] }
            let buildStart = Date()
            var engine = SearchEngine()
            engine.index(consume items)
            let indexSeconds = Date().timeIntervalSince(buildStart)
            // Best lists for every large prefix are part of the build.
            let warmStart = Date()
            engine.warmTopLists()
            let buildSeconds = indexSeconds + Date().timeIntervalSince(warmStart)
            let lines = try String(contentsOfFile: queries, encoding: .utf8).split(separator: "\n").map(String.init)
            let now = Date()
            let timings = typeQueries(lines, on: engine, now: now)
            var latencies = timings.map(\.micros)
            latencies.sort()
            // The same keystrokes with every result's matched tokens named
            // (what `search --explain` asks).
            let explained = typeQueries(lines, on: engine, now: now, explained: true).map(\.micros).sorted()
            func percentile(_ p: Double, of sorted: [Double]? = nil) -> Double { Self.percentile(p, of: sorted ?? latencies) }
            let paints = Self.timeUIKeystrokes(lines, on: engine, now: now)
            let (inserts, deletes) = Self.timeUpdates(on: &engine, copying: sample)
            let afterUpdates = timeKeystrokesAfterUpdates(on: &engine, copying: sample)
            // Cold start: a later process's first answer on the imported store.
            let coldStart = try timeFirstAnswer(query: firstQuery, storePath: storePath, folder: folder)
            // Read before the engine's parts are counted: their count makes
            // a table of every attribute set, which is not the engine's.
            let peakRSS = Self.peakRSS()
            let latencyAtEnd = MemoryLatencyProbe.nanosecondsPerRead()
            let report: [String: Any] = [
                "items": itemCount, "parseSeconds": Self.round2(parseSeconds), "buildSeconds": Self.round2(buildSeconds),
                "keystrokes": latencies.count, "keystrokesByPlan": Self.byPlan(timings),
                "keystrokeMicroseconds": ["p50": Int(percentile(50)), "p99": Int(percentile(99)), "max": Int(latencies.last ?? 0)],
                "explainedKeystrokeMicroseconds": [
                    "p50": Int(percentile(50, of: explained)), "p99": Int(percentile(99, of: explained)),
                ],
                "uiKeystrokeMicroseconds": [
                    "p50": Int(percentile(50, of: paints)), "p99": Int(percentile(99, of: paints)), "max": Int(paints.last ?? 0),
                ],
                "insertMicroseconds": Int(percentile(50, of: inserts)), "deleteMicroseconds": Int(percentile(50, of: deletes)),
                "keystrokeAfterUpdateMicroseconds": Self.medianAndMax(afterUpdates),
                "peakRSSBytes": peakRSS,
                "memoryBytes": Self.memoryReport(of: engine),
                "coldStartMilliseconds": coldStart.milliseconds,
                "coldStartPeakRSSBytes": coldStart.peakRSSBytes,
                "firstStartMilliseconds": userPath.firstAnswer.milliseconds,
                "firstStartPeakRSSBytes": userPath.firstAnswer.peakRSSBytes,
                "userPath": userPath.report,
                // Without the start's where the peak could not be set back after it.
                "memoryLatencyNanoseconds": ["start": latencyAtStart, "end": latencyAtEnd].compactMapValues { $0 },
            ]
            if json { try Output.json(report); return }
            try printSlowest(timings)
            for key in report.keys.sorted() { try Output.line("\(key): \(report[key]!)") }
        }
    }

    /// A user's path from a file to the first answer: `index import` of
    /// the corpus into a fresh, empty store at `storePath`, then the first
    /// `search` in a new process; seconds of each and the bytes on disk.
    private func timeUserPath(
        corpus: String, storePath: String, query: String, folder: ScratchFolder
    ) throws -> (report: [String: Any], firstAnswer: (milliseconds: Int, peakRSSBytes: Int)) {
        // Empty, as a new store that `index import` fills (no fixtures).
        _ = try IndexStore(path: storePath)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        child.arguments = ["index", "import", corpus, "--index", storePath, "--data", folder.path]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        let start = Date()
        try folder.running(child) { child.waitUntilExit() }
        let importSeconds = Date().timeIntervalSince(start)
        guard child.terminationStatus == 0 else {
            throw CommandFailure(message: "the import of \(corpus) exited with \(child.terminationStatus)", code: ExitStatus.failure)
        }
        let firstAnswer = try timeFirstAnswer(query: query, storePath: storePath, folder: folder)
        func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        let (store, snapshot) = (size(storePath) + size(storePath + "-wal"), size(storePath + ".snapshot"))
        let report: [String: Any] = [
            "importSeconds": Self.round2(importSeconds), "firstAnswerSeconds": Self.round2(Double(firstAnswer.milliseconds) / 1000),
            "totalSeconds": Self.round2(importSeconds + Double(firstAnswer.milliseconds) / 1000),
            "inputBytes": size(corpus), "storeBytes": store, "snapshotBytes": snapshot, "diskBytes": store + snapshot,
        ]
        return (report, firstAnswer)
    }

    /// The keystrokes of `lines` through the terminal UI's screen model, on a
    /// 120×40 screen: query (the UI's page of results), the rows' match
    /// highlights, state, every cell; microseconds each, sorted. The app
    /// holds a copy of the engine, gone when this returns: the updates that
    /// follow would otherwise copy every structure they touch.
    static func timeUIKeystrokes(_ lines: [String], on engine: SearchEngine, now: Date) -> [Double] {
        var paints: [Double] = []
        let app = TerminalApp(backend: BenchBackend(engine: engine, now: now), width: 120, height: 40)
        for line in lines {
            app.handle(.control("u"))
            for character in line {
                let start = DispatchTime.now().uptimeNanoseconds
                app.handle(.character(character))
                let screen = app.render()
                paints.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
                _ = screen.width
            }
        }
        return paints.sorted()
    }

    /// Runs `search QUERY --json` in a new process on the saved store and
    /// times it to the end of its answer's line (what the process does after
    /// answering, such as saving a snapshot or freeing memory, is not timed;
    /// the next run waits for it). Its peak resident memory is read from
    /// /proc once the answer has arrived: the process waits for that
    /// (`holdIfTimed`).
    private func timeFirstAnswer(
        query: String, storePath: String, folder: ScratchFolder
    ) throws -> (milliseconds: Int, peakRSSBytes: Int) {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        child.arguments = ["search", query, "--limit", "\(limit)", "--json", "--index", storePath, "--data", folder.path]
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        child.environment = ProcessInfo.processInfo.environment.merging([Self.holdVariable: "1"]) { _, held in held }
        let input = Pipe()
        child.standardInput = input
        let start = Date()
        let (answered, peak) = try folder.running(child) {
            var answered: Date?
            while answered == nil {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty || chunk.contains(UInt8(ascii: "\n")) { answered = Date() }
            }
            let peak = Self.peakRSS(of: "/proc/\(child.processIdentifier)/status")
            try? input.fileHandleForWriting.close()
            child.waitUntilExit()
            return (answered!, peak)
        }
        guard child.terminationStatus == 0 else {
            throw CommandFailure(message: "the cold-start search exited with \(child.terminationStatus)", code: ExitStatus.failure)
        }
        return (Int(answered.timeIntervalSince(start) * 1000), peak)
    }

    /// Where the engine's memory is: its parts, their total, and what it
    /// reads in place from a loaded snapshot (see `MemoryUsage`).
    private static func memoryReport(of engine: SearchEngine) -> [String: Int] {
        let usage = engine.memoryUsage()
        var report = ["total": usage.total, "borrowed": usage.borrowed]
        for part in usage.parts { report[part.name] = part.bytes }
        return report
    }

    /// The `p`th percentile of ascending `values` (nearest rank), 0 for none.
    private static func percentile(_ p: Double, of values: [Double]) -> Double {
        values.isEmpty ? 0 : values[min(values.count - 1, Int((p / 100 * Double(values.count - 1)).rounded()))]
    }

    private static func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }

    /// Set for a `search` whose first answer the bench times.
    static let holdVariable = "SEARCHLIGHT_BENCH_HOLD"

    /// In a `search` the bench times, waits once the answer is out until
    /// the bench has read the process's peak memory and closes its input.
    /// (Read as the answer arrived, the peak was missed, 0, when the
    /// process had already exited, as in two 1M runs of 2026-11-26.)
    static func holdIfTimed() {
        guard ProcessInfo.processInfo.environment[holdVariable] != nil else { return }
        _ = FileHandle.standardInput.readDataToEndOfFile()
    }

    /// VmHWM from /proc: the peak resident set of this process (or of the
    /// one whose status file is named; 0 if it is gone).
    private static func peakRSS(of statusFile: String = "/proc/self/status") -> Int {
        guard let status = try? String(contentsOfFile: statusFile, encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kb = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kb * 1024
        }
        return 0
    }
}
