import IAPCrypto
import IAPKit

/// `iapctl sha256 TEXT`: DYFStoreKit's `DYFStore_supplySHA256`.
enum Sha256Command {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "sha256",
            summary: "Print the lowercase hex SHA-256 of a text (how --account makes user ids)",
            arguments: [ArgumentSpec("TEXT", help: "The text, hashed as UTF-8")],
            examples: ["iapctl sha256 'Handsome Jon'"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let digest = SHA256.hexDigest(Array((c.invocation.positional("TEXT") ?? "").utf8))
        if c.json {
            c.printJSON { w in
                w.beginObject()
                w.key("sha256")
                w.string(digest)
                w.endObject()
            }
        } else {
            c.stdout.line(digest)
        }
        return .success
    }
}
