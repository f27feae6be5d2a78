import Foundation
import TestSupport
import Testing
@testable import Catalog
@testable import SearchIndex

@Suite struct ItemImporterTests {
    func read(_ text: String, domain: String? = nil) throws -> [SearchableItem] {
        try ItemImporter.items(from: Array(text.utf8), file: "in.jsonl", domain: domain)
    }

    func error(_ text: String) -> ImportError? {
        do { _ = try read(text); return nil } catch let e as ImportError { return e } catch { return nil }
    }

    let good = #"{"uniqueIdentifier":"photo/1","domainIdentifier":"d","attributeSet":{"contentType":"public.image","title":"Lake"}}"#

    @Test func readsJSONLinesAndSkipsBlankLines() throws {
        let items = try read(good + "\n\n" + good.replacingOccurrences(of: "photo/1", with: "photo/2") + "\n")
        #expect(items.map(\.uniqueIdentifier) == ["photo/1", "photo/2"])
        #expect(items[0].visibility == .private, "private is the default")
    }

    @Test func readsAJSONArray() throws {
        let items = try read("[\n" + good + ",\n" + good.replacingOccurrences(of: "photo/1", with: "photo/2") + "\n]\n")
        #expect(items.count == 2)
    }

    @Test func domainOptionReplacesTheDomain() throws {
        #expect(try read(good, domain: "com.acme").first?.domainIdentifier == "com.acme")
    }

    @Test func readsTheBenchmarkCorpusShape() throws {
        let line = ##"{"uniqueIdentifier": "employee/0", "domainIdentifier": "com.example.colleagues.employee", "attributeSet": {"contentType": "public.contact", "title": "Ka Ren", "contentDescription": "mi sa", "keywords": ["to"], "thumbnail": {"format": "jpeg", "width": 120, "height": 90, "byteCount": 4000, "dominantColor": "#A1B2C3"}, "emailAddresses": ["ka.ren@example.com"], "phoneNumbers": ["555-0000"]}}"##
        let items = try read(line)
        #expect(items.first?.attributeSet.thumbnail?.dominantColor == "#A1B2C3")
    }

