import IAPHTTP
import IAPJSON

/// Extend a Subscription Renewal Date, Extend Subscription Renewal Dates for All Active
/// Subscribers, and Get Status of Subscription Renewal Date Extensions (docs/server-api.md,
/// sections 2.6 and 2.7). The request is checked as Apple checks it (its error codes), the
/// eligibility against the store in the writing session, then one `Command.serverAPI` moves the
/// expiry (a `renewalExtended` event each, hence a RENEWAL_EXTENDED notification). iapctl
/// completes a mass extension at once, in the same commit.
extension AppStoreServerAPI {
    /// The fields both extension requests share.
    struct ExtensionFields {
        let days: Int
        let reason: Int
        let requestIdentifier: String
    }

    static func extensionFields(_ body: JSONValue) -> Result<ExtensionFields, Refusal> {
        guard let days = body["extendByDays"]?.int64Value, (1...Int64(RenewalExtension.maximumDays)).contains(days) else {
            return .failure(
                Refusal(
                    response: AppStoreAPIError.invalidExtendByDays.response(
                        "extendByDays is \(body["extendByDays"]?.serialized() ?? "missing"); give 1 to 90 days.")))
        }
        guard let reason = body["extendReasonCode"]?.int64Value, (0...3).contains(reason) else {
            return .failure(
                Refusal(
                    response: AppStoreAPIError.invalidExtendReasonCode.response(
                        "extendReasonCode is \(body["extendReasonCode"]?.serialized() ?? "missing"); use 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage."
                    )))
        }
        guard let request = body["requestIdentifier"]?.stringValue, !request.isEmpty, request.utf8.count <= 128 else {
            return .failure(
                Refusal(
                    response: AppStoreAPIError.invalidRequestIdentifier.response(
                        "Give requestIdentifier, a string of 1 to 128 characters such as a UUID.")))
        }
        return .success(ExtensionFields(days: Int(days), reason: Int(reason), requestIdentifier: request))
    }

    // MARK: - PUT /inApps/v1/subscriptions/extend/{originalTransactionId}

    func extendRenewalDate(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let original = p["originalTransactionId"].flatMap({ TransactionID(parsing: $0) }) else {
            return AppStoreAPIError.invalidOriginalTransactionId.response(
                "'\(HTTPRequestParser.printable(p["originalTransactionId"] ?? ""))' is not a decimal original transaction identifier."
            )
        }
        guard let body = Self.jsonObject(request) else { return Self.notJSONObject() }
        let fields: ExtensionFields
        switch Self.extensionFields(body) {
        case .failure(let refusal): return refusal.response
        case .success(let f): fields = f
        }
        return writing { session in
            if let refusal = Self.wrongApp(claims, session) { return refusal.response }
            // "a subscription isn't directly eligible for a renewal date extension because the
            // user obtained it through Family Sharing" (FamilySharedSubscriptionExtensionIneligibleError):
            // a member's shared copy is extended through the purchaser's subscription.
            if let t = try session.transaction(original), let member = t.familyMember, !t.isMemberPurchase {
                let purchaser = session.state.purchaserSubscription(ofShared: t)?.originalID
                return AppStoreAPIError.familySharedSubscriptionExtensionIneligible.response(
                    "Transaction \(original) is \(member)'s FAMILY_SHARED copy; extend the purchaser's subscription \(purchaser.map { "\($0)" } ?? "(none)") instead."
                )
            }
            guard let sub = session.state.subscriptions[original] else {
                return AppStoreAPIError.originalTransactionIdNotFound.response(
                    "No auto-renewable subscription has original transaction id \(original) in this store.")
            }
            let extensions = session.state.serverAPIRecords?[original]?.extensions ?? []
            switch RenewalExtension.verdict(sub, extensions: extensions, now: session.state.clock) {
            case .eligible: break
            case .ineligible(let why):
                return AppStoreAPIError.subscriptionExtensionIneligible.response(
                    "Subscription \(original) cannot be extended: \(why).")
            case .tooMany:
                return AppStoreAPIError.subscriptionMaxExtension.response(
                    "Subscription \(original) was already extended twice within the past 365 days.")
            }
            try session.apply(
                .serverAPI(
                    .extendRenewalDate(
                        original: original, days: fields.days, reason: fields.reason, requestIdentifier: fields.requestIdentifier)
                ))
            guard let extended = session.state.subscriptions[original] else {
                return AppStoreAPIError.generalInternal.response("The subscription vanished while it was extended.")
            }
            return .json { w in
                w.beginObject()
                w.key("originalTransactionId")
                w.string(original.description)
                w.key("webOrderLineItemId")
                w.decimalString(extended.webOrderLineItemID)
                w.key("success")
                w.bool(true)
                w.key("effectiveDate")
                w.int(extended.expiresDate.milliseconds)
                w.endObject()
            }
        }
    }

