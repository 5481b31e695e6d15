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
            options: [MemberOption.spec],
            examples: ["iapctl subscriptions", "iapctl subscriptions com.x.vip2 --json", "iapctl subscriptions --member alex"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let word = c.invocation.positional("ID")
        // Product.SubscriptionInfo.status: a subscription-status fault fails it.
        if let failed = try FaultGate.fire(c, .subscriptionStatus, product: word.map(ProductID.init)) { return failed }
        return try c.read { s throws(StoreError) in
            if let member = try MemberOption.member(c, in: s.state) {
                return try memberSubscriptions(member, word: word, c, s)
            }
            var subs = s.state.subscriptions.values.sorted { $0.originalID < $1.originalID }
            var nonRenewing = s.state.nonRenewing.values.sorted { $0.firstID < $1.firstID }
            if let word {
                let ref = SubscriptionReference(parsing: word)
                if case .product(let id) = ref, s.catalog[id]?.type == .nonRenewing {
                    subs = []
                    nonRenewing = nonRenewing.filter { $0.productID == id }
                    guard !nonRenewing.isEmpty else {
                        throw .missing(.noNonRenewingPurchase(id))
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

extension SubscriptionsCommand {
    /// One subscription of a family member: a shared one (FAMILY_SHARED, following the
    /// purchaser's subscription `purchaser`) or its own (PURCHASED, `purchaser` nil).
    struct MemberRow {
        var latest: Transaction
        var purchaser: TransactionID?
        var status: String
    }

    /// `subscriptions --member NAME`: the family member's shared subscriptions, each its own
    /// original transaction id, following the purchaser's subscription (status, expiry), then its
    /// own subscriptions (`buy --member`: one period, auto-renew off, status from its dates). Apple:
    /// the status "can have more than one subscription status if your subscription supports
    /// Family Sharing" (StoreKit, Product.SubscriptionInfo.status), so both are listed.
    static func memberSubscriptions(_ member: String, word: String?, _ c: CommandContext, _ s: StoreSession) throws(StoreError)
        -> ExitCode
    {
        let clock = s.state.clock
        var rows: [MemberRow] = s.state.familyGroup.shares.filter {
            $0.member == member && $0.latest.productType == .autoRenewable
        }
        .map { share in
            var status = "expired"
            if let sub = s.state.subscriptions[share.purchaserOriginalID] {
                status = sub.status.name
                if let expires = share.latest.expiresDate, expires <= clock, case .active = sub.status { status = "expired" }
            }
            return MemberRow(latest: share.latest, purchaser: share.purchaserOriginalID, status: status)
        }
        var own: [TransactionID: Transaction] = [:]
        try s.forEachTransaction(TransactionFilter(member: member)) { t throws(StoreError) in
            guard t.isMemberPurchase, t.productType == .autoRenewable, !t.isDeleted else { return }
            if let known = own[t.originalID], known.id > t.id { return }
            own[t.originalID] = t
        }
        for t in own.values.sorted(by: { $0.originalID < $1.originalID }) {
            let status =
                t.revocationDate != nil ? "revoked" : (t.expiresDate.map { $0 <= clock } ?? true) ? "expired" : "active"
            rows.append(MemberRow(latest: t, purchaser: nil, status: status))
        }
        if let word {
            rows = rows.filter {
                $0.latest.productID.rawValue == word || $0.latest.originalID.description == word
                    || $0.latest.subscriptionGroup == s.catalog[ProductID(word)]?.subscriptionGroup
            }
            guard !rows.isEmpty else {
                throw .missing(.noSharedSubscription(member: member, word))
            }
        }
        if c.json {
            c.printJSON { w in
                w.beginArray()
                for row in rows {
                    w.beginObject()
                    w.key("familyMember")
                    w.string(member)
                    w.key("inAppOwnershipType")
                    w.string(row.latest.inAppOwnershipType)
                    w.key("originalTransactionIdentifier")
                    w.decimalString(row.latest.originalID.rawValue)
                    w.key("productIdentifier")
                    w.string(row.latest.productID.rawValue)
                    w.key("status")
                    w.string(row.status)
                    w.key("expiresDate")
                    w.optionalString(row.latest.expiresDate?.rfc3339)
                    w.key("purchaserOriginalTransactionIdentifier")
                    if let purchaser = row.purchaser { w.decimalString(purchaser.rawValue) } else { w.null() }
                    w.key("latestTransaction")
                    TransactionJSON.write(row.latest, into: &w)
                    w.endObject()
                }
                w.endArray()
            }
        } else if rows.isEmpty {
            c.stdout.line("\(member) has no shared subscriptions")
        } else {
            var table = TextTable(["ORIGINAL", "PRODUCT", "STATUS", "EXPIRES", "PURCHASER", "LATEST"])
            for row in rows {
                table.add([
                    row.latest.originalID.description, row.latest.productID.rawValue, row.status,
                    row.latest.expiresDate?.rfc3339 ?? "-", row.purchaser?.description ?? "own", row.latest.id.description,
                ])
            }
            c.stdout.write(table.rendered)
        }
        return .success
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
            guard let sub = s.state.subscriptions[id] else { return ExitCode(effects.outcome) }
            let renewals: [Transaction]
            if case .subscriptionChanged(_, let made) = effects.outcome { renewals = made } else { renewals = [] }
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
                for t in renewals { c.stdout.line("renewed: " + TransactionText.line(t)) }
                c.stdout.line(SubscriptionText.line(sub))
            }
            return ExitCode(effects.outcome)
        }
    }
}
