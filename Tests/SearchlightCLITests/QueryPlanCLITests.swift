import Foundation
import Testing

/// `search --explain` names the strategy that answered and why; `bench
/// --json` counts keystrokes by it.
@Suite struct QueryPlanCLITests {
    @Test func explainNamesThePlan() throws {
        let run = try CLI().run(["search", "northern lights", "--json", "--explain"])
        let plan = try #require(run.json?["plan"] as? [String: Any])
        #expect(plan["exactFirst"] as? Bool == true)
        #expect(plan["name"] as? String == "exact+\(plan["strategy"] as? String ?? "?")")
        #expect(!((plan["reason"] as? String) ?? "").isEmpty)
        let filters = try #require(try CLI().run(["search", "kind:show", "--json", "--explain"]).json?["plan"] as? [String: Any])
        #expect(filters["strategy"] as? String == "filtersAlone")
        let unmatched = try CLI().run(["search", "northern qqqq", "--explain"]).stdout
        #expect(unmatched.hasSuffix("plan: nothing (“qqqq” starts no token)\n"))
        let text = try CLI().run(["search", "brent", "--explain"]).stdout
        #expect(text.split(separator: "\n").last?.hasPrefix("plan: ") == true)
        // Without --explain, nothing about the plan.
        #expect(try CLI().run(["search", "northern lights", "--json"]).json?["plan"] == nil)
    }
}
