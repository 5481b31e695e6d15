/// How an auto-renewable subscription is billed: StoreKit's
/// `Product.SubscriptionInfo.BillingPlanType` (`upFront`, `monthly`) and the App Store Server
/// API's `billingPlanType` (`BILLED_UPFRONT`, `MONTHLY`).
///
/// Every auto-renewable subscription has the up-front plan: one charge per period. A one-year
/// subscription may add "monthly with a 12-month commitment" (iOS 26.4, WWDC26 "What's new in
/// Apple In-App Purchase": "Billing plans can be added to both new and existing, one-year,
/// auto-renewable subscriptions"): the customer pays every month and commits to twelve payments.
/// Offers are set up per plan ("offers can be uniquely created for each billing plan type").
public enum BillingPlanType: String, Hashable, Sendable, CaseIterable, Codable {
    case upFront
    case monthly

    /// The App Store Server API's spelling (`billingPlanType`, `renewalBillingPlanType`) and
    /// Xcode's `.storekit` `billingPlanType`.
    public var serverName: String {
        switch self {
        case .upFront: return "BILLED_UPFRONT"
        case .monthly: return "MONTHLY"
        }
    }

    /// The plan a server or `.storekit` name stands for.
    public init?(serverName: String) {
        guard let plan = BillingPlanType.allCases.first(where: { $0.serverName == serverName }) else { return nil }
        self = plan
    }
}
