// swift-tools-version:6.0
import PackageDescription

/// iapctl: an in-app purchase simulator and inspector. No package dependencies: Foundation and
/// Glibc only. `IAPKit` is the deterministic core, `IAPCLI` the thin command-line layer, `iapctl`
/// the few-line executable. The built-in catalog (`Fixtures/catalog.json`) is embedded into IAPKit
/// at build time by the `EmbedFixtures` plugin, so that one file stays the single source of truth.
let package = Package(
    name: "iapctl",
    products: [
        .library(name: "IAPKit", targets: ["IAPKit"]),
        .executable(name: "iapctl", targets: ["iapctl"]),
    ],
    targets: [
        .executableTarget(name: "EmbedTool", path: "Sources/EmbedTool"),
        .plugin(
            name: "EmbedFixtures",
            capability: .buildTool(),
            dependencies: ["EmbedTool"],
            path: "Plugins/EmbedFixtures"
        ),
        .target(
            name: "IAPKit",
            path: "Sources/IAPKit",
            plugins: ["EmbedFixtures"]
        ),
        .target(name: "IAPCLI", dependencies: ["IAPKit"], path: "Sources/IAPCLI"),
        .executableTarget(name: "iapctl", dependencies: ["IAPCLI"], path: "Sources/iapctl"),
        .executableTarget(name: "iapbench", dependencies: ["IAPKit", "IAPCLI"], path: "Sources/iapbench"),
        .testTarget(name: "IAPKitTests", dependencies: ["IAPKit"], path: "Tests/IAPKitTests"),
        .testTarget(
            name: "IAPCLITests",
            dependencies: ["IAPCLI", "IAPKit", "iapctl"],
            path: "Tests/IAPCLITests"
        ),
    ]
)
