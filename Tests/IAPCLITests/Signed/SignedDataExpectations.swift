import IAPKit

@testable import IAPJSON

/// What Apple's decoder must read from a signed transaction, derived independently from what
/// `iapctl dump` shows (SPEC section 4 names), so the two can be compared field for field.
enum SignedDataExpectations {
    static let storefrontIDs = ["USA": "143441", "CHN": "143465", "JPN": "143462"]
    static let typeNames = [
        "consumable": "Consumable", "nonConsumable": "Non-Consumable", "autoRenewable": "Auto-Renewable Subscription",
        "nonRenewing": "Non-Renewing Subscription",
    ]

    /// The decoded `JWSTransactionDecodedPayload` for a transaction object of `dump`, keys sorted
    /// as Python's `json.dumps(sort_keys=True)` writes them.
    static func transaction(_ t: JSONValue, signedDate: Int64, bundleID: String = "com.x.demo", environment: String = "Sandbox")
        -> JSONValue
    {
        var fields: [String: JSONValue] = [
            "transactionId": t["transactionIdentifier"]!,
            "originalTransactionId": t["originalTransactionIdentifier"]!,
            "bundleId": .string(bundleID),
            "productId": t["productIdentifier"]!,
            "purchaseDate": t["transactionTimestamp"]!,
            "originalPurchaseDate": t["originalTransactionTimestamp"]!,
            "quantity": t["quantity"]!,
            "type": .string(typeNames[t["productType"]!.stringValue!]!),
            "inAppOwnershipType": .string("PURCHASED"),
            "signedDate": .number(String(signedDate)),
            "environment": .string(environment),
            "transactionReason": .string(t["transactionReason"]!.stringValue!.uppercased()),
            "storefront": t["storefront"]!,
            "storefrontId": .string(storefrontIDs[t["storefront"]!.stringValue!]!),
            "price": .number(String(Price(decimal: t["price"]!.stringValue!)!.milliunits)),
            "currency": t["currency"]!,
            // The account's one app download: the same for every transaction of a store, pinned
            // for the default bundle so a change of the derivation shows.
            "appTransactionId": .string(
                bundleID == "com.x.demo" ? "728089938745053635" : AppTransactionID.of(bundleID: bundleID)),
        ]
        if t["productType"]?.stringValue == "autoRenewable" {
            fields["webOrderLineItemId"] = t["webOrderLineItemIdentifier"]
            fields["subscriptionGroupIdentifier"] = t["subscriptionGroupIdentifier"]
            fields["expiresDate"] = t["expiresTimestamp"]
        }
        if let user = t["userIdentifier"]?.stringValue, user.count == 36, user.split(separator: "-").count == 5 {
            fields["appAccountToken"] = .string(user.lowercased())
        }
        if let revoked = t["revocationTimestamp"], revoked != .null {
            fields["revocationDate"] = revoked
            fields["revocationReason"] = t["revocationReason"]
        }
        if t["isUpgraded"] == .bool(true) { fields["isUpgraded"] = .bool(true) }
        if let offer = t["offerType"]?.stringValue {
            fields["offerType"] = t["offer"]?["offerType"] ?? .number("1")
            fields["offerDiscountType"] = .string(
                ["freeTrial": "FREE_TRIAL", "payAsYouGo": "PAY_AS_YOU_GO", "payUpFront": "PAY_UP_FRONT", "oneTime": "ONE_TIME"][
                    offer]!)
            if let id = t["offer"]?["identifier"], id != .null { fields["offerIdentifier"] = id }
            if let period = t["offer"]?["offerPeriod"], period != .null { fields["offerPeriod"] = period }
        }
        if let plan = t["billingPlan"]?.stringValue {
            fields["billingPlanType"] = .string(plan == "monthly" ? "MONTHLY" : "BILLED_UPFRONT")
        }
        if let c = t["commitment"], c.objectValue != nil {
            fields["commitmentInfo"] = .object([
                ("billingPeriodNumber", c["billingPeriodNumber"]!),
                ("commitmentExpiresDate", c["commitmentExpiresTimestamp"]!),
                ("commitmentPrice", .number(String(Price(decimal: c["commitmentPrice"]!.stringValue!)!.milliunits))),
                ("totalBillingPeriods", c["totalBillingPeriods"]!),
            ])
        }
        return .object(fields.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
    }

    /// The transactions of `dump`, by id.
    static func dump(_ h: CLIHarness) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for t in h.run(["dump"]).json?.arrayValue ?? [] { out[t["transactionIdentifier"]!.stringValue!] = t }
        return out
    }

    /// The store's clock in milliseconds (`clock` prints it).
    static func clock(_ h: CLIHarness) -> Int64 {
        h.run(["clock", "--json"]).json?["clockTimestamp"]?.int64Value ?? -1
    }
}
