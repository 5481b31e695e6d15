import IAPCrypto
import IAPJSON
import IAPTime

/// Reading the offers of the project's catalog format (`docs/catalog.md`, "Offers"): the same
/// strictness as the rest of the format, every mistake naming the key path and the fix.
extension CatalogJSONFormat.Reader {
    /// The keys every offer's terms use; each kind adds its own.
    static let termKeys = ["paymentMode", "period", "numberOfPeriods", "prices", "billingPlan"]

    /// A product's offers: its up-front introductory offer and the rest.
    func offers(_ item: JSONValue, _ path: String, type: ProductType, period: SubscriptionPeriod?, anyStorefront: Bool)
        throws(CatalogError) -> (introductory: IntroductoryOffer?, others: ProductOffers)
    {
        var others = ProductOffers()
        let subscriptionKeys = ["introductoryOffer", "introductoryOffers", "promotionalOffers", "winBackOffers", "billingPlans"]
        if type != .autoRenewable {
            for key in subscriptionKeys where item[key] != nil && item[key] != .null {
                let what =
                    key == "billingPlans" ? "billing plans" : "\(key == "introductoryOffer" ? "introductory" : "these") offers"
                throw fail("\(path).\(key)", "only auto-renewable subscriptions have \(what); remove it or change the type")
            }
        }
        // Billing plans first: offers name the plan they belong to.
        if let plans = item["billingPlans"], plans != .null {
            guard let entries = plans.arrayValue else { throw fail("\(path).billingPlans", "expected an array") }
            for (i, entry) in entries.enumerated() {
                let p = "\(path).billingPlans[\(i)]"
                _ = try object(entry, p, allowed: ["type", "prices"])
                let typeText = try string(entry["type"], "\(p).type")!
                guard typeText == BillingPlanType.monthly.rawValue else {
                    let fix =
                        typeText == BillingPlanType.upFront.rawValue
                        ? "the up-front plan is the product's own prices; list only \"monthly\" here"
                        : "write \"monthly\" (monthly with a 12-month commitment)"
                    throw fail("\(p).type", "unknown billing plan '\(typeText)'; \(fix)")
                }
                guard period == SubscriptionPeriod(value: 1, unit: .year) else {
                    throw fail(
                        "\(p).type",
                        "the monthly plan with a 12-month commitment is for one-year subscriptions; this one renews every \(period?.iso8601 ?? "?")"
                    )
                }
                guard others.billingPlan(.monthly) == nil else { throw fail("\(p).type", "duplicate billing plan 'monthly'") }
                let prices = try self.prices(entry["prices"], "\(p).prices", required: true, rounded: anyStorefront)
                others.billingPlans.append(BillingPlan(type: .monthly, prices: prices, anyStorefront: anyStorefront))
            }
        }
        var introductory: IntroductoryOffer?
        let single = item["introductoryOffer"].flatMap { $0 == .null ? nil : $0 }
        let list = item["introductoryOffers"].flatMap { $0 == .null ? nil : $0 }
        if single != nil && list != nil {
            throw fail(
                "\(path).introductoryOffers",
                "give introductoryOffer (one offer) or introductoryOffers (one per billing plan), not both")
        }
        if let single {
            introductory = try terms(single, "\(path).introductoryOffer", anyStorefront: anyStorefront, plans: others)
            if introductory?.billingPlan == .monthly {
                others.monthlyIntroductoryOffer = introductory
                introductory = nil
            }
        }
        if let list {
            guard let entries = list.arrayValue else { throw fail("\(path).introductoryOffers", "expected an array") }
            for (i, entry) in entries.enumerated() {
                let p = "\(path).introductoryOffers[\(i)]"
                let offer = try terms(entry, p, anyStorefront: anyStorefront, plans: others)
                switch offer.billingPlan {
                case .upFront:
                    guard introductory == nil else {
                        throw fail(p, "a second introductory offer of the up-front plan; each billing plan has at most one")
                    }
                    introductory = offer
                case .monthly:
                    guard others.monthlyIntroductoryOffer == nil else {
                        throw fail(p, "a second introductory offer of the monthly plan; each billing plan has at most one")
                    }
                    others.monthlyIntroductoryOffer = offer
                }
            }
        }
        var ids: Set<String> = []
        for (i, entry) in try array(item["promotionalOffers"], "\(path).promotionalOffers").enumerated() {
            let p = "\(path).promotionalOffers[\(i)]"
            _ = try object(entry, p, allowed: ["offerIdentifier", "referenceName"] + Self.termKeys)
            let id = try offerIdentifier(entry, p, seen: &ids)
            let name = try string(entry["referenceName"], "\(p).referenceName", required: false) ?? id.rawValue
            others.promotional.append(
                PromotionalOffer(
                    id: id, referenceName: name,
                    terms: try terms(entry, p, anyStorefront: anyStorefront, plans: others, checkKeys: false)))
        }
        for (i, entry) in try array(item["winBackOffers"], "\(path).winBackOffers").enumerated() {
            let p = "\(path).winBackOffers[\(i)]"
            _ = try object(
                entry, p,
                allowed: ["offerIdentifier", "referenceName", "eligibility", "priority", "startDate", "endDate"] + Self.termKeys)
            let id = try offerIdentifier(entry, p, seen: &ids)
            let name = try string(entry["referenceName"], "\(p).referenceName", required: false) ?? id.rawValue
            let terms = try terms(entry, p, anyStorefront: anyStorefront, plans: others, checkKeys: false)
            var priority = WinBackOffer.Priority.normal
            if let text = try string(entry["priority"], "\(p).priority", required: false) {
                guard let parsed = WinBackOffer.Priority(rawValue: text) else {
                    throw fail("\(p).priority", "unknown priority '\(text)'; write high or normal")
                }
                priority = parsed
            }
            let start = try day(entry["startDate"], "\(p).startDate")
            let end = try day(entry["endDate"], "\(p).endDate")
            if let start, let end, end < start {
                throw fail("\(p).endDate", "the offer ends before it starts; give an end date on or after the start date")
            }
            others.winBack.append(
                WinBackOffer(
                    id: id, referenceName: name, terms: terms, eligibility: try winBackEligibility(entry["eligibility"], p),
                    priority: priority, startDate: start, endDate: end))
        }
        var codeNames: Set<String> = []
        for (i, entry) in try array(item["offerCodes"], "\(path).offerCodes").enumerated() {
            let p = "\(path).offerCodes[\(i)]"
            if type == .autoRenewable {
                _ = try object(entry, p, allowed: ["referenceName", "eligibility"] + Self.termKeys)
            } else {
                _ = try object(entry, p, allowed: ["referenceName", "prices"])
            }
            let name = try string(entry["referenceName"], "\(p).referenceName")!
            guard codeNames.insert(name).inserted else {
                throw fail(
                    "\(p).referenceName",
                    "duplicate offer code '\(name)'; each offer code of a product has its own reference name")
            }
            guard type == .autoRenewable else {
                // Consumables, non-consumables and non-renewing subscriptions: a one-time price.
                let prices = try self.prices(entry["prices"], "\(p).prices", required: true, rounded: anyStorefront)
                others.codes.append(
                    OfferCode(
                        referenceName: name, discount: .oneTime(prices: prices, anyStorefront: anyStorefront), eligibility: []))
                continue
            }
            others.codes.append(
                OfferCode(
                    referenceName: name,
                    discount: .subscription(try terms(entry, p, anyStorefront: anyStorefront, plans: others, checkKeys: false)),
                    eligibility: try codeEligibility(entry["eligibility"], "\(p).eligibility")))
        }
        return (introductory, others)
    }

