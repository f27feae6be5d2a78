import Foundation
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
