import IAPKit

/// `iapctl ledger`: RMStore's keychain persistence, per product.
enum LedgerCommand {
    static let ledgerDiscussion = """
        The ledger is RMStore's keychain persistence (RMStoreKeychainPersistence): a product is counted when \
        its purchased or restored transaction is delivered, that is reported finished ('iapctl finish'; with \
        finish-after-downloads, once its downloads ended). Failed transactions, and those reported failed \
        because a download did not finish, count nothing. purchases counts delivered transactions; the \
        balance of a consumable counts units (quantity), less what was consumed (RMStore counts one per \
        transaction). Owned: a consumable with a balance above 0, any other product delivered once.
        """

    static let definition = CommandDefinition(
        CommandSpec(
            name: "ledger",
            summary: "Show what the app delivered per product: purchases, consumable balance, owned",
            discussion: ledgerDiscussion,
            examples: ["iapctl ledger", "iapctl ledger --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        try c.read { s throws(StoreError) in
            let entries = s.catalog.products.compactMap { p in s.state.ledger[p.id].map { (p, $0) } }
            if c.json {
                c.printJSON { w in
                    w.beginArray()
                    for (p, entry) in entries { LedgerJSON.write(p, entry, into: &w) }
                    w.endArray()
                }
            } else if entries.isEmpty {
                c.stdout.line("the ledger is empty: nothing delivered yet (transactions count when finished)")
            } else {
                var table = TextTable(["PRODUCT", "TYPE", "PURCHASES", "BALANCE", "OWNED"])
                for (p, entry) in entries {
                    table.add([
                        p.id.rawValue, p.type.rawValue, String(entry.purchases),
                        p.type == .consumable ? String(entry.balance) : "-",
                        entry.isOwned(p.type) ? "yes" : "no",
                    ])
                }
                c.stdout.write(table.rendered)
            }
            return .success
        }
    }
}
