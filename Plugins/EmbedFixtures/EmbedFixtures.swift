import Foundation
import PackagePlugin

/// Embeds the files IAPKit ships inside the binary (the built-in catalog and its hosted content)
/// as a generated Swift source, so `Fixtures/` stays the one source of truth and the installed
/// `iapctl` needs no resource bundle beside it.
@main
struct EmbedFixtures: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let fixtures = context.package.directoryURL.appending(path: "Fixtures")
        let manifest = fixtures.appending(path: "embedded.txt")
        let listed = try String(contentsOf: manifest, encoding: .utf8)
            .split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let inputs = listed.map { fixtures.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFixtures.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) fixture files",
                executable: try context.tool(named: "EmbedTool").url,
                arguments: [output.path(), fixtures.path()] + listed,
                inputFiles: [manifest] + inputs,
                outputFiles: [output]
            )
        ]
    }
}
