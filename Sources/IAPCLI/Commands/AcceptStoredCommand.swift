import IAPKit

/// `iapctl accept-stored`: RMStore's `acceptStoredStorePayments`.
enum AcceptStoredCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "accept-stored",
            summary: "Add every stored promoted payment to the queue",
            discussion: """
                RMStore's acceptStoredStorePayments: each stored payment (oldest first) gets a storedPaymentAccepted \
                event and becomes a purchase, as buy makes one (Ask to Buy, faults and settings apply). A product \
                no longer sold in the storefront fails with SKError storeProductNotAvailable. Exit 1 when one \
                failed, else 5 when one is deferred, else 0 (also when nothing was stored).
                """,
            examples: ["iapctl accept-stored", "iapctl accept-stored --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let delivery = try c.write { s throws(StoreError) -> Delivery in
            let effects = try s.apply(.acceptStoredPayments)
            guard case .storedPaymentsAccepted(let payments) = effects.outcome else {
                return Delivery(ExitCode(effects.outcome), [])
            }
            let ts = payments.map(\.transaction)
            if c.json {
                c.printTransactions(ts)
            } else if ts.isEmpty {
                c.stdout.line("no stored payments to accept")
            } else {
                for t in ts { c.stdout.line(TransactionText.line(t)) }
            }
            return Delivery(ExitCode(effects.outcome), ts)
        }
        return try c.afterDelivery(delivery)
    }
}
