import Foundation
import Testing

/// The exact and hint rules as `search`, `replay` and import show them, on
/// the bundled fixtures (a show's audience and a photo's favourites are
/// their hints) and on an imported file.
@Suite struct RankingCLITests {
    @Test func explainNamesBothRulesInTheirPlace() throws {
        let run = try CLI().run(["search", "northern lights", "--json", "--explain"])
        let results = try #require(run.json?["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["uniqueIdentifier"] as? String }.prefix(2) == ["show/16", "show/6"])
        let rules = try #require((results[0]["explain"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["rule"] as? String } == [
            "typos", "wholeWords", "exact", "field", "engagement", "rankingHint", "sources", "titleLength", "uniqueIdentifier",
        ])
        #expect(rules[2]["value"] as? Bool == true)
        #expect(rules[5]["value"] as? Double == 45_000)
        let text = try CLI().run(["search", "northern lights", "--explain"]).stdout
        #expect(text.contains("exact yes") && text.contains("ranking hint 3200000"))
    }

    @Test func replayShowsTheHintAndExactWhenTheyDecideAMovement() throws {
        let lines = try CLI().run(["replay", "northern lights", "--top", "2", "--no-times"]).stdout
            .split(separator: "\n").map(String.init)
        let no = try #require(lines.firstIndex { $0.hasPrefix("“no”") })
        #expect(lines[no + 1].contains("Northern Lights Diaries") && lines[no + 1].hasSuffix("(hint 3,200,000)"))
        let whole = try #require(lines.firstIndex { $0.hasPrefix("“northern lights”") })
        #expect(lines[whole + 1].contains("show/16") && lines[whole + 1].hasSuffix("(exact)"))
        #expect(!lines[whole + 2].contains("("))
        let json = try CLI().run(["replay", "northern lights", "--top", "2", "--json"])
        let steps = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let last = try #require(steps.last?["results"] as? [[String: Any]])
        #expect(last.first?["decidedBy"] as? String == "exact")
        #expect(last.last?["rankingHint"] as? Double == 3_200_000)
    }

    @Test func anImportedHintRanksAndAnExactTitleBeatsIt() throws {
        let cli = CLI()
        let file = try cli.write("packages.jsonl", [
            #"{"uniqueIdentifier":"pkg/requests","attributeSet":{"title":"requests","rankingHint":50}}"#,
            #"{"uniqueIdentifier":"pkg/requests-x","attributeSet":{"title":"requests-x","rankingHint":900}}"#,
            #"{"uniqueIdentifier":"pkg/reqs","attributeSet":{"title":"reqs"}}"#,
        ].joined(separator: "\n"))
        #expect(try cli.run(["index", "import", file]).status == 0)
        #expect(try cli.ids("req") == ["pkg/requests-x", "pkg/requests", "pkg/reqs"])
        #expect(try cli.ids("requests") == ["pkg/requests", "pkg/requests-x"])
    }
}
