import IAPHTTP
import IAPJSON

/// The App Store Server API endpoints through which a backend tells the App Store about a
/// customer's transaction: Set App Account Token and Send Consumption Information v1 and v2
/// (docs/server-api.md, sections 2.10 and 2.11). Each validates the request as Apple does (its
/// error codes), then applies one `Command.serverAPI` in a writing session, which records it in
/// the store and leaves an event.
extension AppStoreServerAPI {
    // MARK: - PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken

    func setAppAccountToken(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = p["originalTransactionId"].flatMap({ TransactionID(parsing: $0) }) else {
            return AppStoreAPIError.invalidOriginalTransactionId.response(
                "'\(HTTPRequestParser.printable(p["originalTransactionId"] ?? ""))' is not a decimal original transaction identifier."
            )
        }
        guard let body = Self.jsonObject(request) else { return Self.notJSONObject() }
        guard let given = body["appAccountToken"]?.stringValue, let token = AppAccountToken.token(for: UserID(given)) else {
            return AppStoreAPIError.invalidAppAccountTokenUUID.response(
                "Give appAccountToken as a UUID such as 7e3fb20b-4cdb-47cc-936d-99d65f608138.")
        }
        return writing { session in
            let t: Transaction
            switch try Self.lookUp(id, claims: claims, in: session) {
            case .failure(let refusal): return refusal.response
            case .success(let found): t = found
            }
            guard t.id == t.originalID else {
                return AppStoreAPIError.transactionIdIsNotOriginalTransactionId.response(
                    "\(t.id) belongs to original transaction \(t.originalID); set the token there.")
            }
            try session.apply(.serverAPI(.setAppAccountToken(original: t.id, token: token)))
            return HTTPResponse(status: .ok)
        }
    }

    // MARK: - PUT /inApps/v{1,2}/transactions/consumption/{transactionId}

    /// Send Consumption Information: v1 (deprecated) takes integer enumerations for consumables
    /// and auto-renewable subscriptions; v2 takes strings and any product type. Both need
    /// `customerConsented` true and answer 202 Accepted with no body, as Apple does.
    func consumptionInformation(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters, version: Int)
        -> HTTPResponse
    {
        guard let id = Self.transactionID(p) else { return Self.badTransactionID(p) }
        guard let body = Self.jsonObject(request) else { return Self.notJSONObject() }
        if let refusal = version == 1 ? Self.checkConsumptionV1(body) : Self.checkConsumptionV2(body) { return refusal.response }
        return writing { session in
            let t: Transaction
            switch try Self.lookUp(id, claims: claims, in: session) {
            case .failure(let refusal): return refusal.response
            case .success(let found): t = found
            }
            if version == 1 && t.productType != .consumable && t.productType != .autoRenewable {
                return AppStoreAPIError.invalidTransactionTypeNotSupported.response(
                    "Consumption information v1 takes consumables and auto-renewable subscriptions; \(t.id) is \(t.productType.signedTypeName). Use v2."
                )
            }
            try session.apply(.serverAPI(.consumptionInformation(t.id, version: version, body: body.serialized())))
            return HTTPResponse(status: .accepted)
        }
    }

    /// v1's fields (appstoreserverapi/consumptionrequestv1): each an integer in its range.
    static func checkConsumptionV1(_ body: JSONValue) -> Refusal? {
        if let refusal = consented(body) { return refusal }
        let ranges: [(String, ClosedRange<Int64>, AppStoreAPIError)] = [
            ("consumptionStatus", 0...3, .invalidConsumptionStatus), ("platform", 0...2, .invalidPlatform),
            ("deliveryStatus", 0...5, .invalidDeliveryStatus), ("accountTenure", 0...7, .invalidAccountTenure),
            ("playTime", 0...7, .invalidPlayTime), ("lifetimeDollarsRefunded", 0...7, .invalidLifetimeDollarsRefunded),
            ("lifetimeDollarsPurchased", 0...7, .invalidLifetimeDollarsPurchased), ("userStatus", 0...4, .invalidUserStatus),
            ("refundPreference", 0...3, .generalBadRequest),
        ]
        for (key, range, error) in ranges {
            guard let value = body[key] else { continue }
            guard let n = value.int64Value, range.contains(n) else {
                return Refusal(
                    response: error.response("\(key) is \(value.serialized()); use \(range.lowerBound) to \(range.upperBound)."))
            }
        }
        if let sample = body["sampleContentProvided"], sample.boolValue == nil {
            return Refusal(response: AppStoreAPIError.invalidSampleContentProvided.response("Give true or false."))
        }
        if let token = body["appAccountToken"] {
            guard let text = token.stringValue, text.isEmpty || AppAccountToken.token(for: UserID(text)) != nil else {
                return Refusal(response: AppStoreAPIError.invalidAppAccountToken.response("Give a UUID, or an empty string."))
            }
        }
        return nil
    }

    /// v2's fields (appstoreserverapi/consumptionrequest).
    static func checkConsumptionV2(_ body: JSONValue) -> Refusal? {
        if let refusal = consented(body) { return refusal }
        if let sample = body["sampleContentProvided"], sample.boolValue == nil {
            return Refusal(response: AppStoreAPIError.invalidSampleContentProvided.response("Give true or false."))
        }
        let delivery = [
            "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
        ]
        if let value = body["deliveryStatus"], !delivery.contains(value.stringValue ?? "") {
            return Refusal(
                response: AppStoreAPIError.invalidDeliveryStatus.response(
                    "deliveryStatus is \(value.serialized()); use \(delivery.joined(separator: ", "))."))
        }
        let preference = body["refundPreference"]?.stringValue
        if let value = body["refundPreference"], !["DECLINE", "GRANT_FULL", "GRANT_PRORATED"].contains(value.stringValue ?? "") {
            return Refusal(
                response: AppStoreAPIError.generalBadRequest.response(
                    "refundPreference is \(value.serialized()); use DECLINE, GRANT_FULL or GRANT_PRORATED."))
        }
        if let value = body["consumptionPercentage"] {
            // Milliunits of a percent (appstoreserverapi/consumptionpercentage); above 0 with GRANT_PRORATED.
            guard let n = value.int64Value, (0...100_000).contains(n), preference != "GRANT_PRORATED" || n > 0 else {
                return Refusal(
                    response: AppStoreAPIError.generalBadRequest.response(
                        "consumptionPercentage is \(value.serialized()); use 0 to 100000 milliunits (above 0 with GRANT_PRORATED)."
                    ))
            }
        }
        return nil
    }

    static func consented(_ body: JSONValue) -> Refusal? {
        guard body["customerConsented"]?.boolValue == true else {
            return Refusal(
                response: AppStoreAPIError.invalidCustomerConsented.response(
                    "Send consumption information only with the customer's consent: customerConsented true."))
        }
        return nil
    }

    /// The request body as a JSON object, or nil.
    static func jsonObject(_ request: HTTPRequest) -> JSONValue? {
        guard let value = try? JSONParser.parse(request.body), value.objectValue != nil else { return nil }
        return value
    }

    static func notJSONObject() -> HTTPResponse {
        AppStoreAPIError.generalBadRequest.response("The request body must be a JSON object (Content-Type: application/json).")
    }
}
