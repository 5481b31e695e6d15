import IAPJSON

/// Reading the offers of a `.storekit` file (`docs/storekit.md`, "Offers"): `introductoryOffer`
/// and format 5's `introductoryOffers` (one per billing plan), `adHocOffers` (promotional
/// offers), `codeOffers` (offer codes, on every product type in current Xcode), `winbackOffers`,
/// `billingPlans` and the document's `subscriptionOffersKeyPair`.
///
/// As everywhere in this reader, unknown keys are named in notes and values Xcode's editor may
/// leave blank are filled in with a note; an offer of a billing plan the product does not have
/// is named in a note and left out, since StoreKit could never apply it.
extension StoreKitConfigurationFormat.Reader {
    /// The offers of an auto-renewable subscription whose regular price is `regularPrice`.
    mutating func subscriptionOffers(_ item: JSONValue, _ path: String, period: SubscriptionPeriod?, regularPrice: Price)
        throws(CatalogError) -> (IntroductoryOffer?, ProductOffers)
    {
        var offers = ProductOffers()
        offers.billingPlans = try billingPlans(item, path, period: period, regularPrice: regularPrice)
        let intro = try introductoryOffers(item, path, plans: offers)
        offers.monthlyIntroductoryOffer = intro.monthly
        var ids: Set<String> = []
        for (i, entry) in try array(item["adHocOffers"], "\(path).adHocOffers").enumerated() {
            let p = "\(path).adHocOffers[\(i)]"
            _ = try object(entry, p)
            checkKeys(entry, p, known: StoreKitConfigurationFormat.KnownKeys.offer)
            let id = try requiredString(
                entry["offerID"], "\(p).offerID", fix: "give the promotional offer its identifier, as in App Store Connect")
            try claim(id, &ids, "\(p).offerID")
            let name = try referenceName(entry, p, fallback: id, kind: "promotional offer")
            guard let terms = try offerTerms(entry, p, what: "promotional offer '\(id)' of '\(product ?? "")'", plans: offers)
            else { continue }
            offers.promotional.append(PromotionalOffer(id: OfferID(id), referenceName: name, terms: terms))
        }
        var names: Set<String> = []
        for (i, entry) in try array(item["codeOffers"], "\(path).codeOffers").enumerated() {
            let p = "\(path).codeOffers[\(i)]"
            _ = try object(entry, p)
            checkKeys(entry, p, known: StoreKitConfigurationFormat.KnownKeys.offer)
            let name = try requiredString(
                entry["referenceName"], "\(p).referenceName", fix: "give the offer code its reference name")
            try claim(name, &names, "\(p).referenceName")
            let eligibility = try codeEligibility(entry, p, name: name)
            if try bool(entry["isStackable"], "\(p).isStackable") == true {
                note(
                    "\(p).isStackable",
                    "offer code '\(name)' of '\(product ?? "")' is stackable in Xcode; iapctl reads that but applies one offer per period"
                )
            }
            guard let terms = try offerTerms(entry, p, what: "offer code '\(name)' of '\(product ?? "")'", plans: offers) else {
                continue
            }
            offers.codes.append(OfferCode(referenceName: name, discount: .subscription(terms), eligibility: eligibility))
        }
        for (i, entry) in try array(item["winbackOffers"], "\(path).winbackOffers").enumerated() {
            let p = "\(path).winbackOffers[\(i)]"
            _ = try object(entry, p)
            let toggle = entry.objectValue?.first { $0.key.lowercased().contains("eligib") && $0.value.boolValue != nil }
            checkKeys(
                entry, p, known: StoreKitConfigurationFormat.KnownKeys.offer.union(toggle.map { [$0.key] } ?? []))
            let id: String
            if let given = try text(entry["offerID"], "\(p).offerID") {
                id = given
            } else if let name = try text(entry["referenceName"], "\(p).referenceName") {
                id = name
                note("\(p).offerID", "win-back offer '\(name)' of '\(product ?? "")' has no offer ID; using its reference name")
            } else {
                throw fail("\(p).offerID", "missing; give the win-back offer its identifier, as in App Store Connect")
            }
            try claim(id, &ids, "\(p).offerID")
            let name = try referenceName(entry, p, fallback: id, kind: "win-back offer", quiet: entry["offerID"] == nil)
            let eligible: Bool
            if let toggle {
                eligible = toggle.value.boolValue ?? true
            } else {
                eligible = true
                note(
                    "\(p)",
                    "win-back offer '\(id)' of '\(product ?? "")' has no eligibility toggle; eligible whenever the subscription has churned"
                )
            }
            guard let terms = try offerTerms(entry, p, what: "win-back offer '\(id)' of '\(product ?? "")'", plans: offers) else {
                continue
            }
            offers.winBack.append(
                WinBackOffer(id: OfferID(id), referenceName: name, terms: terms, eligibility: .whenChurned(eligible)))
        }
        return (intro.upFront, offers)
    }

