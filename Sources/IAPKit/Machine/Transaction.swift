import IAPCrypto
import IAPTime

/// One payment transaction (`SKPaymentTransaction`), as the store persists and prints it.
///
/// Restored transactions and subscription renewals are new transactions that point at the
/// original purchase through `originalID` and `originalDate` (REFERENCE section 1).
public struct Transaction: Hashable, Sendable, Codable {
    public let id: TransactionID
    public var originalID: TransactionID
    public let productID: ProductID
    public let productType: ProductType
    public var quantity: Int
    /// The payment's `applicationUsername`, or nil.
    public var userID: UserID?
    public var state: TransactionState
    /// In the payment queue, finished, or deleted: one lifecycle, so a transaction cannot be
    /// both deleted and still queued.
    public var disposition: Disposition
    public var date: Timestamp
    public var originalDate: Timestamp
    public var storefront: String
    /// The product's price in the storefront's currency, per unit.
    public var price: Price
    public var currency: String
    /// Whether money moved: false for restores, failures, and re-buying what is already owned.
    public var charged: Bool
    public var downloads: [Download]
    /// Subscriptions: when this period ends.
    public var expiresDate: Timestamp?
    /// Subscriptions: identifies one billing period across devices (`web_order_line_item_id`).
    public var webOrderLineItemID: UInt64?
    /// Set by a refund (`cancellation_date` in receipts, `revocationDate` in StoreKit 2).
    public var revocationDate: Timestamp?
    /// 0: refunded for another reason, 1: refunded because of an issue in the app.
    public var revocationReason: Int?
    /// `revocationType` after a refund request was approved (REFUND_FULL, REFUND_PRORATED); nil
    /// for Xcode's immediate refund, which has none.
    public var revocationType: RevocationType? = nil
    /// `revocationPercentage`, in milliunits (100000 is 100%), with `revocationType`.
    public var revocationPercentage: Int? = nil
    /// Set when the user upgraded to a higher level in the subscription group.
    public var isUpgraded: Bool
    /// The payment mode of the offer this period (or one-time purchase) was bought under, if
    /// any (`offerDiscountType`); `offerType` says which kind of offer.
    public var offer: OfferKind?
    /// Why the transaction exists: a purchase or a subscription renewal.
    public var reason: Reason
    /// The subscription group (auto-renewables).
    public var subscriptionGroup: String?
    /// An immediate upgrade or crossgrade: the prorated credit for the unused part of the period
    /// it replaced, in that period's currency.
    public var upgradeCredit: Price?

    /// What became of a transaction after it was made.
    public enum Disposition: Hashable, Sendable {
        /// Unfinished: in the payment queue until the app calls `finishTransaction`.
        case queued
        /// The app called `finishTransaction`; the transaction left the queue for history.
        case finished
        /// A tombstone: `iapctl delete` or `clear` removed the transaction from history (Xcode's
        /// deleteTransaction). The store keeps the record (the journal is append-only) but hides
        /// it from dump, show and lookups; it leaves the queue too. It remembers whether the app had
        /// finished it, which the `transactionDeleted` event prints.
        case deleted(wasFinished: Bool)
    }

    // MARK: - Offers

    /// The kind of offer (`offerType` 1-4); set whenever `offer` is. Records written before
    /// iapctl had other offers read `.introductory` for an offer without it.
    public var offerType: OfferType?
    /// `offerIdentifier`: the promotional or win-back offer's identifier, or the offer code's
    /// reference name; nil for introductory offers.
    public var offerID: OfferID?
    /// `offerPeriod`: the whole offer's duration (one period of the offer times its count).
    public var offerPeriod: SubscriptionPeriod?
    /// `billingPlanType`, for subscriptions of products that offer the monthly plan.
    public var billingPlan: BillingPlanType?
    /// `commitmentInfo`: where a monthly-plan period sits in its commitment.
    public var commitment: TransactionCommitment?

    // MARK: - Family Sharing

    /// The family member this transaction belongs to (`inAppOwnershipType` FAMILY_SHARED), or
    /// nil for the account's own (PURCHASED). See `Family`.
    public var familyMember: String?
    /// A family member's own purchase (`buy --member`): the member's, but PURCHASED.
    public var isMemberPurchase = false

