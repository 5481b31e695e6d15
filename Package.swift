// swift-tools-version:6.0
import PackageDescription

// The release link of iapctl lays its functions out in the order of Sources/iapctl/iapctl.order
// (gold, swiftc's linker here: a list of input sections, `.text.<symbol>`); see "Start-up again"
// below. Its segments are aligned to 2 MiB (`max-page-size`), and gold writes the file with one
// `write` instead of through a shared mapping (`--no-mmap-output-file`; the bytes are the same):
// the page cache then holds the new binary in large folios, and Linux maps a 2 MiB folio of code
// that a 2 MiB-aligned segment covers with one page-table entry. A process faults in its code
// once per 2 MiB instead of once per 64 KiB window: `buy` 310 → 263 page faults, `--version`
// 249 → 225; `buy` ÷ `--version` 1.32–1.34 → 1.29 in `iapbench` (issue 12; a binary written
// through a mapping, or 4 KiB at a time, runs `--version` ~0.1 ms slower here). On a kernel or
// file system without large folios the alignment only pads the file (~2 MB).
let functionOrder: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-Xlinker", "--section-ordering-file=\(Context.packageDirectory)/Sources/iapctl/iapctl.order",
            "-Xlinker", "--no-mmap-output-file",
            "-Xlinker", "-z", "-Xlinker", "max-page-size=0x200000",
        ],
        .when(configuration: .release))
]

/// iapctl: an in-app purchase simulator and inspector. No package dependencies: Foundation and
/// Glibc only. `IAPKit` is the deterministic core, `IAPRuntime` what runs it (threads, I/O, the
/// server, delivery, scenarios), `IAPCLI` the thin command-line layer, `iapctl` the few-line
/// executable. The built-in catalog (`Fixtures/catalog.json`) is embedded into IAPKit
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
        .plugin(
            name: "EmbedUIAssets",
            capability: .buildTool(),
            dependencies: ["EmbedTool"],
            path: "Plugins/EmbedUIAssets"
        ),
        .target(name: "IAPTime", path: "Sources/IAPTime"),
        .target(name: "IAPCrypto", dependencies: ["IAPTime"], path: "Sources/IAPCrypto"),
        .target(name: "IAPJSON", path: "Sources/IAPJSON"),
        .target(name: "IAPHTTP", dependencies: ["IAPJSON"], path: "Sources/IAPHTTP"),
        .target(
            name: "IAPKit",
            dependencies: ["IAPTime", "IAPCrypto", "IAPJSON", "IAPHTTP"],
            path: "Sources/IAPKit",
            plugins: ["EmbedFixtures"]
        ),
        // The runtime: what runs beside the deterministic core without Foundation, so the shipped
        // iapctl links none: threads, locks, child processes, and what drives the core with them:
        // RMStore's delivery pipeline and the content downloader (Delivery/), the HTTP server,
        // its store readers and group-commit writer and the webhook (Server/), and the scenario
        // language and runner (Scenario/), which runs its lines through a ScenarioCommandLine the
        // CLI provides.
        .target(name: "IAPRuntime", dependencies: ["IAPKit", "IAPJSON", "IAPHTTP"], path: "Sources/IAPRuntime"),
        // The Transaction Manager page (HTML, CSS, JavaScript in Sources/IAPUIAssets/Assets),
        // embedded by the EmbedUIAssets plugin; `iapctl serve` answers GET / with it.
        .target(
            name: "IAPUIAssets", dependencies: ["IAPCrypto"], path: "Sources/IAPUIAssets", exclude: ["Assets"],
            plugins: ["EmbedUIAssets"]),
        // The Transaction Manager's side of the server: the page's routes, its JSON contract
        // (docs/ui.md), the event stream, and the action whitelist run through the CLI.
        .target(
            name: "IAPUI", dependencies: ["IAPKit", "IAPRuntime", "IAPTime", "IAPCrypto", "IAPJSON", "IAPHTTP", "IAPUIAssets"],
            path: "Sources/IAPUI"),
        .target(
            name: "IAPCLI", dependencies: ["IAPKit", "IAPRuntime", "IAPTime", "IAPCrypto", "IAPJSON", "IAPHTTP", "IAPUI"],
            path: "Sources/IAPCLI"),
        .executableTarget(
            name: "iapctl", dependencies: ["IAPCLI"], path: "Sources/iapctl", exclude: ["iapctl.order"],
            linkerSettings: functionOrder),
        .executableTarget(
            name: "iapbench", dependencies: ["IAPKit", "IAPCLI", "IAPTime", "IAPCrypto", "IAPJSON", "IAPHTTP"],
            path: "Sources/iapbench"),
        .testTarget(
            name: "IAPKitTests", dependencies: ["IAPKit", "IAPTime", "IAPCrypto", "IAPJSON", "IAPHTTP"], path: "Tests/IAPKitTests"
        ),
        .testTarget(
            name: "IAPCLITests",
            dependencies: [
                "IAPCLI", "IAPKit", "IAPRuntime", "IAPTime", "IAPCrypto", "IAPJSON", "IAPHTTP", "IAPUIAssets", "IAPUI", "iapctl",
            ],
            path: "Tests/IAPCLITests"
        ),
    ]
)

