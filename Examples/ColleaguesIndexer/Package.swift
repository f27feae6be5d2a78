// swift-tools-version:6.1
import PackageDescription

// The Colleagues and TV-show samples' indexing code, as an iOS app has it,
// built on Linux against Searchlight's Core Spotlight API.
let package = Package(
    name: "ColleaguesIndexer",
    dependencies: [.package(name: "Searchlight", path: "../..")],
    targets: [
        .executableTarget(
            name: "ColleaguesIndexer",
            dependencies: [.product(name: "SearchlightSpotlight", package: "Searchlight")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
