import IAPKit

/// `iapctl stored-payments`: store-initiated payments the app deferred.
enum StoredPaymentsCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "stored-payments",
            summary: "List the promoted purchases kept for later (store-payments defer)",
            discussion: "RMStore's stored store payments, oldest first. 'iapctl accept-stored' adds them all to the queue.",
            examples: ["iapctl stored-payments", "iapctl stored-payments --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        try c.read { s throws(StoreError) in
            let payments = s.state.storedPayments
            if c.json {
                c.printJSON { w in
                    w.beginArray()
                    for p in payments { StoredPaymentJSON.write(p, into: &w) }
                    w.endArray()
                }
            } else if payments.isEmpty {
                c.stdout.line("no stored payments")
            } else {
                var table = TextTable(["PRODUCT", "QTY", "DATE", "USER"])
                for p in payments {
                    table.add([
                        p.productID.rawValue, String(p.quantity), p.date.rfc3339,
                        p.userID.map { String($0.rawValue.prefix(16)) } ?? "-",
                    ])
                }
                c.stdout.write(table.rendered)
            }
            return .success
        }
    }
}