    // MARK: - POST /inApps/v1/subscriptions/extend/mass

    func massExtendRenewalDate(_ request: HTTPRequest, _ claims: BearerTokenClaims) -> HTTPResponse {
        guard let body = Self.jsonObject(request) else { return Self.notJSONObject() }
        let fields: ExtensionFields
        switch Self.extensionFields(body) {
        case .failure(let refusal): return refusal.response
        case .success(let f): fields = f
        }
        guard let product = body["productId"]?.stringValue, !product.isEmpty else {
            return AppStoreAPIError.invalidProductId.response("Give productId, an auto-renewable subscription's product id.")
        }
        var storefronts: [String]?
        if let list = body["storefrontCountryCodes"], list != .null {
            guard let codes = list.arrayValue else {
                return AppStoreAPIError.invalidStorefrontCountryCode.response("storefrontCountryCodes must be an array of codes.")
            }
            guard !codes.isEmpty else {
                return AppStoreAPIError.invalidEmptyStorefrontCountryCodeList.response(
                    "Leave storefrontCountryCodes out for every storefront, or list at least one.")
            }
            var out: [String] = []
            for code in codes {
                guard let text = code.stringValue, Storefront.named(text) != nil else {
                    return AppStoreAPIError.invalidStorefrontCountryCode.response(
                        "\(code.serialized()) is not an App Store storefront; give ISO 3166-1 alpha-3 codes such as USA.")
                }
                out.append(text)
            }
            storefronts = out
        }
        return writing { session in
            if let refusal = Self.wrongApp(claims, session) { return refusal.response }
            guard session.catalog[ProductID(product)]?.type == .autoRenewable else {
                return AppStoreAPIError.invalidProductId.response(
                    "'\(HTTPRequestParser.printable(product))' is not an auto-renewable subscription of this store's catalog.")
            }
            // A requestIdentifier already processed is a resend ("to resend the same request due
            // to a timeout or other error, use the same request identifier"): answered as the
            // first time, and not processed again (no commit, no extension, no notification).
            let resend = session.state.massExtensions?.contains { $0.requestIdentifier == fields.requestIdentifier } == true
            if !resend {
                try session.apply(
                    .serverAPI(
                        .massExtendRenewalDate(
                            ProductID(product), days: fields.days, reason: fields.reason,
                            requestIdentifier: fields.requestIdentifier,
                            storefronts: storefronts)))
            }
            return .json { w in
                w.beginObject()
                w.key("requestIdentifier")
                w.string(fields.requestIdentifier)
                w.endObject()
            }
        }
    }

    // MARK: - GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}

    func massExtensionStatus(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        let product = p["productId"] ?? ""
        let requestIdentifier = p["requestIdentifier"] ?? ""
        return reading { session in
            if let refusal = Self.wrongApp(claims, session) { return refusal.response }
            guard
                let done = session.state.massExtensions?.last(where: {
                    $0.productID.rawValue == product && $0.requestIdentifier == requestIdentifier
                })
            else {
                return AppStoreAPIError.statusRequestNotFound.response(
                    "No mass extension '\(HTTPRequestParser.printable(requestIdentifier))' of '\(HTTPRequestParser.printable(product))'."
                )
            }
            return .json { w in
                w.beginObject()
                w.key("requestIdentifier")
                w.string(done.requestIdentifier)
                w.key("complete")
                w.bool(true)
                w.key("completeDate")
                w.int(done.completeDate.milliseconds)
                w.key("succeededCount")
                w.int(done.succeeded)
                w.key("failedCount")
                w.int(done.failed)
                w.endObject()
            }
        }
    }
}
