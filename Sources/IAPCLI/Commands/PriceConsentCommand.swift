import IAPJSON
import IAPKit

/// `iapctl price-consent ID accept|decline`: the subscriber answers a price increase
/// (SKTestSession's `consentToPriceIncrease()` / `declinePriceIncrease()`). Issue 15, item 1.
enum PriceConsentCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "price-consent",
            summary: "Accept or decline a subscription's price increase (PRICE_INCREASE/ACCEPTED, or expiry at renewal)",
            discussion: """
                ID is the subscription's original transaction id, as 'iapctl subscriptions' lists it, or \
                any transaction of it (a renewal's): each names the one subscription the customer sees in \
                Settings. accept: PRICE_INCREASE/ACCEPTED, priceIncreaseStatus 1, the next renewal charges \
                the new price. decline: no notification now; at the next renewal the subscription expires \
                (EXPIRED/PRICE_INCREASE, expiration intent 3). A declined increase can still be accepted \
                before the renewal. Exit 3 for an unknown id, 4 when there is no increase to answer.
                """,
            arguments: [
                ArgumentSpec("ID", help: "The subscription's original transaction id (or any of its transactions)"),
                ArgumentSpec("ANSWER", help: "accept or decline"),
            ],
            examples: ["iapctl price-consent 2000000000000001 accept", "iapctl price-consent 2000000000000001 decline --json"]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = try TransactionArgument.id(i.positional("ID"), in: i)
        let answer = i.positional("ANSWER") ?? ""
        guard answer == "accept" || answer == "decline" else {
            throw i.usageError("bad answer '\(answer)'; give accept or decline")
        }
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.answerPriceIncrease(id, accept: answer == "accept"))
            guard case .life(.priceConsent(let sub, let consent)) = effects.outcome else { return ExitCode(effects.outcome) }
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("priceConsent")
                    LifeJSON.write(consent, into: &w)
                    w.key("subscription")
                    let renewal = try? StoreTransactionSigner.renewalInfo(original: sub.originalID, session: s)
                    SubscriptionJSON.write(
                        sub, renewal: renewal, offers: s.state.offers.subscriptions[sub.originalID], into: &w)
                    w.endObject()
                }
            } else {
                c.stdout.line(LifeText.consentLine(sub.originalID, consent))
            }
            return ExitCode(effects.outcome)
        }
    }
}
