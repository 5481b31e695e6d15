import IAPKit

/// `iapctl renew ID`: Xcode's "Renew Subscription".
enum RenewCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "renew",
            summary: "Renew a subscription now, ahead of its date",
            discussion: """
                The current period ends now and a new one starts: a new purchased transaction with the same \
                original id, delivered to the queue. A forced renewal succeeds even with billing-issues on; a \
                subscription in billing retry or grace period is recovered with 'iapctl resolve'.
                """,
            arguments: [SubscriptionAction.idArgument],
            examples: ["iapctl renew com.x.vip2 --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        try SubscriptionAction.run(c) { .renewSubscription($0) }
    }
}
