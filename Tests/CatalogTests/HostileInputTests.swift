import Foundation
import TestSupport
import PropertyBased
import Testing
@testable import Catalog
@testable import SearchIndex

/// The crawler and the fixture loader take generated hostile input: they
/// answer with an item, nothing, or an `ImportError`, never a crash.
@Suite struct HostileInputTests {
    static let htmlPieces = [
        "<html>", "<head>", "<title>", "</title>", "<meta name=\"description\" content=\"", "\">", "<meta property=\"og:image\" content=\"",
        "<script type=\"application/ld+json\">", "</script>", "{\"name\":", "\"x\"", "}", "<div>", "</b>", "<!--", "-->", "<![CDATA[",
        "&amp;", "&#0;", "&#x1B;", "\u{0}", "\u{1B}[2J", "\u{7}", "北极光", "\u{FEFF}", "<", ">", "\"", "'", "=", " ", "\n",
    ]

    @Test func theCrawlerTakesAnyMarkup() async {
        let piece = Gen<String?>.element(of: Self.htmlPieces).map { $0 ?? "" }
        await propertyCheck(count: 1_500, input: piece.array(of: 0...40)) { (parts: [String]) in
            let html = parts.joined()
            if let item = WebCrawler.item(html: Array(html.utf8), url: "https://h.example/p", host: "h.example") {
                #expect(item.uniqueIdentifier == "https://h.example/p")
                #expect(item.visibility == .public)
            }
        }
    }

    @Test func theCrawlerTakesRandomBytes() async {
        await propertyCheck(count: 500, input: Gen<UInt8>.value(in: 0...255).array(of: 0...400)) { (bytes: [UInt8]) in
            _ = WebCrawler.item(html: bytes, url: "https://h.example/p", host: "h.example")
        }
    }

    @Test func aBrokenFixtureFolderNeverCrashes() async throws {
        let original = try String(contentsOfFile: dataDirectory + "/employees.json", encoding: .utf8)
        let folder = scratchFolder("fixtures-fuzz")
        let target = folder.appendingPathComponent("employees.json")
        let characters = Array(original)
        await propertyCheck(count: 300, input: Gen.int(in: 0...(characters.count - 1)), Gen.int(in: 0...3)) { (position: Int, kind: Int) in
            var text = characters
            switch kind {
            case 0: text.removeSubrange(position...)
            case 1: text.insert("\u{0}", at: position)
            case 2: text.insert(contentsOf: "[[[[[[[[", at: position)
            default: text[position] = "\""
            }
            try? String(text).write(to: target, atomically: true, encoding: .utf8)
            do {
                let items = try FixtureCatalog.items(in: folder.path)
                #expect(items.allSatisfy { !$0.uniqueIdentifier.isEmpty })
            } catch let error as ImportError {
                #expect(error.file.hasSuffix("employees.json") || error.file == folder.path)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }
}
