// swift-tools-version:6.1
import PackageDescription

/// The engine and importers are optimized in debug builds too: the tests
/// import hundreds of thousands of items (kill tests, fuzzing) and would
/// otherwise spend minutes in unoptimized generic code.
let optimizedInTests: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "Searchlight",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "searchlight", targets: ["searchlight"]),
        .library(name: "SearchIndex", targets: ["SearchIndex"]),
        .library(name: "SearchlightSpotlight", targets: ["SearchlightSpotlight"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        // What the engine, the importers and the store share: work split
        // among the cores, freeing on another thread, the C allocator.
        .target(name: "SearchSupport", swiftSettings: optimizedInTests),
        // What is indexed: Core Spotlight's items, attribute sets and
        // activities, their compact form and their JSON. Values, no I/O.
        .target(name: "SearchModel", dependencies: ["SearchSupport"], swiftSettings: optimizedInTests),
        // How text becomes tokens, and a query's text terms, filters and
        // limits: shared by the engine, the screen and the commands.
        .target(name: "SearchText", dependencies: ["SearchModel"], swiftSettings: optimizedInTests),
        // The engine: trie, ranking, query plans. Pure Swift, no I/O.
        .target(name: "SearchIndex", dependencies: ["SearchModel", "SearchText", "SearchSupport"], swiftSettings: optimizedInTests),
        // The engine saved as it stands and loaded back without tokenising:
        // a cache of the store's records, in memory layout. Bytes in, bytes out.
        .target(name: "SearchSnapshot", dependencies: ["SearchIndex", "SearchSupport"], swiftSettings: optimizedInTests),
        // The truth on disk: SQLite through GRDB, plus the live index built on it.
        .target(
            name: "SearchStore",
            dependencies: [
                "SearchIndex", "SearchSnapshot", "SearchSupport", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for reading a million bodies without a row object each (`StoredRun`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: optimizedInTests
        ),
        // libxml2 itself, its flags from pkg-config.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // libxml2's HTML parser behind a small C API (its headers clash with
        // Foundation's ICU when imported into Swift directly).
        .target(name: "CHTMLParser", dependencies: ["CLibXML2"]),
        // ncurses with the wide-character API, for the terminal driver.
        .systemLibrary(name: "CNcurses", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        // Core Spotlight's API (CSSearchableIndex, NSUserActivity on Linux) over the store.
        .target(name: "SearchlightSpotlight", dependencies: ["SearchIndex", "SearchStore"]),
        // Fixtures, importers (JSON / JSON Lines), the web markup crawler.
        .target(name: "Catalog", dependencies: ["SearchIndex", "SearchSupport", "CHTMLParser"], swiftSettings: optimizedInTests),
        // Routes from identifiers, activities and URLs.
        .target(name: "Routing", dependencies: ["SearchIndex"]),
        // The terminal UI as a pure screen model: state and keys in, cells out.
        .target(name: "TerminalUI", dependencies: ["SearchIndex"]),
        // The UI's backend over a real index: the router, the store, imports
        // on a thread of their own, following other processes.
        .target(name: "SearchApp", dependencies: ["TerminalUI", "SearchIndex", "SearchStore", "Routing", "Catalog"]),
        .executableTarget(
            name: "searchlight",
            dependencies: [
                "SearchIndex", "SearchStore", "SearchSupport", "Catalog", "Routing", "TerminalUI", "SearchApp", "CNcurses",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What several test targets share: the Data/ lookup, a seeded generator.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "SearchIndexTests",
            dependencies: ["SearchIndex", "SearchModel", "SearchText", "SearchSnapshot", "SearchSupport", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "SearchStoreTests",
            dependencies: ["SearchStore", "SearchIndex", "Catalog", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "SearchlightSpotlightTests", dependencies: ["SearchlightSpotlight", "SearchStore", "SearchIndex", "TestSupport"]),
        .testTarget(
            name: "CatalogTests",
            dependencies: ["Catalog", "SearchIndex", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "RoutingTests",
            dependencies: ["Routing", "SearchIndex", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "SearchlightCLITests", dependencies: ["searchlight", "SearchStore", "TestSupport"], exclude: ["DemoOutputs"]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "SearchApp", "SearchIndex", "SearchStore", "Routing", "Catalog", "TestSupport",
                           .product(name: "SnapshotTesting", package: "swift-snapshot-testing")],
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
