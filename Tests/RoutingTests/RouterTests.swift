import Foundation
import TestSupport
import Testing
@testable import Routing
@testable import SearchIndex

func resolution(_ outcome: Router.Outcome) -> Router.Resolution? {
    if case .route(let r) = outcome { return r }
    return nil
}

func browserURL(_ outcome: Router.Outcome) -> String? {
    if case .browser(let url, _) = outcome { return url }
    return nil
}

@Suite struct RouterTests {
    let router = try! Router.load(dataDirectory: dataDirectory)

    @Test func identifier() throws {
        let r = try router.route(identifier: "employee/7")
        #expect(r.route == Route(contentType: "employee", identifier: "7"))
        #expect(r.source == "identifier")
    }

    @Test func coreSpotlightContinuation() throws {
        let activity = UserActivity(activityType: UserActivity.searchableItemActionType,
                                    userInfo: [UserActivity.searchableItemIdentifierKey: "photo/123"])
        let r = try #require(resolution(try router.route(activity: activity)))
        #expect(r.route.uniqueIdentifier == "photo/123")
        #expect(r.detail == "Core Spotlight item photo/123")
        #expect(throws: RoutingError.self) {
            try router.route(activity: UserActivity(activityType: UserActivity.searchableItemActionType))
        }
    }

    @Test func appActivityNeedsItsRequiredKeys() throws {
        let ok = UserActivity(activityType: "com.example.searchlight.view-employee", userInfo: ["id": "7"], requiredUserInfoKeys: ["id"])
        #expect(resolution(try router.route(activity: ok))?.route.uniqueIdentifier == "employee/7")
        let missing = UserActivity(activityType: "com.example.searchlight.view-employee", userInfo: ["other": "x"],
                                   requiredUserInfoKeys: ["id", "department"])
        #expect(throws: RoutingError(.missingUserInfo, "activity com.example.searchlight.view-employee is missing userInfo department, id")) {
            try router.route(activity: missing)
        }
        #expect(throws: RoutingError.self) { try router.route(activity: UserActivity(activityType: "com.other.thing")) }
    }

    @Test func webBrowsingActivityRoutesItsURL() throws {
        let activity = UserActivity(activityType: UserActivity.browsingWebType, webpageURL: "https://photos.example.com/photos/4")
        #expect(resolution(try router.route(activity: activity))?.route.uniqueIdentifier == "photo/4")
    }

    @Test func appScheme() throws {
        #expect(resolution(try router.route(url: "searchlight://show/3"))?.route.uniqueIdentifier == "show/3")
        #expect(throws: RoutingError.self) { try router.route(url: "searchlight://show") }
        #expect(throws: RoutingError.self) { try router.route(url: "searchlight://show/a/b") }
    }

    @Test func universalLinksFollowTheAssociationRules() throws {
        // Wildcard.
        #expect(resolution(try router.route(url: "https://photos.example.com/photos/4"))?.route.uniqueIdentifier == "photo/4")
        #expect(resolution(try router.route(url: "https://colleagues.example.com/people/2"))?.route.uniqueIdentifier == "employee/2")
        // The short-link domain's own paths.
        #expect(resolution(try router.route(url: "https://sl.example.com/e/3"))?.route.uniqueIdentifier == "employee/3")
        #expect(resolution(try router.route(url: "https://sl.example.com/s/6"))?.route.uniqueIdentifier == "show/6")
        // `?` is exactly one character.
        #expect(resolution(try router.route(url: "https://sl.example.com/a/1"))?.route.uniqueIdentifier == "album/1")
        #expect(resolution(try router.route(url: "https://sl.example.com/a/12"))?.route.uniqueIdentifier == "album/12")
        #expect(browserURL(try router.route(url: "https://sl.example.com/a/123")) != nil)
        // NOT excludes, and the first matching rule wins.
        #expect(browserURL(try router.route(url: "https://sl.example.com/p/test-1")) != nil)
        #expect(browserURL(try router.route(url: "https://tv.example.com/shows/6/trailer")) != nil)
        #expect(resolution(try router.route(url: "https://tv.example.com/shows/6"))?.route.uniqueIdentifier == "show/6")
        #expect(browserURL(try router.route(url: "https://photos.example.com/help/upload")) != nil)
        // Host case does not matter.
        #expect(resolution(try router.route(url: "https://PHOTOS.example.com/photos/4")) != nil)
    }

    @Test func firstMatchingRuleWins() {
        let association = AppSiteAssociation(domain: "x", rules: [
            .init(pattern: "/a/*", excludes: false), .init(pattern: "/a/secret", excludes: true),
        ])
        #expect(association.decidingRule(for: "/a/secret")?.excludes == false)
        let reversed = AppSiteAssociation(domain: "x", rules: association.rules.reversed())
        #expect(reversed.decidingRule(for: "/a/secret")?.excludes == true)
        #expect(reversed.decidingRule(for: "/b") == nil)
    }

    @Test func globPatterns() {
        func m(_ p: String, _ s: String) -> Bool { AppSiteAssociation.Rule(pattern: p, excludes: false).matches(s) }
        #expect(m("/photos/*", "/photos/1"))
        #expect(m("/photos/*", "/photos/1/2"))
        #expect(!m("/photos/*", "/photo/1"))
        #expect(m("/a/??", "/a/12") && !m("/a/??", "/a/1"))
        #expect(m("*", "/anything"))
        #expect(m("/x*y*z", "/xaaybbz") && !m("/x*y*z", "/xaaybb"))
        // Pathological backtracking stays fast.
        #expect(!m(String(repeating: "*a", count: 50) + "b", "/" + String(repeating: "a", count: 20_000)))
    }

    @Test func unhandledHTTPSIsOfferedToTheBrowser() throws {
        guard case .browser(let url, let reason) = try router.route(url: "https://elsewhere.example.org/x?y=1") else {
            Issue.record("expected a browser offer"); return
        }
        #expect(url == "https://elsewhere.example.org/x?y=1")
        #expect(reason.contains("not an associated domain"))
        // Allowed by a rule but naming no screen.
        #expect(browserURL(try router.route(url: "https://tv.example.com/schedule")) != nil)
    }

    @Test(arguments: ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,<b>x</b>", "http://photos.example.com/photos/1", "ftp://x/y", "tel:5550100"])
    func otherSchemesAreRefused(url: String) {
        #expect(throws: RoutingError.self) { try router.route(url: url) }
        do { _ = try router.route(url) } catch let error as RoutingError {
            #expect(error.kind == .refusedScheme)
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func quickActions() throws {
        #expect(router.shortcuts.count >= 5)
        for shortcut in router.shortcuts {
            let r = try router.route(shortcut: shortcut.type)
            #expect(r.source == "shortcut")
        }
        #expect(throws: RoutingError.self) { try router.route(shortcut: "com.example.none") }
    }

    @Test func destinationsResolveAgainstTheIndex() throws {
        var engine = SearchEngine()
        engine.index([SearchableItem(uniqueIdentifier: "photo/1", attributeSet: AttributeSet(title: "Lake"))])
        let now = Date()
        guard case .item(let item) = Destination.resolve(Route(contentType: "photo", identifier: "1"), in: engine, now: now) else {
            Issue.record("expected an item"); return
        }
        #expect(item.title == "Lake")
        guard case .notFound = Destination.resolve(Route(contentType: "photo", identifier: "2"), in: engine, now: now) else {
            Issue.record("expected not found"); return
        }
        guard case .screen(_, let items) = Destination.resolve(Route(contentType: "photos", identifier: "all"), in: engine, now: now) else {
            Issue.record("expected a screen"); return
        }
        #expect(items.map(\.uniqueIdentifier) == ["photo/1"])
    }
}
