import Foundation
import PackagePlugin

/// Embeds the Transaction Manager page (every file in `Sources/<target>/Assets/`: HTML, CSS,
/// JavaScript, the icon) into `IAPUIAssets` as a generated Swift source, exactly as
/// `EmbedFixtures` embeds `Fixtures/`: the files in `Assets/` stay the one source of truth, and
/// `iapctl serve` answers `GET /` from its own bytes, with nothing to install beside it and
/// nothing fetched from elsewhere. `EmbedTool` rewrites the output only when its content
/// changes, so a build with no change to an asset recompiles nothing.
@main
struct EmbedUIAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // `Target.directoryURL` needs tools version 6.1; the package is 6.0, so name the folder.
        let assets = context.package.directoryURL.appending(path: "Sources/\(target.name)/Assets")
        let names = try FileManager.default.contentsOfDirectory(atPath: assets.path())
            .filter { !$0.hasPrefix(".") }
            .sorted()
        let inputs = names.map { assets.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedUIAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(names.count) UI assets",
                executable: try context.tool(named: "EmbedTool").url,
                arguments: ["--enum", "EmbeddedUIAssets", output.path(), assets.path()] + names,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