// Start-up (issue 12: `buy` against `--version`). By default the compiler refers to a generic
// type's metadata by its mangled name, which the runtime demangles on first use, looking up each
// protocol conformance the type's parameters need by scanning every conformance record of this
// large binary: some ten thousand instructions a type, and a `buy` meets about a hundred new
// ones (arrays, dictionaries and optionals of the model's types). With this flag the compiler
// calls the types' metadata accessors directly instead, witness tables passed in: a `buy` runs
// about 0.66 M fewer instructions (4.82 M to 4.16 M, callgrind), `--version` the same.
// `-disable-type-layout` lowers copies and destroys of our larger structs and optionals field
// by field, as Swift long did, where type-layout lowering calls the type's value witnesses
// through its runtime metadata (an outlined copy of `TransactionError?` instantiated
// `Optional<TransactionError>`): a `buy` 3.117 M → 3.074 M instructions, `--version` the same.
let directMetadata: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors", "-Xfrontend", "-disable-type-layout"])
]
for target in package.targets where (target.type == .regular || target.type == .executable) && target.name != "EmbedTool" {
    target.swiftSettings = (target.swiftSettings ?? []) + directMetadata
}

// Start-up again (issue 12): the code a command runs, gathered into a few pages. A release build
// emits each function into its own section, and the linker lays out together, in the order of
// Sources/iapctl/iapctl.order, the functions that `--version`, `buy`, `finish` and the other
// everyday commands run. A process faults its code in by 64 KB windows of the file, and without
// the order a `buy`'s half a megabyte of code lay across 90 of the binary's 150 windows (30 with
// it). scripts/order-file.sh regenerates the file from a callgrind profile of those commands; a
// stale entry costs nothing but its place (gold ignores sections it does not find). Debug builds,
// the tests and the fuzz build are untouched. Adding the flag to an existing .build needs the
// modules' objects removed: with -num-threads the compiler does not rewrite an object whose IR
// did not change.
let functionSections: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
for target in package.targets where (target.type == .regular || target.type == .executable) && target.name != "EmbedTool" {
    target.swiftSettings = (target.swiftSettings ?? []) + functionSections
}

// Fuzzing (docs/fuzzing.md). Only when IAPCTL_FUZZ=1 is set while the manifest is read, so plain
// `swift build` and `swift test` never see these targets:
//   IAPCTL_FUZZ=1 swift build --build-path .build/fuzz -Xswiftc -sanitize=fuzzer,address
// builds one libFuzzer executable `fuzz-<name>` from Fuzz/Targets/<name> for each name below.
// `-Xswiftc` reaches every executable, the EmbedTool build tool included, so libFuzzer's runtime
// (its own main() and a call to LLVMFuzzerTestOneInput) is linked into all of them: each keeps its
// own main (--allow-multiple-definition; SwiftPM's `--defsym main=` comes first) and links
// FuzzDriver, which defines LLVMFuzzerTestOneInput and starts libFuzzer from a fuzz target's main.
let fuzzTargets = ["arguments", "catalog", "json", "record", "scenario", "storekit", "http", "jws", "receipt", "pem"]
if Context.environment["IAPCTL_FUZZ"] == "1" {
    let fuzzLinking: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--allow-multiple-definition"])]
    for target in package.targets where target.type == .executable {
        target.dependencies.append("FuzzDriver")
        target.linkerSettings = (target.linkerSettings ?? []) + fuzzLinking
    }
    package.targets += [
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/Support/CLibFuzzer"),
        .target(name: "FuzzDriver", dependencies: ["CLibFuzzer"], path: "Fuzz/Support/FuzzDriver"),
    ]
    package.targets += fuzzTargets.map { name in
        .executableTarget(
            name: "fuzz-\(name)", dependencies: ["FuzzDriver", "IAPCLI", "IAPKit", "IAPHTTP", "IAPJSON", "IAPCrypto"],
            path: "Fuzz/Targets/\(name)",
            linkerSettings: fuzzLinking)
    }
}
