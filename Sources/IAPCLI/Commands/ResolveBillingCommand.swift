import IAPKit

/// `iapctl resolve ID`: Xcode's "Resolve Billing Issue" for a subscription in billing retry or
/// its grace period.
///
/// Issue 3 also has a `resolve TXID` (interrupted purchases). The two merge into one command:
/// `runBilling` is this half, to be called when the word names a subscription (a product id, or
/// the original transaction id of a subscription).
enum ResolveBillingCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "resolve",
            summary: "Resolve a subscription's billing issue with a successful renewal",
            discussion: """
                For a subscription in its grace period or in billing retry: the renewal is charged now (a new \
                purchased transaction, DID_RENEW with BILLING_RECOVERY). Recovered in the grace period, the \
                subscription keeps its renewal dates; from billing retry a new period starts now. With \
                billing-issues still on, the next renewal fails again.
                """,
            arguments: [SubscriptionAction.idArgument],
            examples: ["iapctl resolve com.x.vip2"]
        ), run: runBilling)

    static func runBilling(_ c: CommandContext) throws -> ExitCode {
        let code = try SubscriptionAction.run(c) { .resolveBillingIssue($0) }
        try c.read { s throws(StoreError) in
            if s.state.settings.billingIssues && !c.json {
                c.stdout.line(
                    "note: billing-issues is still on, so the next renewal will fail again ('iapctl config set billing-issues false')"
                )
            }
        }
        return code
    }
}
