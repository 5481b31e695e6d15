import IAPTime

/// A malformed argument caught by IAPKit (`StoreError.badArgument`, exit 64): the value and the
/// form it must take. `description` is the line the CLI prints after `error: `.
public enum ArgumentProblem: Hashable, Sendable, CustomStringConvertible {
    // MARK: - Downloads

    /// Download progress outside (downloaded, contentLength].
    case downloadProgress(Int64, content: String, of: TransactionID, downloaded: Int64, length: Int64)
    /// Self-hosted content progress outside 0...10000 basis points.
    case contentProgress(Int)

    // MARK: - Counts and dates

    /// `fault add --count` outside 1...maximum.
    case faultCount(Int, maximum: Int)
    /// `consume` count outside 1...maximum.
    case consumeCount(Int, maximum: Int)
    /// A clock target past the last date iapctl writes.
    case clockPastLimit(limit: Timestamp, at: Timestamp)

    // MARK: - Subscriptions and refunds

    /// A product named as a subscription that is not auto-renewable (`type`).
    case notASubscription(ProductID, ProductType)
    /// `refund --reason` other than 0 or 1.
    case refundReason(Int)
    /// `refund approve --percent` outside 1...100.
    case refundPercent(Int)

    // MARK: - Storefronts, offers

    /// A storefront code no App Store storefront has.
    case unknownStorefront(String)
    /// An offer key id that is not a valid key id.
    case offerKeyID(String)
    /// `--billing-plan monthly` for a product without one.
    case noMonthlyPlan(ProductID)
    /// `--billing-plan monthly` where the plan is not sold in `storefront`.
    case monthlyPlanNotSold(ProductID, storefront: String)

    // MARK: - The store's catalog

    /// `--catalog` naming another catalog than the store's; `replace` is the command line that
    /// replaces the store.
    case otherCatalog(store: String, bound: String, given: String, replace: String)

    public var description: String {
        switch self {
        case .otherCatalog(let store, let bound, let given, let replace):
            return
                "store \(store) is bound to catalog '\(bound)', not \(given); drop --catalog to use the store as it is, or replace it with '\(replace)' (its transactions are lost)"
        case .unknownStorefront(let code):
            return "unknown storefront '\(code)'; give an ISO 3166-1 alpha-3 code such as USA, GBR, FRA"
        case .offerKeyID(let id):
            return OfferKeyError.badID(id).description
        case .noMonthlyPlan(let id):
            return
                "product '\(id)' has no monthly billing plan (monthly with a 12-month commitment is for one-year subscriptions that set it up); drop --billing-plan or see 'iapctl products \(id)'"
        case .monthlyPlanNotSold(let id, let storefront):
            return "the monthly billing plan of '\(id)' is not sold in storefront \(storefront); drop --billing-plan"
        case .downloadProgress(let bytes, let content, let id, let downloaded, let length):
            return
                "progress \(bytes) for download '\(content)' of transaction \(id) must be above \(downloaded) and at most \(length) bytes"
        case .contentProgress(let basisPoints):
            return "progress \(basisPoints) basis points is out of range; use 0 to 10000"
        case .notASubscription(let id, let type):
            return
                "'\(id)' is \(type.rawValue), not an auto-renewable subscription; name a subscription product or an original transaction id"
        case .refundReason(let reason):
            return "bad refund reason \(reason); use 0 (other) or 1 (an issue in the app)"
        case .refundPercent(let percent):
            return "bad --percent \(percent); give 1 to 100 (100, the default, refunds in full)"
        case .faultCount(let count, let maximum):
            return "fault count \(count) is out of range; use 1 to \(maximum)"
        case .consumeCount(let count, let maximum):
            return "consume count \(count) is out of range; use 1 to \(maximum)"
        case .clockPastLimit(let limit, let at):
            return
                "cannot move the clock past \(limit.rfc3339), the last date iapctl writes (it is at \(at.rfc3339)); give an earlier date or a shorter duration"
        }
    }
}