    /// Every item of a file shares one copy of each domain name, across
    /// the buffers and threads that decode it: a result's domain is then
    /// memory the last result touched, not a copy of its own.
    @Test func itemsOfAFileShareOneCopyOfEachDomain() throws {
        let folder = scratchFolder("importer-domains")
        defer { try? FileManager.default.removeItem(at: folder) }
        let domains = ["com.example.colleagues.employee", "com.example.photos.album"]
        // About 2.5 MB: more than two reads of a megabyte, each decoded in parts.
        let lines = (0..<20_000).map {
            good.replacingOccurrences(of: "photo/1", with: "photo/\($0)")
                .replacingOccurrences(of: #""domainIdentifier":"d""#, with: #""domainIdentifier":""# + domains[$0 % 2] + #"""#)
        }
        let path = folder.appendingPathComponent("domains.jsonl").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let items = try ItemImporter.items(atPath: path)
        #expect(items.count == lines.count)
        /// Where the domain's bytes lie: the same place for two items only
        /// when they share one copy.
        func storage(_ item: SearchableItem) -> UInt {
            let start = item.domainIdentifier?.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
            return UInt(bitPattern: (start ?? nil).map { UnsafeRawPointer($0) })
        }
        for (index, domain) in domains.enumerated() {
            let named = items.indices.filter { $0 % 2 == index }.map { items[$0] }
            #expect(named.allSatisfy { $0.domainIdentifier == domain })
            let places = Set(named.map(storage))
            #expect(places.count == 1 && !places.contains(0), "\(domain)")
        }
    }

    /// A file's lines are decoded by several threads a buffer at a time:
    /// items still come in file order, blank lines still count as lines,
    /// and the error named is the first bad line's, across buffers.
    @Test func aLargeFileKeepsItsOrderAndNamesItsFirstBadLine() throws {
        let folder = scratchFolder("importer")
        defer { try? FileManager.default.removeItem(at: folder) }
        // About 1.6 MB: more than one read of a megabyte.
        var lines = (0..<14_000).map { good.replacingOccurrences(of: "photo/1", with: "photo/\($0)") }
        for blank in stride(from: 5, to: lines.count, by: 7) { lines[blank] = " " }
        let path = folder.appendingPathComponent("many.jsonl").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let items = try ItemImporter.items(atPath: path)
        let expected = lines.indices.filter { $0 % 7 != 5 }.map { "photo/\($0)" }
        #expect(items.map(\.uniqueIdentifier) == expected)

        for (first, second) in [(9_001, 13_500), (40, 41), (12_000, 13_999)] {
            var bad = lines
            bad[first] = #"{"uniqueIdentifier": "#
            bad[second] = #"{"uniqueIdentifier": 7}"#
            try bad.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
            #expect(throws: ImportError.self) { try ItemImporter.items(atPath: path) }
            do {
                _ = try ItemImporter.items(atPath: path)
            } catch let error as ImportError {
                #expect(error.line == first + 1, "bad lines \(first + 1) and \(second + 1)")
            }
        }
    }

    @Test func malformedLineNamesItsLine() {
        let e = error(good + "\n" + #"{"uniqueIdentifier": "#)
        #expect(e?.line == 2)
        #expect(e?.description.hasPrefix("in.jsonl:2:") == true)
    }

    @Test func wrongTypeNamesTheField() {
        let e = error(good + "\n" + #"{"uniqueIdentifier":"x","attributeSet":{"title":7}}"#)
        #expect(e?.line == 2)
        #expect(e?.field == "attributeSet.title")
    }

    @Test func fieldOnALaterLineOfAnArrayElementIsLocated() {
        let e = error("[\n {\n  \"uniqueIdentifier\": \"x\",\n  \"attributeSet\": {\n   \"keywords\": \"nope\"\n  }\n }\n]")
        #expect(e?.line == 5)
        #expect(e?.field == "attributeSet.keywords")
    }

    @Test func missingOrEmptyIdentifier() {
        #expect(error(#"{"attributeSet":{}}"#)?.field == "uniqueIdentifier")
        #expect(error(#"{"uniqueIdentifier":"  ","attributeSet":{}}"#)?.field == "uniqueIdentifier")
    }

    @Test func badDate() {
        let e = error(#"{"uniqueIdentifier":"x","expirationDate":"next tuesday","attributeSet":{}}"#)
        #expect(e?.field == "expirationDate")
    }

    @Test func acceptsISODates() throws {
        let items = try read(#"{"uniqueIdentifier":"x","expirationDate":"2026-12-01T10:00:00Z","attributeSet":{}}"#)
        #expect(items.first?.expirationDate == ISO8601DateFormatter().date(from: "2026-12-01T10:00:00Z"))
    }

    @Test func invalidUTF8() throws {
        var bytes = Array(good.utf8) + [0x0A]
        bytes += Array(#"{"uniqueIdentifier":"x","attributeSet":{"title":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)
        #expect(throws: ImportError(file: "f", line: 2, field: "-", message: "invalid UTF-8")) {
            try ItemImporter.items(from: bytes, file: "f")
        }
    }

    @Test func nulByteIsRefused() {
        #expect(error("{\"uniqueIdentifier\":\"x\u{0}\",\"attributeSet\":{}}")?.line == 1)
    }

    @Test func badColour() {
        #expect(error(#"{"uniqueIdentifier":"x","attributeSet":{"thumbnail":{"dominantColor":"green"}}}"#)?.field == "attributeSet.thumbnail.dominantColor")
        for colour in ["#12345G", "#12345", "#1234567", "#\u{FF11}23456", "123456#"] {
            #expect(error(#"{"uniqueIdentifier":"x","attributeSet":{"thumbnail":{"dominantColor":"\#(colour)"}}}"#) != nil, "\(colour)")
        }
        #expect(error(##"{"uniqueIdentifier":"x","attributeSet":{"thumbnail":{"dominantColor":"#a1B2c3"}}}"##) == nil)
    }

    /// Whitespace and control characters beyond ASCII count too.
    @Test func identifiersOfUnicodeSpaceOrControlsAreRefused() {
        #expect(error(#"{"uniqueIdentifier":"\u2003\t\u00a0","attributeSet":{}}"#)?.message == "empty")
        #expect(error(#"{"uniqueIdentifier":"a\u0085b","attributeSet":{}}"#)?.message == "contains control characters")
        #expect(error(#"{"uniqueIdentifier":"a\u007fb","attributeSet":{}}"#)?.message == "contains control characters")
        #expect(error(#"{"uniqueIdentifier":"\u00e9\u2003","attributeSet":{}}"#) == nil)
    }

    @Test func truncatedArray() {
        #expect(error("[\n" + good + ",\n")?.message == "unterminated JSON array")
    }

    @Test func aLineOfSeveralMegabytesIsAccepted() throws {
        let long = String(repeating: "word ", count: 800_000)
        let items = try read(#"{"uniqueIdentifier":"x","attributeSet":{"contentDescription":"\#(long)"}}"#)
        #expect(items.first?.attributeSet.contentDescription?.utf8.count == long.utf8.count)
    }
}

/// Generated hostile input never crashes or hangs the importer: it gives
/// items or an `ImportError` naming a line of the input.
@Suite struct ImporterFuzzTests {
    static let seeds = [
        ##"{"uniqueIdentifier":"a/1","domainIdentifier":"d","expirationDate":"2026-01-01T00:00:00Z","attributeSet":{"title":"Lake","keywords":["x","y"],"thumbnail":{"width":1,"dominantColor":"#A0B0C0"},"extras":{"k":"v"}}}"##,
        #"[{"uniqueIdentifier":"b/1","attributeSet":{"title":"北极光"}},{"uniqueIdentifier":"b/2","attributeSet":{}}]"#,
    ]

    func check(_ bytes: [UInt8]) {
        do {
            _ = try ItemImporter.items(from: bytes, file: "fuzz.jsonl")
        } catch let error as ImportError {
            // A line of the input: counted from 1, at most one past its last newline.
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
            #expect((1...max(1, lines)).contains(error.line), "line \(error.line) of \(lines)")
            #expect(!error.description.isEmpty)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func mutatedLinesNeverCrashOrHang() {
        var generator = SeededGenerator(seed: 99)
        for seed in Self.seeds {
            let base = Array(seed.utf8)
            for _ in 0..<1_500 {
                var bytes = base
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let position = Int.random(in: 0..<max(1, bytes.count), using: &generator)
                    switch Int.random(in: 0..<6, using: &generator) {
                    case 0: bytes.removeSubrange(position...)                        // truncate
                    case 1: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
                    case 2: if position < bytes.count { bytes[position] = UInt8.random(in: 0...255, using: &generator) }
                    case 3: bytes.insert(contentsOf: Array(repeating: UInt8(ascii: "["), count: 500), at: position)
                    case 4: bytes.insert(contentsOf: Array("\u{1B}]0;x\u{07}\n".utf8), at: position)
                    default: bytes.insert(contentsOf: Array(#"{"a":[1,{"b":null}],"#.utf8), at: position)
                    }
                    if bytes.isEmpty { break }
                }
                check(bytes)
            }
        }
    }

    @Test func theLocatorAlwaysTerminates() {
        // Paths into values of the wrong shape once looped forever.
        for text in [#"{"uniqueIdentifier":["z"],"attributeSet":{}}"#, #"{"a":{"b":[1,2,{"c":"#, #"[[["#, #"{"x":}"#, #"{"k" 1}"#] {
            for path in [["uniqueIdentifier"], ["a", "b", "[2]", "c"], ["[0]", "[0]", "[0]", "[0]"], ["x", "y"], ["k"]] {
                _ = JSONLocator.line(of: path, in: Array(text.utf8)[...])
            }
        }
    }

    @Test func deepNestingIsRefusedBeforeParsing() {
        let deep = "{\"uniqueIdentifier\":\"a\",\"attributeSet\":{\"extras\":" + String(repeating: "[", count: 100_000)
        #expect(throws: ImportError.self) { try ItemImporter.items(from: Array(deep.utf8), file: "f") }
    }
}
