import IAPJSON
import IAPTime

extension Transaction {
    /// Reads back a purchased or restored transaction from its public JSON shape
    /// (`TransactionJSON`), as events carry it: the transaction as it was when the event
    /// happened, which is what a notification about that event reports. Other states, and
    /// objects that are not that shape, give nil. Downloads and the upgrade credit are not read
    /// (signed data has no place for them).
    init?(json: JSONValue) {
        guard let id = json["transactionIdentifier"]?.stringValue.flatMap(TransactionID.init(parsing:)),
            let original = json["originalTransactionIdentifier"]?.stringValue.flatMap(TransactionID.init(parsing:)),
            let product = json["productIdentifier"]?.stringValue,
            let type = json["productType"]?.stringValue.flatMap(ProductType.init(rawValue:)),
            let quantity = json["quantity"]?.int64Value,
            let date = json["transactionTimestamp"]?.int64Value,
            let originalDate = json["originalTransactionTimestamp"]?.int64Value,
            let storefront = json["storefront"]?.stringValue,
            let priceText = json["price"]?.stringValue, let price = Price(decimal: priceText),
            let currency = json["currency"]?.stringValue
        else { return nil }
        let state: TransactionState
        switch json["state"]?.stringValue {
        case "purchased": state = .purchased
        case "restored": state = .restored
        default: return nil
        }
        let finished = json["finished"]?.boolValue ?? false
        self.init(
            id: id, originalID: original, productID: ProductID(product), productType: type, quantity: Int(quantity),
            userID: json["userIdentifier"]?.stringValue.map(UserID.init), state: state,
            disposition: finished ? .finished : .queued, date: Timestamp(milliseconds: date),
            originalDate: Timestamp(milliseconds: originalDate), storefront: storefront, price: price, currency: currency,
            charged: json["charged"]?.boolValue ?? false,
            expiresDate: json["expiresTimestamp"]?.int64Value.map(Timestamp.init(milliseconds:)),
            webOrderLineItemID: json["webOrderLineItemIdentifier"]?.stringValue.flatMap { UInt64($0) },
            revocationDate: json["revocationTimestamp"]?.int64Value.map(Timestamp.init(milliseconds:)),
            revocationReason: json["revocationReason"]?.int64Value.map { Int($0) },
            isUpgraded: json["isUpgraded"]?.boolValue ?? false,
            offer: json["offerType"]?.stringValue.flatMap(OfferKind.init(rawValue:)),
            reason: json["transactionReason"]?.stringValue.flatMap(Reason.init(rawValue:)) ?? .purchase,
            subscriptionGroup: json["subscriptionGroupIdentifier"]?.stringValue)
    }
}
