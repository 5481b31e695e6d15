import IAPKit

/// The offers of products as `iapctl products` prints them: one row per offer and billing plan.
enum OfferText {
    /// The rows of `products`' OFFERS table for `p` in `storefront`; `eligible` is the
    /// account's introductory offer eligibility in the product's group (nil when not a subscription).
    static func rows(_ p: Product, storefront: Storefront, eligible: Bool?) -> [[String]] {
        var rows: [[String]] = []
        let id = p.id.rawValue
        func money(_ price: Price?) -> String { price.map { storefront.localizedPrice($0) } ?? "not sold here" }
        func terms(_ t: OfferTerms) -> String {
            let count = t.numberOfPeriods > 1 ? " x\(t.numberOfPeriods)" : ""
            return "\(t.paymentMode.rawValue) \(t.period.iso8601)\(count)"
        }
        func cost(_ t: OfferTerms) -> String { t.paymentMode == .freeTrial ? "free" : money(t.price(in: storefront.code)) }
        func plan(_ t: OfferTerms) -> String { t.billingPlan == .upFront ? "" : "monthly plan" }
        func joined(_ parts: [String]) -> String {
            let kept = parts.filter { !$0.isEmpty }
            return kept.isEmpty ? "-" : kept.joined(separator: "; ")
        }
        let eligibility = eligible.map { $0 ? "eligible" : "not eligible (the group had one)" } ?? ""
        if let intro = p.introductoryOffer {
            rows.append([id, "introductory", "-", terms(intro), cost(intro), joined([eligibility])])
        }
        for billing in p.offers.billingPlans {
            rows.append([
                id, "billing plan", billing.type.rawValue,
                "\(BillingPlan.monthlyPeriod.iso8601) x\(BillingPlan.commitmentPeriods)",
                money(billing.price(in: storefront.code)),
                "commitment \(money(billing.commitmentPrice(in: storefront.code)))",
            ])
            if let intro = p.introductoryOffer(for: billing.type) {
                rows.append([id, "introductory", "-", terms(intro), cost(intro), joined([plan(intro), eligibility])])
            }
        }
        for offer in p.offers.promotional {
            rows.append([
                id, "promotional", offer.id.rawValue, terms(offer.terms), cost(offer.terms),
                // Promotional offers are for current and lapsed subscribers (docs/offers.md).
                joined([plan(offer.terms), "subscribers only"]),
            ])
        }
        for code in p.offers.codes {
            switch code.discount {
            case .subscription(let t):
                rows.append([
                    id, "offer code", code.referenceName, terms(t), cost(t),
                    joined([plan(t), "for " + code.eligibility.map(\.rawValue).joined(separator: ", ")]),
                ])
            case .oneTime:
                let price = code.oneTimePrice(in: storefront.code)
                rows.append([id, "offer code", code.referenceName, "one time", price == .zero ? "free" : money(price), "-"])
            }
        }
        for offer in p.offers.winBack {
            let rule: String
            switch offer.eligibility {
            case .whenChurned(true): rule = "eligible when churned"
            case .whenChurned(false): rule = "never eligible"
            case .rules(let paid, let since, let wait):
                rule =
                    "\(paid)+ paid months, \(since.lowerBound)-\(since.upperBound) months lapsed"
                    + (wait.map { ", \($0) months between offers" } ?? "")
            }
            rows.append([
                id, "win-back", offer.id.rawValue, terms(offer.terms), cost(offer.terms), joined([plan(offer.terms), rule]),
            ])
        }
        return rows
    }
}
