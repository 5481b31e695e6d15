import IAPKit

/// `iapctl consume ID`: RMStore's `consumeProductOfIdentifier:`.
enum ConsumeCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "consume",
            summary: "Use up units of a delivered consumable (never below zero)",
            discussion: """
                RMStore's consumeProductOfIdentifier:. Only consumables are consumed (exit 4 otherwise); consuming \
                more than the balance exits 4 and changes nothing; an unknown product exits 3. Event: \
                productConsumed.\n\n
                """ + LedgerCommand.ledgerDiscussion,
            arguments: [ArgumentSpec("ID", help: "The consumable's product identifier")],
            options: [.value("count", "n", help: "How many units, 1 to 1000000 (default: 1)")],
            examples: ["iapctl consume com.x.coin42", "iapctl consume com.x.coin42 --count 2 --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = ProductID(i.positional("ID") ?? "")
        guard !id.rawValue.isEmpty else { throw i.usageError("empty product identifier; give one such as com.x.coin42") }
        let count = try i.int("count", in: 1...1_000_000) ?? 1
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.consume(id, count: count))
            guard let product = s.catalog[id] else { return .success }
            let entry = s.state.ledger[id] ?? LedgerEntry()
            if c.json {
                c.printJSON { LedgerJSON.write(product, entry, into: &$0) }
            } else {
                if case .consumed(let product, let count, let balance) = effects.outcome {
                    c.stdout.line(EventText.consumed(product, count: count, balance: balance))
                }
            }
            return .success
        }
    }
}
