import IAPKit

/// `iapctl subscriptions`: every subscription of the account and where it stands.
enum SubscriptionsCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "subscriptions",
            summary: "List subscriptions: status, expiry, auto-renew, renewal product, expiration intent",
            discussion: """
                Auto-renewable subscriptions (one per group, by original transaction id) with their status: \
                active, inGracePeriod, inBillingRetry, expired or revoked; then non-renewing subscriptions \
                (active until the time bought runs out). Below the table, the offer each subscription renews under \
                and the win-back offers an expired one may redeem (with --json: renewalOffer, renewalPrice, \
                eligibleWinBackOfferIds and offers; see docs/offers.md). ID narrows the list to one subscription: a product id \
                of its group, or its original transaction id.
                """,
            arguments: [ArgumentSpec("ID", help: "A subscription product id or original transaction id", optional: true)],
            examples: ["iapctl subscriptions", "iapctl subscriptions com.x.vip2 --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let word = c.invocation.positional("ID")
        return try c.read { s throws(StoreError) in
            var subs = s.state.subscriptions.values.sorted { $0.originalID < $1.originalID }
            var nonRenewing = s.state.nonRenewing.values.sorted { $0.firstID < $1.firstID }
            if let word {
                let ref = SubscriptionReference(parsing: word)
                if case .product(let id) = ref, s.catalog[id]?.type == .nonRenewing {
                    subs = []
                    nonRenewing = nonRenewing.filter { $0.productID == id }
                    guard !nonRenewing.isEmpty else {
                        throw .notFound("no purchase of the non-renewing subscription '\(id)' (buy it with 'iapctl buy \(id)')")
                    }
                } else {
                    let id = try s.machine.subscriptionID(ref)
                    subs = subs.filter { $0.originalID == id }
                    nonRenewing = []
                }
            }
            if c.json {
                c.printJSON { w in
                    w.beginArray()
                    for sub in subs {
                        let renewal = try? StoreTransactionSigner.renewalInfo(original: sub.originalID, session: s)
                        SubscriptionJSON.write(
                            sub, renewal: renewal, offers: s.state.offers.subscriptions[sub.originalID], into: &w)
                    }
                    for e in nonRenewing { SubscriptionJSON.write(e, clock: s.state.clock, into: &w) }
                    w.endArray()
                }
            } else if subs.isEmpty && nonRenewing.isEmpty {
                c.stdout.line("no subscriptions")
            } else {
                c.stdout.write(SubscriptionText.table(subs, nonRenewing, clock: s.state.clock))
                for sub in subs {
                    guard let renewal = try? StoreTransactionSigner.renewalInfo(original: sub.originalID, session: s) else {
                        continue
                    }
                    for line in SubscriptionText.offerLines(sub, renewal) { c.stdout.line(line) }
                }
            }
            return .success
        }
    }
}

/// What the subscription actions (`auto-renew`, `expire`, `renew`, `resolve`) share: naming
/// the subscription and reporting the result.
enum SubscriptionAction {
    static let idArgument = ArgumentSpec("ID", help: "A product id of the subscription's group, or its original transaction id")

    static func reference(_ c: CommandContext) throws -> SubscriptionReference {
        let word = c.invocation.positional("ID") ?? ""
        guard !word.isEmpty else {
            throw c.invocation.usageError(
                "empty subscription id; give a product id such as com.x.vip2 or an original transaction id")
        }
        return SubscriptionReference(parsing: word)
    }

    /// Applies `command` and prints the subscription after it, with the transactions it created
    /// or changed (`--json`: `{"subscription": ..., "transactions": [...]}`).
    static func run(_ c: CommandContext, _ command: (SubscriptionReference) -> Command) throws -> ExitCode {
        let ref = try reference(c)
        return try c.write { s throws(StoreError) in
            let id = try s.machine.subscriptionID(ref)
            let effects = try s.apply(command(ref))
            guard let sub = s.state.subscriptions[id] else { return .success }
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("subscription")
                    SubscriptionJSON.write(sub, into: &w)
                    w.key("transactions")
                    w.beginArray()
                    for t in effects.transactions { TransactionJSON.write(t, into: &w) }
                    w.endArray()
                    w.endObject()
                }
            } else {
                for e in effects.events where e.kind.transaction?.reason == .renewal {
                    if let t = e.kind.transaction { c.stdout.line("renewed: " + TransactionText.line(t)) }
                }
                c.stdout.line(SubscriptionText.line(sub))
            }
            return .success
        }
    }
}