    /// An offer's terms: `paymentMode`, `period`, `numberOfPeriods`, `prices` (not for a free
    /// trial) and `billingPlan` (a plan the product has).
    func terms(_ value: JSONValue, _ path: String, anyStorefront: Bool, plans: ProductOffers, checkKeys: Bool = true)
        throws(CatalogError) -> OfferTerms
    {
        if checkKeys { _ = try object(value, path, allowed: Self.termKeys) }
        let modeText = try string(value["paymentMode"], "\(path).paymentMode")!
        guard let mode = OfferTerms.PaymentMode(rawValue: modeText) else {
            let names = OfferTerms.PaymentMode.allCases.map(\.rawValue)
            let hint =
                Suggestions.nearest(to: modeText, among: names).map { "did you mean '\($0)'?" }
                ?? "use freeTrial, payAsYouGo or payUpFront"
            throw fail("\(path).paymentMode", "unknown payment mode '\(modeText)'; \(hint)")
        }
        let periodText = try string(value["period"], "\(path).period")!
        guard let period = SubscriptionPeriod(iso8601: periodText) else {
            throw fail("\(path).period", "'\(periodText)' is not a period; write P1W, P1M, ...")
        }
        var count = 1
        if let n = value["numberOfPeriods"] {
            guard let v = n.int64Value, (1...12).contains(v) else {
                throw fail("\(path).numberOfPeriods", "expected an integer from 1 to 12")
            }
            count = Int(v)
        }
        if mode == .freeTrial, value["prices"] != nil {
            throw fail("\(path).prices", "a free trial has no price; remove prices or change the payment mode")
        }
        let prices = try self.prices(value["prices"], "\(path).prices", required: mode != .freeTrial, rounded: anyStorefront)
        var plan = BillingPlanType.upFront
        if let text = try string(value["billingPlan"], "\(path).billingPlan", required: false) {
            guard let parsed = BillingPlanType(rawValue: text) else {
                throw fail("\(path).billingPlan", "unknown billing plan '\(text)'; write upFront or monthly")
            }
            if parsed == .monthly, plans.billingPlan(.monthly) == nil {
                throw fail(
                    "\(path).billingPlan",
                    "the product has no monthly billing plan; add one to billingPlans or remove billingPlan")
            }
            plan = parsed
        }
        return OfferTerms(
            paymentMode: mode, period: period, numberOfPeriods: count, prices: prices, anyStorefront: anyStorefront,
            billingPlan: plan)
    }

