import IAPKit

/// `iapctl refund TXID [--reason 0|1]`: Xcode's "Refund Purchase".
enum RefundCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "refund",
            summary: "Refund a purchase: set its revocation date and take the entitlement away",
            discussion: """
                Sets revocationDate (now) and revocationReason (0 other, the default; 1 an issue in the app). \
                A refunded non-consumable is no longer owned or restored; refunding a subscription's current \
                period revokes the subscription; a non-renewing subscription loses the time that purchase had \
                left. Only purchased, charged transactions can be refunded (exit 4 otherwise).
                """,
            arguments: [ArgumentSpec("TXID", help: "The transaction to refund")],
            options: [.value("reason", "0|1", help: "0: other reason (default); 1: an issue in the app")],
            examples: ["iapctl refund 2000000000000001", "iapctl refund 2000000000000004 --reason 1 --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = try TransactionArgument.id(i.positional("TXID"), in: i)
        let reason = Int(try i.choice("reason", among: ["0", "1"]) ?? "0") ?? 0
        // The refund request sheet (beginRefundRequest) is how a customer asks; Xcode's refund
        // is approved at once. A refund-request fault fails the request.
        let product = try c.read { s throws(StoreError) in try s.transaction(id)?.productID }
        if product != nil, let failed = try FaultGate.fire(c, .refundRequest, product: product) { return failed }
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.refund(id, reason: reason))
            for e in effects.events {
                guard case .transactionRevoked(let t, let sub) = e.kind else { continue }
                if c.json {
                    c.printJSON { TransactionJSON.write(t, into: &$0) }
                } else {
                    c.stdout.line(
                        "refunded: " + TransactionText.line(t) + "  revoked \(t.revocationDate?.rfc3339 ?? "-") reason \(reason)")
                    if let sub { c.stdout.line(SubscriptionText.line(sub)) }
                }
            }
            return .success
        }
    }
}