    /// `inAppOwnershipType`: FAMILY_SHARED for a member's shared transaction, else PURCHASED.
    public var inAppOwnershipType: String { familyMember == nil || isMemberPurchase ? "PURCHASED" : "FAMILY_SHARED" }

    public enum Reason: String, Hashable, Sendable, Codable {
        case purchase, renewal
    }

    /// `offerDiscountType`: an offer's payment mode, or `oneTime` for an offer code of a
    /// consumable, non-consumable or non-renewing subscription.
    public enum OfferKind: String, Hashable, Sendable, Codable {
        case freeTrial, payAsYouGo, payUpFront, oneTime

        /// The App Store Server API's spelling.
        public var discountType: String {
            switch self {
            case .freeTrial: return "FREE_TRIAL"
            case .payAsYouGo: return "PAY_AS_YOU_GO"
            case .payUpFront: return "PAY_UP_FRONT"
            case .oneTime: return "ONE_TIME"
            }
        }

        /// The payment mode of a subscription offer's terms.
        public init(_ mode: OfferTerms.PaymentMode) {
            switch mode {
            case .freeTrial: self = .freeTrial
            case .payAsYouGo: self = .payAsYouGo
            case .payUpFront: self = .payUpFront
            }
        }
    }

    public init(
        id: TransactionID, originalID: TransactionID, productID: ProductID, productType: ProductType, quantity: Int,
        userID: UserID?, state: TransactionState, disposition: Disposition = .queued, date: Timestamp, originalDate: Timestamp,
        storefront: String, price: Price, currency: String, charged: Bool, downloads: [Download] = [],
        expiresDate: Timestamp? = nil, webOrderLineItemID: UInt64? = nil, revocationDate: Timestamp? = nil,
        revocationReason: Int? = nil, isUpgraded: Bool = false, offer: OfferKind? = nil, reason: Reason = .purchase,
        subscriptionGroup: String? = nil, upgradeCredit: Price? = nil, offerType: OfferType? = nil,
        offerID: OfferID? = nil, offerPeriod: SubscriptionPeriod? = nil, billingPlan: BillingPlanType? = nil,
        commitment: TransactionCommitment? = nil
    ) {
        self.id = id
        self.originalID = originalID
        self.productID = productID
        self.productType = productType
        self.quantity = quantity
        self.userID = userID
        self.state = state
        self.disposition = disposition
        self.date = date
        self.originalDate = originalDate
        self.storefront = storefront
        self.price = price
        self.currency = currency
        self.charged = charged
        self.downloads = downloads
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.isUpgraded = isUpgraded
        self.offer = offer
        self.reason = reason
        self.subscriptionGroup = subscriptionGroup
        self.upgradeCredit = upgradeCredit
        self.offerType = offerType ?? (offer != nil ? .introductory : nil)
        self.offerID = offerID
        self.offerPeriod = offerPeriod
        self.billingPlan = billingPlan
        self.commitment = commitment
    }

    /// Purchased or restored: the app has the product to deliver.
    public var isDelivered: Bool { state.isDelivered }

    /// Whether the transaction is in the payment queue: not yet finished.
    public var isInQueue: Bool { disposition == .queued }

    /// Whether the app called `finishTransaction` (before any deletion).
    public var finished: Bool {
        switch disposition {
        case .queued: return false
        case .finished: return true
        case .deleted(let wasFinished): return wasFinished
        }
    }

    /// Whether `iapctl delete` or `clear` made it a tombstone.
    public var isDeleted: Bool {
        switch disposition {
        case .queued, .finished: return false
        case .deleted: return true
        }
    }

    /// The tombstone of this transaction, as `delete` and `clear` leave it.
    public var deleted: Transaction {
        var t = self
        t.disposition = .deleted(wasFinished: finished)
        return t
    }
}

extension Transaction {
    /// In the state file a transaction is its journal record, base64-encoded: a queue of many
    /// thousands of unfinished renewals then loads in a fraction of the time field-by-field JSON
    /// takes, and there is one binary form of a transaction to keep in step, not two.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let bytes = Base64.decode(text), let t = bytes.withUnsafeBytes({ TransactionRecordCodec.decode($0) }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a transaction record"))
        }
        self = t
    }

    public func encode(to encoder: any Encoder) throws {
        var w = ByteWriter(capacity: 160)
        TransactionRecordCodec.encode(self, into: &w)
        var container = encoder.singleValueContainer()
        try container.encode(Base64.encode(w.bytes))
    }
}