    /// Offer codes of a consumable, non-consumable or non-renewing subscription (Xcode 27 "Offer
    /// Codes" for every product type): a one-time price, free when it has none.
    mutating func oneTimeOfferCodes(_ item: JSONValue, _ path: String) throws(CatalogError) -> ProductOffers {
        var offers = ProductOffers()
        var names: Set<String> = []
        for (i, entry) in try array(item["codeOffers"], "\(path).codeOffers").enumerated() {
            let p = "\(path).codeOffers[\(i)]"
            _ = try object(entry, p)
            checkKeys(entry, p, known: StoreKitConfigurationFormat.KnownKeys.offer)
            let name = try requiredString(
                entry["referenceName"], "\(p).referenceName", fix: "give the offer code its reference name")
            try claim(name, &names, "\(p).referenceName")
            let price: Price
            if entry["paymentMode"]?.stringValue == "free" {
                price = .zero
            } else if entry["displayPrice"] != nil, entry["displayPrice"] != .null {
                price = try self.price(
                    entry["displayPrice"], "\(p).displayPrice", what: "offer code '\(name)' of '\(product ?? "")'")
            } else {
                price = .zero
                note("\(p).displayPrice", "offer code '\(name)' of '\(product ?? "")' has no price; it is free")
            }
            offers.codes.append(
                OfferCode(
                    referenceName: name,
                    discount: .oneTime(prices: [.init(storefront: storefront.code, price: price)], anyStorefront: true),
                    eligibility: []))
        }
        return offers
    }

    /// `billingPlans`: the up-front plan is the product's `displayPrice`; an enabled MONTHLY
    /// plan of a one-year subscription becomes the monthly plan.
    mutating func billingPlans(_ item: JSONValue, _ path: String, period: SubscriptionPeriod?, regularPrice: Price)
        throws(CatalogError) -> [BillingPlan]
    {
        var plans: [BillingPlan] = []
        let id = product ?? ""
        for (i, entry) in try array(item["billingPlans"], "\(path).billingPlans").enumerated() {
            let p = "\(path).billingPlans[\(i)]"
            _ = try object(entry, p)
            checkKeys(entry, p, known: StoreKitConfigurationFormat.KnownKeys.billingPlan)
            guard let typeText = try text(entry["billingPlanType"], "\(p).billingPlanType") else {
                note("\(p).billingPlanType", "a billing plan of '\(id)' has no billingPlanType; ignored")
                continue
            }
            guard let type = BillingPlanType(serverName: typeText) else {
                note(
                    "\(p).billingPlanType",
                    "billing plan '\(typeText)' of '\(id)' is not one iapctl knows (BILLED_UPFRONT, MONTHLY); ignored")
                continue
            }
            if try bool(entry["isEnabled"], "\(p).isEnabled") == false {
                note("\(p).isEnabled", "billing plan \(typeText) of '\(id)' is disabled; not offered")
                continue
            }
            switch type {
            case .upFront:
                if let given = entry["displayPrice"], given != .null {
                    let planPrice = try price(given, "\(p).displayPrice", what: "billing plan \(typeText) of '\(id)'")
                    if planPrice != regularPrice {
                        note(
                            "\(p).displayPrice",
                            "billing plan BILLED_UPFRONT of '\(id)' costs \(storefront.localizedPrice(planPrice)) but the subscription's displayPrice is \(storefront.localizedPrice(regularPrice)); iapctl charges the displayPrice"
                        )
                    }
                }
            case .monthly:
                guard period == SubscriptionPeriod(value: 1, unit: .year) else {
                    note(
                        "\(p).billingPlanType",
                        "billing plan MONTHLY of '\(id)' is for one-year subscriptions, and this one renews every \(period?.iso8601 ?? "?"); not offered"
                    )
                    continue
                }
                guard !plans.contains(where: { $0.type == .monthly }) else {
                    note("\(p).billingPlanType", "a second MONTHLY billing plan of '\(id)'; ignored")
                    continue
                }
                let monthly = try price(entry["displayPrice"], "\(p).displayPrice", what: "billing plan MONTHLY of '\(id)'")
                if let given = entry["commitmentDisplayPrice"], given != .null {
                    let commitment = try price(
                        given, "\(p).commitmentDisplayPrice", what: "the commitment of billing plan MONTHLY of '\(id)'")
                    let computed = monthly * BillingPlan.commitmentPeriods
                    if commitment != computed {
                        note(
                            "\(p).commitmentDisplayPrice",
                            "billing plan MONTHLY of '\(id)' commits to \(storefront.localizedPrice(commitment)), not 12 payments of \(storefront.localizedPrice(monthly)); iapctl's commitment is \(storefront.localizedPrice(computed))"
                        )
                    }
                }
                plans.append(
                    BillingPlan(type: .monthly, prices: [.init(storefront: storefront.code, price: monthly)], anyStorefront: true)
                )
            }
        }
        return plans
    }

