import IAPJSON

/// The payload of a signed transaction: Apple's `JWSTransactionDecodedPayload` ("a decoded
/// payload that contains transaction information", App Store Server API and App Store Server
/// Notifications), REFERENCE section 7.
///
/// Every field the store knows, with Apple's names and types: identifiers as decimal strings,
/// dates as integer milliseconds since 1970, `price` as an integer in milliunits of `currency`.
/// Fields that do not apply are left out, as Apple leaves them out (not written as null):
/// `webOrderLineItemId`, `subscriptionGroupIdentifier` and `expiresDate` exist for auto-renewable
/// subscriptions only ("expiresDate: the UNIX time, in milliseconds, the subscription expires or
/// renews"); `appAccountToken` only when the user id is a UUID (`AppAccountToken`);
/// `revocationDate` and `revocationReason` only after a refund; `isUpgraded` only when true;
/// `offerType` (1 introductory, 2 promotional, 3 offer code, 4 win-back), `offerIdentifier`
/// (all but introductory offers), `offerDiscountType` (FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT,
/// ONE_TIME for an offer code of a one-time purchase) and `offerPeriod` only for a period bought
/// under an offer; `billingPlanType` for subscriptions of products that offer the monthly plan,
/// and `commitmentInfo` for a monthly-plan period. Keys follow the order of the App Store's own payloads (`transactionId`,
/// `originalTransactionId`, `webOrderLineItemId`, `bundleId`, `productId`,
/// `subscriptionGroupIdentifier`, `purchaseDate`, `originalPurchaseDate`, `expiresDate`,
/// `quantity`, `type`, `appAccountToken`, `inAppOwnershipType`, `signedDate`, ..., `environment`,
/// `transactionReason`, `storefront`, `storefrontId`, `price`, `currency`, `appTransactionId`).
/// `appTransactionId` is the account's (`AppTransactionID`), the same in every transaction.
///
/// The values are the transaction's as `iapctl dump` shows it: `purchaseDate` is
/// `transactionTimestamp`, `originalPurchaseDate` is `originalTransactionTimestamp`, `price` is
/// the per-unit `price` in milliunits. `inAppOwnershipType` is FAMILY_SHARED for a family
/// member's transaction ("The transaction belongs to a family member who benefits from the
/// service", StoreKit, Transaction.OwnershipType.familyShared), else PURCHASED; a member's revoked
/// transaction carries `revocationType` FAMILY_REVOKE (StoreKit's `familyRevocation`: "The
/// transaction was revoked due to a family sharing revocation").
public enum SignedTransactionPayload {
    public static func write(_ t: Transaction, context: SignedDataContext, into w: inout JSONWriter) {
        let autoRenewable = t.productType == .autoRenewable
        w.beginObject()
        w.key("transactionId")
        w.decimalString(t.id.rawValue)
        w.key("originalTransactionId")
        w.decimalString(t.originalID.rawValue)
        if autoRenewable, let line = t.webOrderLineItemID {
            w.key("webOrderLineItemId")
            w.decimalString(line)
        }
        w.key("bundleId")
        w.string(context.bundleID)
        w.key("productId")
        w.string(t.productID.rawValue)
        if autoRenewable, let group = t.subscriptionGroup {
            w.key("subscriptionGroupIdentifier")
            w.string(group)
        }
        w.key("purchaseDate")
        w.int(t.date.milliseconds)
        w.key("originalPurchaseDate")
        w.int(t.originalDate.milliseconds)
        if autoRenewable, let expires = t.expiresDate {
            w.key("expiresDate")
            w.int(expires.milliseconds)
        }
        w.key("quantity")
        w.int(t.quantity)
        w.key("type")
        w.string(t.productType.signedTypeName)
        if let token = context.appAccountToken(original: t.originalID, purchased: AppAccountToken.token(for: t.userID)) {
            w.key("appAccountToken")
            w.string(token)
        }
        w.key("inAppOwnershipType")
        w.string(t.inAppOwnershipType)
        w.key("signedDate")
        w.int(context.signedDate.milliseconds)
        if let reason = t.revocationReason, t.revocationDate != nil {
            w.key("revocationReason")
            w.int(reason)
        }
        if let revoked = t.revocationDate {
            w.key("revocationDate")
            w.int(revoked.milliseconds)
            if t.familyMember != nil, !t.isMemberPurchase {
                w.key("revocationType")
                w.string("FAMILY_REVOKE")
            }
        }
        // An approved refund request says how much was refunded (issue 15): revocationType
        // REFUND_FULL or REFUND_PRORATED and revocationPercentage in milliunits.
        if t.revocationDate != nil, let type = t.revocationType {
            w.key("revocationType")
            w.string(type.rawValue)
            if let p = t.revocationPercentage {
                w.key("revocationPercentage")
                w.int(p)
            }
        }
        if t.isUpgraded {
            w.key("isUpgraded")
            w.bool(true)
        }
        if let type = t.offerType {
            w.key("offerType")
            w.int(type.rawValue)
        }
        if let id = t.offerID {
            w.key("offerIdentifier")
            w.string(id.rawValue)
        }
        w.key("environment")
        w.string(context.environmentName)
        w.key("transactionReason")
        w.string(t.reason == .renewal ? "RENEWAL" : "PURCHASE")
        w.key("storefront")
        w.string(t.storefront)
        if let id = Storefront.named(t.storefront)?.storefrontID {
            w.key("storefrontId")
            w.string(id)
        }
        w.key("price")
        w.int(t.price.milliunits)
        w.key("currency")
        w.string(t.currency)
        if let offer = t.offer {
            w.key("offerDiscountType")
            w.string(offer.discountType)
        }
        if let period = t.offerPeriod {
            w.key("offerPeriod")
            w.string(period.iso8601)
        }
        if let plan = t.billingPlan {
            w.key("billingPlanType")
            w.string(plan.serverName)
        }
        if let c = t.commitment {
            w.key("commitmentInfo")
            w.beginObject()
            w.key("billingPeriodNumber")
            w.int(c.billingPeriodNumber)
            w.key("commitmentExpiresDate")
            w.int(c.expiresDate.milliseconds)
            w.key("commitmentPrice")
            w.int(c.price.milliunits)
            w.key("totalBillingPeriods")
            w.int(c.totalBillingPeriods)
            w.endObject()
        }
        if let app = context.appTransactionID {
            w.key("appTransactionId")
            w.string(app)
        }
        w.endObject()
    }

    /// The payload bytes.
    public static func bytes(_ t: Transaction, context: SignedDataContext) -> [UInt8] {
        var w = JSONWriter(capacity: 768)
        write(t, context: context, into: &w)
        return w.bytes
    }
}
