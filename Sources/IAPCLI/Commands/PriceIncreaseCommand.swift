import IAPJSON
import IAPKit

/// `iapctl price-increase PRODUCT PRICE [--storefront S] [--no-consent]`: an auto-renewable
/// subscription's price goes up (SKTestSession's `requestPriceIncreaseConsent(forProductIdentifier:)`;
/// App Store Connect's price change). Issue 15, item 1.
enum PriceIncreaseCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "price-increase",
            summary: "Raise a subscription's price: subscribers consent (PRICE_INCREASE) or renew at it",
            discussion: """
                From now on purchases and renewals of PRODUCT in the storefront (the account's, or \
                --storefront) cost PRICE. Each live subscriber renewing into PRODUCT there is told: with \
                consent required (the default) PRICE_INCREASE/PENDING and renewal info priceIncreaseStatus \
                0, until 'iapctl price-consent ID accept' (PRICE_INCREASE/ACCEPTED, status 1; the next \
                renewal charges PRICE); one who declines or never answers expires at the next renewal \
                (EXPIRED/PRICE_INCREASE, expiration intent 3). With --no-consent: PRICE_INCREASE/ACCEPTED \
                and the next renewal charges PRICE. Exit 3 for an unknown product, 4 if it is not an \
                auto-renewable subscription or PRICE is not above its price, 64 for a bad price.
                """,
            arguments: [
                ArgumentSpec("PRODUCT", help: "An auto-renewable subscription product"),
                ArgumentSpec("PRICE", help: "The new price, a decimal in the storefront's currency (12.99)"),
            ],
            options: [
                .value("storefront", "CODE", help: "The storefront (ISO 3166-1 alpha-3); default: the account's"),
                .flag("no-consent", help: "No consent needed: subscribers renew at the new price"),
            ],
            examples: [
                "iapctl price-increase com.x.demo.pro.monthly 12.99",
                "iapctl price-increase com.x.demo.pro.monthly 10.99 --storefront GBR --no-consent --json",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let product = ProductID(i.positional("PRODUCT") ?? "")
        let text = i.positional("PRICE") ?? ""
        guard let price = Price(decimal: text), price > .zero else {
            throw i.usageError("bad price '\(text)'; give a positive decimal such as 12.99")
        }
        let storefront = i.value("storefront")?.uppercased()
        let consent = !i.flag("no-consent")
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.raisePrice(product, price: price, storefront: storefront, consentRequired: consent))
            guard case .life(.priceIncrease(let p, let reached, let consent)) = effects.outcome else {
                return ExitCode(effects.outcome)
            }
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("priceIncrease")
                    LifeJSON.write(p, into: &w)
                    w.key("subscribers")
                    w.beginArray()
                    for id in reached {
                        guard let sub = s.state.subscriptions[id] else { continue }
                        let renewal = try? StoreTransactionSigner.renewalInfo(original: id, session: s)
                        SubscriptionJSON.write(sub, renewal: renewal, offers: s.state.offers.subscriptions[id], into: &w)
                    }
                    w.endArray()
                    w.endObject()
                }
            } else {
                c.stdout.line(LifeText.increaseLine(p, subscribers: reached.count))
                for id in reached { c.stdout.line(LifeText.consentLine(id, consent)) }
            }
            return ExitCode(effects.outcome)
        }
    }
}