    func offerIdentifier(_ entry: JSONValue, _ path: String, seen: inout Set<String>) throws(CatalogError) -> OfferID {
        let id = try string(entry["offerIdentifier"], "\(path).offerIdentifier")!
        guard !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw fail("\(path).offerIdentifier", "'\(id)' must not contain control characters")
        }
        guard seen.insert(id).inserted else {
            throw fail(
                "\(path).offerIdentifier",
                "duplicate offer identifier '\(id)'; promotional and win-back offers of a product each need their own")
        }
        return OfferID(id)
    }

    /// An offer code's `eligibility`: a non-empty list of `new`, `existing`, `expired`.
    func codeEligibility(_ value: JSONValue?, _ path: String) throws(CatalogError) -> [OfferCode.Eligibility] {
        guard let value else { throw fail(path, "missing; list who may redeem the code: [\"new\", \"existing\", \"expired\"]") }
        guard let items = value.arrayValue, !items.isEmpty else {
            throw fail(path, "expected a non-empty list of new, existing, expired")
        }
        var result: [OfferCode.Eligibility] = []
        for (i, item) in items.enumerated() {
            guard let text = item.stringValue, let e = OfferCode.Eligibility(rawValue: text) else {
                throw fail("\(path)[\(i)]", "expected new, existing or expired, found \(item.serialized())")
            }
            guard !result.contains(e) else { throw fail("\(path)[\(i)]", "'\(text)' is listed twice") }
            result.append(e)
        }
        return result
    }

    /// A win-back offer's `eligibility`: `true`/`false` (Xcode's toggle) or App Store Connect's rules.
    func winBackEligibility(_ value: JSONValue?, _ path: String) throws(CatalogError) -> WinBackOffer.Eligibility {
        let p = "\(path).eligibility"
        guard let value else {
            throw fail(
                p,
                "missing; give App Store Connect's rules {\"paidSubscriptionDurationInMonths\": 1, \"timeSinceLastSubscribedInMonths\": {\"minimum\": 1, \"maximum\": 24}} or true (eligible whenever churned)"
            )
        }
        if let flag = value.boolValue { return .whenChurned(flag) }
        _ = try object(
            value, p,
            allowed: ["paidSubscriptionDurationInMonths", "timeSinceLastSubscribedInMonths", "waitBetweenOffersInMonths"])
        func months(_ v: JSONValue?, _ key: String, required: Bool) throws(CatalogError) -> Int? {
            guard let v else {
                if required { throw fail("\(p).\(key)", "missing; give a number of months") }
                return nil
            }
            guard let n = v.int64Value, (0...1200).contains(n) else {
                throw fail("\(p).\(key)", "expected a number of months from 0 to 1200")
            }
            return Int(n)
        }
        let paid = try months(value["paidSubscriptionDurationInMonths"], "paidSubscriptionDurationInMonths", required: true)!
        guard let since = value["timeSinceLastSubscribedInMonths"] else {
            throw fail("\(p).timeSinceLastSubscribedInMonths", "missing; give {\"minimum\": MONTHS, \"maximum\": MONTHS}")
        }
        _ = try object(since, "\(p).timeSinceLastSubscribedInMonths", allowed: ["minimum", "maximum"])
        let low = try months(since["minimum"], "timeSinceLastSubscribedInMonths.minimum", required: true)!
        let high = try months(since["maximum"], "timeSinceLastSubscribedInMonths.maximum", required: true)!
        guard low <= high else {
            throw fail("\(p).timeSinceLastSubscribedInMonths", "minimum \(low) is more than maximum \(high)")
        }
        let wait = try months(value["waitBetweenOffersInMonths"], "waitBetweenOffersInMonths", required: false)
        return .rules(paidMonths: paid, monthsSinceLastSubscribed: low...high, waitBetweenOffersMonths: wait)
    }

    /// A day, `2026-07-01` (App Store Connect's date form), as its first instant in UTC.
    func day(_ value: JSONValue?, _ path: String) throws(CatalogError) -> Timestamp? {
        guard let text = try string(value, path, required: false) else { return nil }
        guard text.utf8.count == 10, let t = Timestamp(rfc3339: text + "T00:00:00Z") else {
            throw fail(path, "'\(text)' is not a day; write it as 2026-07-01")
        }
        return t
    }

    func array(_ value: JSONValue?, _ path: String) throws(CatalogError) -> [JSONValue] {
        guard let value, value != .null else { return [] }
        guard let items = value.arrayValue else { throw fail(path, "expected an array, found \(value.kindName)") }
        return items
    }

    /// `subscriptionOfferKeys`: `[{"keyIdentifier": ..., "publicKey": PEM}]`.
    func offerKeys(_ value: JSONValue?) throws(CatalogError) -> [SubscriptionOfferKey] {
        var keys: [SubscriptionOfferKey] = []
        for (i, entry) in try array(value, "subscriptionOfferKeys").enumerated() {
            let p = "subscriptionOfferKeys[\(i)]"
            _ = try object(entry, p, allowed: ["keyIdentifier", "publicKey"])
            let id = try string(entry["keyIdentifier"], "\(p).keyIdentifier")!
            let pem = try string(entry["publicKey"], "\(p).publicKey")!
            let key: SubscriptionOfferKey
            do {
                key = try SubscriptionOfferKey.read(pem: pem, id: id, name: "\(p).publicKey").key
            } catch {
                throw fail(p, error.description)
            }
            guard !keys.contains(where: { $0.id == id }) else {
                throw fail("\(p).keyIdentifier", "duplicate key id '\(id)'")
            }
            keys.append(key)
        }
        return keys
    }

    /// Promotional and win-back offer identifiers are unique within a subscription group (App
    /// Store Connect: "Both fields need to be unique within your subscription group", WWDC24
    /// "Implement App Store Offers").
    func checkGroupOfferIDs(_ products: [Product]) throws(CatalogError) {
        var owner: [String: (group: String, product: ProductID)] = [:]
        for (index, p) in products.enumerated() {
            guard let group = p.subscriptionGroup else { continue }
            for id in p.offers.promotional.map(\.id) + p.offers.winBack.map(\.id) {
                let key = "\(group)\u{0}\(id.rawValue)"
                if let first = owner[key], first.product != p.id {
                    throw CatalogError(
                        file: file, product: p.id.rawValue, keyPath: "products[\(index)]",
                        problem:
                            "offer identifier '\(id)' is also an offer of '\(first.product)' in group '\(group)'; offer identifiers are unique within a subscription group"
                    )
                }
                owner[key] = (group, p.id)
            }
        }
    }
}
