import IAPKit
import IAPRuntime

/// `iapctl notifications send TYPE [--subtype S] [TXID]`: one App Store Server Notification V2
/// now, the way a backend developer replays a case. Where iapctl models the cause it applies that
/// change (the store then shows it: auto-renew toggled, subscription expired, renewed,
/// refunded, extended); otherwise it writes the notification alone (a `notificationSent` event).
/// `serve --webhook` posts it like any other (docs/events.md has the table).
enum NotificationsSendCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "send",
            summary: "Make one App Store Server Notification now, through its cause where iapctl models one",
            discussion: """
                TYPE is Apple's notificationType (DID_RENEW, REFUND, TEST, ...), --subtype its subtype. Through their \
                cause: DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_ENABLED/AUTO_RENEW_DISABLED (auto-renew on/off), EXPIRED \
                VOLUNTARY (expire), DID_RENEW (renew), REFUND (refund, reason 0), RENEWAL_EXTENDED (the renewal date \
                extended 1 day, reason 0), RENEWAL_EXTENSION SUMMARY (every active subscriber of TXID's product \
                extended 1 day; FAILURE for each it cannot extend), TEST (a test notification), CONSUMPTION_REQUEST \
                (refund request), REFUND_DECLINED (refund decline of the open request), REFUND_REVERSED (refund \
                reverse), PRICE_INCREASE ACCEPTED (price-consent accept of a pending increase), REVOKE (a refund of \
                the family's shared purchase). Every other type and \
                subtype is signed and sent as it is, about TXID when given, changing nothing else (docs/events.md). \
                Prints the notifications made, as 'iapctl notifications' does; 'iapctl serve --webhook' posts them.
                """,
            arguments: [
                ArgumentSpec("TYPE", help: "Apple's notificationType, such as DID_RENEW"),
                ArgumentSpec("TXID", help: "The transaction it is about (any of the subscription's)", optional: true),
            ],
            options: [.value("subtype", "S", help: "Apple's subtype, such as AUTO_RENEW_DISABLED")],
            examples: [
                "iapctl notifications send DID_CHANGE_RENEWAL_STATUS --subtype AUTO_RENEW_DISABLED 2000000000000001",
                "iapctl notifications send TEST", "iapctl notifications send METADATA_UPDATE 2000000000000001 --json",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let notification = try requested(i)
        let cause = NotificationTypes.cause(notification)
        var id: TransactionID?
        if let word = i.positional("TXID") {
            guard let parsed = TransactionID(parsing: word) else {
                throw i.usageError("'\(word)' is not a transaction id; give a decimal id such as 2000000000000001")
            }
            id = parsed
        }
        if cause == .test, id != nil { throw i.usageError("TEST is about no transaction; leave TXID out") }
        if cause != .test, cause != .standalone, id == nil {
            throw i.usageError(
                "\(describe(notification)) comes from a change to a purchase; give TXID, a transaction of it (see 'iapctl dump')")
        }
        let before = try c.write { s throws(StoreError) -> UInt64 in
            let first = s.state.nextEventSeq
            _ = try s.apply(try command(for: cause, notification, id: id, in: s))
            return first
        }
        return try c.read { s throws(StoreError) in
            let made = try NotificationLog.notifications(
                since: before - 1, in: s, signer: try StoreTransactionSigner(session: s))
            NotificationsCommand.print(made, c)
            return .success
        }
    }

    /// TYPE and --subtype, checked against Apple's table.
    static func requested(_ i: ParsedInvocation) throws -> ServerNotification {
        let type = i.positional("TYPE") ?? ""
        guard let entry = NotificationTypes.entry(type) else {
            let hint = DidYouMean.suggestion(for: type, among: NotificationTypes.all.map(\.type)).map { "; did you mean \($0)?" }
            throw i.usageError(
                "unknown notification type '\(type)'\(hint ?? "; see docs/events.md for Apple's types")")
        }
        let subtype = i.value("subtype")
        if let subtype {
            guard entry.subtypes.contains(subtype) else {
                let known = NotificationTypes.allSubtypes.contains(subtype)
                let near = DidYouMean.suggestion(for: subtype, among: entry.subtypes)
                let choices = entry.subtypes.isEmpty ? "it has none" : "use " + entry.subtypes.joined(separator: " or ")
                if known {
                    throw i.usageError("\(type) has no subtype \(subtype); \(choices)")
                }
                throw i.usageError(
                    "unknown subtype '\(subtype)' for \(type)\(near.map { "; did you mean \($0)?" } ?? "; \(choices)")")
            }
        } else if !entry.bare {
            throw i.usageError("\(type) needs --subtype: \(entry.subtypes.joined(separator: " or "))")
        }
        return ServerNotification(type, subtype)
    }

    static func describe(_ n: ServerNotification) -> String { n.type + (n.subtype.map { " " + $0 } ?? "") }

    /// The command that makes the notification.
    static func command(
        for cause: NotificationTypes.Cause, _ n: ServerNotification, id: TransactionID?, in s: StoreSession
    ) throws(StoreError) -> Command {
        // A deterministic request identifier for the extensions: the seq of the event it makes.
        let request = "iapctl-notifications-send-\(s.state.nextEventSeq)"
        switch cause {
        case .test: return .serverAPI(.requestTestNotification)
        case .standalone: return .serverAPI(.sendNotification(n, transaction: id))
        case .refund: return .refund(try transaction(id, in: s).id, reason: 0)
        case .refundRequest: return .refundRequest(.request(try transaction(id, in: s).id, reason: nil))
        case .refundDecline: return .refundRequest(.decline(try transaction(id, in: s).id))
        case .refundReverse: return .refundRequest(.reverse(try transaction(id, in: s).id))
        case .acceptPriceIncrease:
            return .answerPriceIncrease(try subscriptionTransaction(id, n, in: s).id, accept: true)
        case .revokeShared:
            let t = try transaction(id, in: s)
            let shared = s.state.family?.shares.contains { $0.purchaserOriginalID == t.originalID } ?? false
            guard t.familyMember == nil, shared else {
                throw .refused(.revokeUnshared(t.id))
            }
            return .refund(t.id, reason: 0)
        case .massExtension:
            let t = try subscriptionTransaction(id, n, in: s)
            return .serverAPI(
                .massExtendRenewalDate(t.productID, days: 1, reason: 0, requestIdentifier: request, storefronts: nil))
        case .extendRenewal:
            let t = try subscriptionTransaction(id, n, in: s)
            return .serverAPI(.extendRenewalDate(original: t.originalID, days: 1, reason: 0, requestIdentifier: request))
        case .expire: return .expireSubscription(.originalTransaction(try subscriptionTransaction(id, n, in: s).originalID))
        case .renew: return .renewSubscription(.originalTransaction(try subscriptionTransaction(id, n, in: s).originalID))
        case .autoRenew(let on):
            let original = try subscriptionTransaction(id, n, in: s).originalID
            if let sub = s.state.subscriptions[original], sub.autoRenew == on {
                throw .refused(.autoRenewAlready(original: original, on: on, notification: describe(n)))
            }
            return .setAutoRenew(.originalTransaction(original), on: on)
        }
    }

    static func transaction(_ id: TransactionID?, in s: StoreSession) throws(StoreError) -> Transaction {
        guard let id, let t = try s.transaction(id) else { throw .unknownTransaction(id ?? TransactionID.first) }
        return t
    }

    static func subscriptionTransaction(_ id: TransactionID?, _ n: ServerNotification, in s: StoreSession) throws(StoreError)
        -> Transaction
    {
        let t = try transaction(id, in: s)
        guard t.productType == .autoRenewable else {
            throw .refused(.notificationOfNonSubscription(notification: describe(n), t.id, t.productType))
        }
        return t
    }
}
