import IAPKit

/// `iapctl clear --yes`: Xcode's clearTransactions.
enum ClearCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "clear",
            summary: "Delete every transaction: empty queue, nothing owned, no subscriptions (needs --yes)",
            discussion: "Settings, the clock and the event log stay. It cannot be undone, hence --yes.",
            options: [.flag("yes", help: "Confirm: clearing cannot be undone")],
            examples: ["iapctl clear --yes"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        guard i.flag("yes") else {
            throw i.usageError("clearing deletes every transaction and cannot be undone; add --yes to confirm")
        }
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.clearTransactions)
            let count = effects.transactions.count
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("cleared")
                    w.int(count)
                    w.endObject()
                }
            } else {
                c.stdout.line("cleared \(count) transaction\(count == 1 ? "" : "s")")
            }
            return .success
        }
    }
}
