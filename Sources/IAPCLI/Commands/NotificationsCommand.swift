import IAPKit

/// `iapctl notifications [list]`: the store's App Store Server Notifications V2, signed, one per
/// event Apple notifies (docs/signed.md); `iapctl notifications send` makes one on demand.
enum NotificationsCommand {
    static let group = CommandSpec(
        name: "notifications",
        summary: "List the signed App Store Server Notifications (V2) the store's events make, or send one",
        discussion: """
            'iapctl notifications' lists them (the default, 'notifications list'); 'iapctl notifications send TYPE' \
            makes one now, through the state change that causes it where iapctl models one (docs/events.md).
            """,
        subcommands: [list.spec, NotificationsSendCommand.definition.spec],
        defaultSubcommand: "list"
    )

    static let children = [list, NotificationsSendCommand.definition]

    static let list = CommandDefinition(
        CommandSpec(
            name: "list",
            summary: "List the signed App Store Server Notifications (V2) the store's events make",
            discussion: """
                One line per notification: the seq of its event, notificationType, subtype (- when none) and the \
                transaction in its signedTransactionInfo. With --json, JSON Lines: {seq, notificationType, subtype, \
                notificationUUID, date, timestamp, transactionIdentifier, signedPayload}, the signedPayload being \
                what the App Store POSTs ({"signedPayload": ...}) and what 'iapctl serve --webhook' delivers. \
                Each is signed at its event's date, so it never changes once the event is written.
                """,
            options: [
                .value("since", "seq", help: "Only notifications of events after this sequence number"),
                .value("app-apple-id", "n", help: "The appAppleId to put in data (default: none, as in sandbox)"),
            ],
            examples: [
                "iapctl notifications", "iapctl notifications --since 10 --json | jq -r .signedPayload",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let since = UInt64(try i.int("since", in: 0...Int.max) ?? 0)
        let appAppleID = try i.int("app-apple-id", in: 1...Int.max).map { Int64($0) }
        return try c.read { s throws(StoreError) in
            let found = try NotificationLog.notifications(
                since: since, in: s, signer: try StoreTransactionSigner(session: s), appAppleID: appAppleID)
            print(found, c)
            return .success
        }
    }

    /// One line per notification, or with --json one JSON object per line.
    static func print(_ found: [SignedNotification], _ c: CommandContext) {
        for n in found {
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("seq")
                    w.uint(n.seq)
                    w.key("notificationType")
                    w.string(n.notificationType)
                    w.key("subtype")
                    w.optionalString(n.subtype)
                    w.key("notificationUUID")
                    w.string(n.notificationUUID)
                    w.key("date")
                    w.string(n.date.rfc3339)
                    w.key("timestamp")
                    w.int(n.date.milliseconds)
                    w.key("transactionIdentifier")
                    if let id = n.transactionID { w.decimalString(id.rawValue) } else { w.null() }
                    w.key("signedPayload")
                    w.string(n.signedPayload)
                    w.endObject()
                }
            } else {
                c.stdout.line(
                    "\(n.seq) \(n.notificationType) \(n.subtype ?? "-") \(n.transactionID.map(\.description) ?? "-")")
            }
        }
    }
}
