import Foundation
import Testing

/// Filters in the query, the same in `search` and `replay` (SPEC 2).
@Suite struct FilterCLITests {
    @Test func filtersRestrictSearchAndAnUnknownOneIsBadUsage() throws {
        let cli = CLI()
        let photos = try cli.run(["search", "kind:photo", "aur", "--json"])
        #expect(photos.status == 0)
        let results = photos.json?["results"] as? [[String: Any]] ?? []
        #expect(!results.isEmpty && results.allSatisfy { $0["contentType"] as? String == "public.image" })
        #expect(photos.json?["query"] as? String == "kind:photo aur")
        let shows = try cli.ids("domain:com.example.tv night")
        #expect(!shows.isEmpty && shows.allSatisfy { $0.hasPrefix("show/") })
        let alone = try cli.run(["search", "kind:show", "--limit", "0"])
        #expect(alone.status == 0 && alone.stdout.contains("16 results"))
        let bogus = try cli.run(["search", "kind:bogus", "aurora"])
        #expect(bogus.status == 64)
        #expect(bogus.stderr.contains("unknown filter kind:bogus"))
        #expect(try cli.run(["search", "source:mail", "x"]).status == 64)
        // Other words with a colon are text.
        #expect(try cli.run(["search", "20:00"]).status == 0)
    }

    @Test func replayTypesAFilterAndAppliesItOnceKnown() throws {
        let cli = CLI()
        let run = try cli.run(["replay", "kind:photo", "aur", "--json", "--no-times", "--top", "3"])
        #expect(run.status == 0)
        let steps = (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]] ?? []
        let last = try #require(steps.last)
        let ids = (last["results"] as? [[String: Any]] ?? []).compactMap { $0["uniqueIdentifier"] as? String }
        #expect(!ids.isEmpty && ids.allSatisfy { $0.hasPrefix("photo/") })
        #expect(try cli.run(["replay", "kind:bogus"]).status == 64)
    }
}
