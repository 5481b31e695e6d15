import IAPKit

/// `iapctl resolve ID`: Xcode's "Resolve Billing Issue" for a subscription in billing retry or
/// its grace period.
///
/// `ResolveCommand` calls this half when the word names a subscription (a product id, or the
/// original transaction id of a subscription) rather than an interrupted purchase.
enum ResolveBillingCommand {
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