    /// `introductoryOffer` (formats 1 to 5, an object or null) and format 5's
    /// `introductoryOffers`: at most one per billing plan, the first listed for each plan;
    /// `introductoryOffer` repeats the up-front plan's entry of the list. Every other entry is
    /// named in a note.
    mutating func introductoryOffers(_ item: JSONValue, _ path: String, plans: ProductOffers) throws(CatalogError) -> (
        upFront: IntroductoryOffer?, monthly: IntroductoryOffer?
    ) {
        let listPath = "\(path).introductoryOffers"
        let list = try array(item["introductoryOffers"], listPath)
        var entries: [(path: String, value: JSONValue)] = []
        if let single = item["introductoryOffer"], single != .null {
            entries.append(("\(path).introductoryOffer", single))
        }
        for (i, entry) in list.enumerated() where !entries.contains(where: { $0.value == entry }) {
            entries.append(("\(listPath)[\(i)]", entry))
        }
        var upFront: (path: String, offer: IntroductoryOffer)?
        var monthly: (path: String, offer: IntroductoryOffer)?
        for entry in entries {
            _ = try object(entry.value, entry.path)
            checkKeys(entry.value, entry.path, known: StoreKitConfigurationFormat.KnownKeys.offer)
            guard
                let offer = try offerTerms(
                    entry.value, entry.path, what: "the introductory offer of '\(product ?? "")'", plans: plans)
            else { continue }
            let chosen = offer.billingPlan == .upFront ? upFront : monthly
            if let chosen {
                note(
                    entry.path,
                    "introductory offer of '\(product ?? "")' (\(summary(ofOffer: entry.value))) not applied: each billing plan has one introductory offer, and iapctl applies \(chosen.path.split(separator: ".").last ?? "")"
                )
                continue
            }
            if offer.billingPlan == .upFront { upFront = (entry.path, offer) } else { monthly = (entry.path, offer) }
        }
        return (upFront?.offer, monthly?.offer)
    }

    /// `free P1W, billing plan MONTHLY`, for notes.
    func summary(ofOffer offer: JSONValue) -> String {
        let mode = offer["paymentMode"]?.stringValue ?? "?"
        let period = offer["subscriptionPeriod"]?.stringValue ?? "?"
        let plan = offer["billingPlanType"]?.stringValue.map { ", billing plan \($0)" } ?? ""
        return "\(mode) \(period)\(plan)"
    }

