import IAPTime

/// Where a billing period of the monthly plan sits in its 12-month commitment: the App Store
/// Server API's `TransactionCommitmentInfo` (`billingPeriodNumber`, `totalBillingPeriods`,
/// `commitmentExpiresDate`, `commitmentPrice`). "For transactions with a .monthly
/// billingPlanType, commitmentInfo returns the progress, price and expiration for the 12-month
/// commitment" (WWDC26 "What's new in Apple In-App Purchase"); up-front transactions have none.
public struct TransactionCommitment: Hashable, Sendable, Codable {
    /// This period's payment, 1 to 12.
    public var billingPeriodNumber: Int
    public var totalBillingPeriods: Int
    /// When the commitment ends.
    public var expiresDate: Timestamp
    /// The whole commitment's price: twelve monthly payments.
    public var price: Price

    public init(billingPeriodNumber: Int, totalBillingPeriods: Int, expiresDate: Timestamp, price: Price) {
        self.billingPeriodNumber = billingPeriodNumber
        self.totalBillingPeriods = totalBillingPeriods
        self.expiresDate = expiresDate
        self.price = price
    }
}
