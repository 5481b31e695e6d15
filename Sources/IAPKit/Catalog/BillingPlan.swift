/// A billing plan other than up front: "monthly with a 12-month commitment" (WWDC26 "What's new
/// in Apple In-App Purchase"; Xcode's `billingPlans` entry with `billingPlanType` `MONTHLY`).
///
/// The customer is billed `price` every month and commits to `commitmentPeriods` payments
/// ("Apple's Monthly Subscriptions with a 12-Month Commitment bill monthly, but requires the
/// customer to stay active for 12 billing periods", RevenueCat's documentation); the
/// commitment's total is the monthly price times 12 (RevenueCat's `InstallmentsInfoFactory`:
/// `billingPrice * commitmentInstallmentsCount`). The up-front plan is the product's own price
/// and period, so it is not listed here.
public struct BillingPlan: Hashable, Sendable {
    /// Payments in one commitment: Apple's plan is twelve monthly payments for a one-year subscription.
    public static let commitmentPeriods = 12
    /// The period of one payment of the monthly plan.
    public static let monthlyPeriod = SubscriptionPeriod(value: 1, unit: .month)

    public let type: BillingPlanType
    /// The price of one monthly payment, per storefront.
    public let prices: [Product.StorefrontPrice]
    /// As `Product.anyStorefront`.
    public let anyStorefront: Bool

    public init(type: BillingPlanType, prices: [Product.StorefrontPrice], anyStorefront: Bool = false) {
        self.type = type
        self.prices = prices
        self.anyStorefront = anyStorefront
    }

    /// One payment's price in `storefront`, or nil when the plan is not sold there.
    public func price(in storefront: String) -> Price? {
        Product.price(prices, anyStorefront: anyStorefront, in: storefront)
    }

    /// The whole commitment's price in `storefront` (`commitmentInfo.commitmentPrice`).
    public func commitmentPrice(in storefront: String) -> Price? {
        price(in: storefront).map { $0 * BillingPlan.commitmentPeriods }
    }
}
