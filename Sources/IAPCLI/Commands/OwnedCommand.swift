import IAPKit

/// `iapctl owned ID`: RMStore's `isPurchasedProductOfIdentifier:`, as an exit status.
enum OwnedCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "owned",
            summary: "Exit 0 when the ledger says the product is owned, 1 when not",
            discussion: "An unknown product exits 3.\n\n" + LedgerCommand.ledgerDiscussion,
            arguments: [ArgumentSpec("ID", help: "The product identifier")],
            examples: ["iapctl owned com.x.noads && echo unlocked", "iapctl owned com.x.coin42 --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = ProductID(i.positional("ID") ?? "")
        guard !id.rawValue.isEmpty else { throw i.usageError("empty product identifier; give one such as com.x.noads") }
        return try c.read { s throws(StoreError) in
            guard let product = s.catalog[id] else { throw .unknownProduct(id, closest: s.catalog.closest(to: id)) }
            let entry = s.state.ledger[id] ?? LedgerEntry()
            let owned = entry.isOwned(product.type)
            if c.json {
                c.printJSON { LedgerJSON.write(product, entry, into: &$0) }
            } else {
                let detail = product.type == .consumable ? "balance \(entry.balance)" : "\(entry.purchases) delivered"
                c.stdout.line("\(id): \(owned ? "owned" : "not owned") (\(detail))")
            }
            return owned ? .success : .declined
        }
    }
}
