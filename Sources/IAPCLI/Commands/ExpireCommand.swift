import IAPKit

/// `iapctl expire ID`: Xcode's "Expire Subscription".
enum ExpireCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "expire",
            summary: "End a subscription now",
            discussion: """
                As if the user had cancelled and the period had run out now: the current period's \
                transaction expires now, the subscription is expired (intent 1) and will not renew. Buy it \
                again to resubscribe.
                """,
            arguments: [SubscriptionAction.idArgument],
            examples: ["iapctl expire com.x.vip2"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        try SubscriptionAction.run(c) { .expireSubscription($0) }
    }
}
