import Foundation
import TestSupport
import PropertyBased
import Testing
@testable import Routing
@testable import SearchIndex

/// Hostile input is just data: the router answers every string with a route,
/// a browser offer or a `RoutingError`, never a crash, and a route it gives
/// always names a safe identifier.
@Suite struct RouterFuzzTests {
    let router = try! Router.load(dataDirectory: dataDirectory)

    func check(_ input: String) {
        do {
            switch try router.route(input) {
            case .route(let resolution):
                #expect(Router.isSafeIdentifier(resolution.route.identifier), "unsafe id from \(input.debugDescription)")
                #expect(!resolution.route.identifier.contains("/"))
            case .browser(let url, _):
                #expect(url.lowercased().hasPrefix("https://"), "browser offered \(url.debugDescription)")
            }
        } catch is RoutingError {
            // A clear refusal.
        } catch {
            Issue.record("unexpected error \(error) for \(input.debugDescription)")
        }
    }

    static let pieces = [
        "https://", "searchlight://", "javascript:", "file://", "photos.example.com", "sl.example.com", "/photos/",
        "/p/", "/a/", "..", "../", "%2e%2e", "%2F", "?", "#", "*", ";", "|", "&&", "$(rm -rf /)", "`id`", "'", "\"",
        "\u{0}", "\u{1B}[2J", "\u{7}", "\u{85}", "\n", " ", "employee", "/", "7", "北极光", "@", ":", "//", "%00", "\\",
    ]

    @Test func generatedInputNeverCrashes() async {
        let piece = Gen<String?>.element(of: Self.pieces).map { $0 ?? "" }
        await propertyCheck(count: 2_000, input: piece.array(of: 0...8)) { (parts: [String]) in
            check(parts.joined())
        }
    }

    @Test func randomScalarsNeverCrash() async {
        let scalar = Gen<Character>.character(in: "\u{0}"..."\u{2FF}")
        await propertyCheck(count: 1_000, input: scalar.string(of: 0...40)) { text in
            check(text)
            check("https://photos.example.com/photos/" + text)
            check("searchlight://photo/" + text)
        }
    }

    /// Inputs that once went wrong while the router was written, kept as cases.
    @Test(arguments: [
        "", " ", "/", "//", "employee/", "/7", "employee/../../etc/passwd", "https://photos.example.com/photos/..",
        "https://photos.example.com/photos/%2e%2e", "https://photos.example.com/photos/a%2Fb", "searchlight://photo/..",
        "searchlight://photo/1;rm -rf /", "https://sl.example.com/p/$(id)", "https://photos.example.com/photos/1\u{1B}[2J",
        "https://" + String(repeating: "a", count: 20_000) + ".example.com/", "https:", "https://", ":", "a:b",
        "https://photos.example.com:99999/photos/1", "https://user:pass@photos.example.com/photos/1",
    ])
    func hostileCases(input: String) {
        check(input)
    }

    @Test func longInputIsRefused() {
        #expect(throws: RoutingError.self) { try router.route("https://photos.example.com/" + String(repeating: "x", count: 20_000)) }
    }

    @Test func controlCharactersAreRefused() {
        #expect(throws: RoutingError.self) { try router.route("employee/7\u{1B}[2J") }
    }
}
