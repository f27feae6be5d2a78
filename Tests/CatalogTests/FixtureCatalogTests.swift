import Foundation
import TestSupport
import Testing
@testable import Catalog
@testable import SearchIndex

@Suite struct FixtureCatalogTests {
    @Test func everyFixtureLoadsWithUniqueTypedIdentifiers() throws {
        let items = try FixtureCatalog.items(in: dataDirectory)
        let kinds = Dictionary(grouping: items) { $0.uniqueIdentifier.split(separator: "/").first.map(String.init) ?? "" }
        #expect((kinds["employee"]?.count ?? 0) >= 25)
        #expect((kinds["show"]?.count ?? 0) >= 12)
        #expect((kinds["photo"]?.count ?? 0) >= 10)
        #expect(kinds["album"] != nil && kinds["group"] != nil)
        #expect(Set(items.map(\.uniqueIdentifier)).count == items.count)
        #expect(Set(items.map(\.visibility)) == [.public, .private, .restricted])
    }

    @Test func theNamedExamplesAreFound() throws {
        var engine = SearchEngine()
        engine.index(try FixtureCatalog.items(in: dataDirectory))
        func first(_ q: String) -> String? { engine.search(SearchQuery(q)).results.first?.title }
        #expect(first("brent") == "Brent Reid")
        #expect(first("cary") == "Cary Iowa")
        #expect(first("北极光") == "北极光")
        #expect(engine.search(SearchQuery("aurora")).results.contains { $0.title == "北极光" })
    }

    @Test func employeesCarryDepartmentAndSkillsAsKeywords() throws {
        let brent = try #require(try FixtureCatalog.items(in: dataDirectory).first { $0.attributeSet.title == "Brent Reid" })
        #expect(brent.attributeSet.contentType == "public.contact")
        #expect(brent.attributeSet.keywords.contains("Engineering"))
        #expect(brent.domainIdentifier == FixtureCatalog.employeeDomain)
    }

    @Test func aBrokenFixtureNamesFileLineAndField() throws {
        let directory = scratchFolder("fixtures")
        let broken = "[\n {\"id\": 1, \"name\": \"A\", \"department\": \"D\", \"title\": \"T\",\n  \"phone\": 5, \"email\": \"a@b.c\", \"skills\": []}\n]\n"
        try broken.write(to: directory.appendingPathComponent("employees.json"), atomically: true, encoding: .utf8)
        #expect {
            try FixtureCatalog.items(in: directory.path)
        } throws: { error in
            guard let e = error as? ImportError else { return false }
            return e.file.hasSuffix("employees.json") && e.line == 3 && e.field == "phone"
        }
    }
}