    /// An offer's terms: `paymentMode` (`free`, `payAsYouGo`, `payUpFront`), `subscriptionPeriod`,
    /// `numberOfPeriods` (Xcode writes it for pay as you go; the other modes last one period
    /// unless it says more), `displayPrice` (not for a free trial) and `billingPlanType`. Nil,
    /// with a note, when the offer belongs to a billing plan the product does not offer.
    mutating func offerTerms(_ value: JSONValue, _ path: String, what: String, plans: ProductOffers) throws(CatalogError)
        -> OfferTerms?
    {
        var plan = BillingPlanType.upFront
        if let planText = try text(value["billingPlanType"], "\(path).billingPlanType") {
            guard let parsed = BillingPlanType(serverName: planText) else {
                note(
                    "\(path).billingPlanType",
                    "\(what) belongs to billing plan '\(planText)', which iapctl does not know; not offered")
                return nil
            }
            if parsed == .monthly && plans.billingPlan(.monthly) == nil {
                note(
                    "\(path).billingPlanType",
                    "\(what) belongs to billing plan MONTHLY, which the product does not offer; not offered")
                return nil
            }
            plan = parsed
        }
        let modeText = try requiredString(
            value["paymentMode"], "\(path).paymentMode", fix: "write free, payAsYouGo or payUpFront")
        let mode: OfferTerms.PaymentMode
        switch modeText {
        case "free": mode = .freeTrial
        case "payAsYouGo": mode = .payAsYouGo
        case "payUpFront": mode = .payUpFront
        default:
            let hint =
                Suggestions.nearest(to: modeText, among: ["free", "payAsYouGo", "payUpFront"]).map { "did you mean '\($0)'?" }
                ?? "write free, payAsYouGo or payUpFront"
            throw fail("\(path).paymentMode", "unknown payment mode '\(modeText)'; \(hint)")
        }
        guard let period = try self.period(value["subscriptionPeriod"], "\(path).subscriptionPeriod", allowed: nil) else {
            throw fail("\(path).subscriptionPeriod", "missing; write the offer's period, such as P1W")
        }
        let count =
            try integer(value["numberOfPeriods"], "\(path).numberOfPeriods", in: 1...12, what: "an integer from 1 to 12") ?? 1
        var prices: [Product.StorefrontPrice] = []
        if mode != .freeTrial {
            prices = [
                .init(storefront: storefront.code, price: try price(value["displayPrice"], "\(path).displayPrice", what: what))
            ]
        }
        return OfferTerms(
            paymentMode: mode, period: period, numberOfPeriods: Int(count), prices: prices, anyStorefront: true,
            billingPlan: plan)
    }

    /// An offer's reference name, else `fallback` with a note (unless `quiet`).
    mutating func referenceName(_ entry: JSONValue, _ path: String, fallback: String, kind: String, quiet: Bool = false)
        throws(CatalogError) -> String
    {
        if let name = try text(entry["referenceName"], "\(path).referenceName") { return name }
        if !quiet {
            note(
                "\(path).referenceName", "\(kind) '\(fallback)' of '\(product ?? "")' has no reference name; using its identifier"
            )
        }
        return fallback
    }

    /// An offer code's `eligibility`: `new`, `existing`, `expired`; all three when absent.
    mutating func codeEligibility(_ entry: JSONValue, _ path: String, name: String) throws(CatalogError) -> [OfferCode
        .Eligibility]
    {
        let items = try array(entry["eligibility"], "\(path).eligibility")
        guard !items.isEmpty else {
            note(
                "\(path).eligibility",
                "offer code '\(name)' of '\(product ?? "")' names no eligibility; new, existing and expired subscribers may redeem it"
            )
            return OfferCode.Eligibility.allCases
        }
        var result: [OfferCode.Eligibility] = []
        for (i, item) in items.enumerated() {
            guard let text = item.stringValue, let e = OfferCode.Eligibility(rawValue: text) else {
                throw fail("\(path).eligibility[\(i)]", "expected new, existing or expired, found \(item.serialized())")
            }
            if !result.contains(e) { result.append(e) }
        }
        return result
    }

    /// Records an identifier, refusing one the product already has.
    func claim(_ id: String, _ seen: inout Set<String>, _ path: String) throws(CatalogError) {
        guard seen.insert(id).inserted else {
            throw fail(path, "duplicate offer '\(id)'; each offer of a product needs its own identifier")
        }
    }

    /// `subscriptionOffersKeyPair {id, privateKey}`: the key the app's server signs offers with,
    /// as base64 PKCS#8 DER. The store keeps its public half.
    mutating func offerKey(_ keyPair: JSONValue) throws(CatalogError) {
        checkKeys(keyPair, "subscriptionOffersKeyPair", known: ["id", "privateKey"])
        guard let id = try text(keyPair["id"], "subscriptionOffersKeyPair.id") else {
            note("subscriptionOffersKeyPair.id", "the subscription offer key has no id; ignored, so signed offers cannot name it")
            return
        }
        guard let text = try text(keyPair["privateKey"], "subscriptionOffersKeyPair.privateKey") else {
            note("subscriptionOffersKeyPair.privateKey", "the subscription offer key '\(id)' has no private key; ignored")
            return
        }
        do {
            offerKeys = [try SubscriptionOfferKey.read(xcodePrivateKey: text, id: id)]
        } catch {
            note(
                "subscriptionOffersKeyPair.privateKey",
                "the subscription offer key '\(id)' is not a P-256 private key (base64 PKCS#8); ignored, so offers signed with it are refused"
            )
        }
    }
}
