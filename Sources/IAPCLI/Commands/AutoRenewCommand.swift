import IAPKit

/// `iapctl auto-renew off|on ID`: the user's auto-renew switch.
enum AutoRenewCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "auto-renew",
            summary: "Turn a subscription's auto-renew off or on",
            discussion: """
                Off: the subscription runs to the end of its period, then expires (expiration intent 1). \
                Turning it off while a renewal is failing (grace period or billing retry) ends the subscription \
                now. On the monthly billing plan's 12-month commitment, off stops the next commitment: the \
                monthly payments left in this one go on, then it expires (docs/offers.md). On: it renews again; an \
                expired subscription is bought again instead (exit 4).
                """,
            arguments: [ArgumentSpec("STATE", help: "off or on"), SubscriptionAction.idArgument],
            examples: ["iapctl auto-renew off com.x.vip2", "iapctl auto-renew on 2000000000000001"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let on = try c.invocation.choice("STATE", among: ["off", "on"]) == "on"
        // Settings > Subscriptions is the manage subscriptions sheet (showManageSubscriptions).
        let word = c.invocation.positional("ID") ?? ""
        if !word.isEmpty, let failed = try FaultGate.fire(c, .manageSubscriptions, product: ProductID(word)) {
            return failed
        }
        return try SubscriptionAction.run(c) { .setAutoRenew($0, on: on) }
    }
}
