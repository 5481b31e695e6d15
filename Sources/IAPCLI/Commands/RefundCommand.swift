import IAPJSON
import IAPKit

/// `iapctl refund TXID [--reason 0|1]`: Xcode's "Refund Purchase", approved at once; and the
/// refund request flow Xcode cannot show (issue 15): `refund request`, `approve`, `decline`,
/// `reverse`.
enum RefundCommand {
    static let group = CommandSpec(
        name: "refund",
        summary: "Refund a purchase now, or walk a refund request: request, approve, decline, reverse",
        discussion: """
            'iapctl refund TXID' is Xcode's Refund Purchase: approved at once (REFUND). A refund request \
            goes as the App Store's does: 'refund request TXID' opens it (CONSUMPTION_REQUEST for a \
            consumable, a non-renewing or an auto-renewable subscription), the consumption information \
            the backend sends through the App Store Server API is attached to it, then 'refund approve \
            TXID [--percent N]' (REFUND, revocationType REFUND_FULL or REFUND_PRORATED) or 'refund \
            decline TXID' (REFUND_DECLINED, nothing revoked). 'refund reverse TXID' takes a refund back \
            (REFUND_REVERSED): the entitlement returns. Exit 3 for an unknown transaction, 4 when the \
            step does not fit (no open request, not refunded, not charged), 64 for bad input. See \
            docs/subscriptions.md, "Refund requests".
            """,
        subcommands: [now.spec, request.spec, approve.spec, decline.spec, reverse.spec],
        defaultSubcommand: "now"
    )

    static let children = [now, request, approve, decline, reverse]

    static let now = CommandDefinition(
        CommandSpec(
            name: "now",
            summary: "Refund a purchase at once ('iapctl refund TXID' for short): revocation date set, entitlement gone",
            discussion: """
                Sets revocationDate (now) and revocationReason (0 other, the default; 1 an issue in the app). \
                A refunded non-consumable is no longer owned or restored; refunding a subscription's current \
                period revokes the subscription; a non-renewing subscription loses the time that purchase had \
                left. Only purchased, charged transactions can be refunded (exit 4 otherwise).
                """,
            arguments: [ArgumentSpec("TXID", help: "The transaction to refund")],
            options: [.value("reason", "0|1", help: "0: other reason (default); 1: an issue in the app")],
            examples: ["iapctl refund 2000000000000001", "iapctl refund 2000000000000004 --reason 1 --json"]
        ), run: runNow)

    static let request = CommandDefinition(
        CommandSpec(
            name: "request",
            summary: "The customer asks for a refund: a request opens (CONSUMPTION_REQUEST where Apple sends one)",
            discussion: """
                The transaction must be refundable (purchased, charged, not refunded). Apple sends \
                CONSUMPTION_REQUEST for consumables, non-renewing and auto-renewable subscriptions (not for \
                non-consumables); answer it with Send Consumption Information (serve's \
                PUT /inApps/v2/transactions/consumption/{id}), which the request then shows.
                """,
            arguments: [ArgumentSpec("TXID", help: "The transaction the customer wants refunded")],
            options: [
                .value(
                    "reason", "TEXT",
                    help:
                        "The customer's reason; Apple's UNINTENDED_PURCHASE, FULFILLMENT_ISSUE, UNSATISFIED_WITH_PURCHASE, LEGAL, OTHER go in the notification's consumptionRequestReason"
                )
            ],
            examples: ["iapctl refund request 2000000000000001 --reason 'did not work'"]
        ), run: runRequest)

    static let approve = CommandDefinition(
        CommandSpec(
            name: "approve",
            summary: "The App Store approves the open request: REFUND with revocationType and revocationPercentage",
            discussion: """
                --percent 100 (the default) is REFUND_FULL; less is REFUND_PRORATED. revocationPercentage \
                is in milliunits, as Apple's: 50 percent is 50000. Exit 4 without an open request.
                """,
            arguments: [ArgumentSpec("TXID", help: "The transaction of the open request")],
            options: [.value("percent", "N", help: "How much is refunded, 1 to 100 (default 100)")],
            examples: ["iapctl refund approve 2000000000000001", "iapctl refund approve 2000000000000001 --percent 40 --json"]
        ), run: runApprove)

    static let decline = CommandDefinition(
        CommandSpec(
            name: "decline",
            summary: "The App Store declines the open request: REFUND_DECLINED, nothing revoked",
            arguments: [ArgumentSpec("TXID", help: "The transaction of the open request")],
            examples: ["iapctl refund decline 2000000000000001"]
        ), run: runDecline)

    static let reverse = CommandDefinition(
        CommandSpec(
            name: "reverse",
            summary: "Take a refund back after a dispute: REFUND_REVERSED, the entitlement returns",
            discussion: """
                Works on any refunded transaction (an approved request or 'refund TXID'): the revocation \
                fields are cleared, a non-consumable is owned again, the subscription the refund revoked is \
                active again (expired if its period is over), a non-renewing subscription gets its time back. \
                Get Refund History no longer lists it.
                """,
            arguments: [ArgumentSpec("TXID", help: "The refunded transaction")],
            examples: ["iapctl refund reverse 2000000000000001"]
        ), run: runReverse)

    static func runNow(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = try TransactionArgument.id(i.positional("TXID"), in: i)
        let reason = Int(try i.choice("reason", among: ["0", "1"]) ?? "0") ?? 0
        // The refund request sheet (beginRefundRequest) is how a customer asks; Xcode's refund
        // is approved at once. A refund-request fault fails the request.
        let product = try c.read { s throws(StoreError) in try s.transaction(id)?.productID }
        if product != nil, let failed = try FaultGate.fire(c, .refundRequest, product: product) { return failed }
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.refund(id, reason: reason))
            guard case .life(.refund(let t, _, let sub, _, _)) = effects.outcome else { return ExitCode(effects.outcome) }
            if c.json {
                c.printJSON { TransactionJSON.write(t, into: &$0) }
            } else {
                c.stdout.line(
                    "refunded: " + TransactionText.line(t) + "  revoked \(t.revocationDate?.rfc3339 ?? "-") reason \(reason)")
                if let sub { c.stdout.line(SubscriptionText.line(sub)) }
            }
            return ExitCode(effects.outcome)
        }
    }

    static func runRequest(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = try TransactionArgument.id(i.positional("TXID"), in: i)
        let reason = i.value("reason")
        if let reason, reason.isEmpty || reason.contains("\n") {
            throw i.usageError("bad --reason; give one line of text, e.g. --reason 'did not work'")
        }
        return try step(.request(id, reason: reason), c)
    }

    static func runApprove(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = try TransactionArgument.id(i.positional("TXID"), in: i)
        let percent = try i.int("percent", in: RefundRequest.percentRange) ?? 100
        return try step(.approve(id, percent: percent), c)
    }

    static func runDecline(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        return try step(.decline(try TransactionArgument.id(i.positional("TXID"), in: i)), c)
    }

    static func runReverse(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        return try step(.reverse(try TransactionArgument.id(i.positional("TXID"), in: i)), c)
    }

    /// Applies one step and prints the request (with the consumption information the backend
    /// sent for the transaction), the transaction, and the subscription it changed.
    private static func step(_ step: RefundStep, _ c: CommandContext) throws -> ExitCode {
        try c.write { s throws(StoreError) in
            let effects = try s.apply(.refundRequest(step))
            guard case .life(.refund(let t, let q, let sub, let notification, let family)) = effects.outcome else {
                return ExitCode(effects.outcome)
            }
            let consumption = s.state.serverAPIRecords?[t.id]?.consumption ?? []
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("refundRequest")
                    if let q { LifeJSON.write(q, consumption: consumption, into: &w) } else { w.null() }
                    w.key("transaction")
                    TransactionJSON.write(t, into: &w)
                    w.key("subscription")
                    if let sub { SubscriptionJSON.write(sub, into: &w) } else { w.null() }
                    w.key("notification")
                    ServerNotificationJSON.write(notification, into: &w)
                    w.endObject()
                }
            } else {
                c.stdout.line(LifeText.refundLine(t, q, consumption: consumption.count))
                c.stdout.line(TransactionText.line(t))
                if let sub { c.stdout.line(SubscriptionText.line(sub)) }
                if let n = notification { c.stdout.line("notification: \(ServerNotificationJSON.text(n))") }
                // What the family's members got back or lost with it (docs/family.md).
                for change in family { c.stdout.line(EventText.family(change)) }
            }
            return ExitCode(effects.outcome)
        }
    }
}
