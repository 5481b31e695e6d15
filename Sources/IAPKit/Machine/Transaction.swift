import IAPCrypto
import IAPTime

/// One payment transaction (`SKPaymentTransaction`), as the store persists and prints it.
///
/// Restored transactions and subscription renewals are new transactions that point at the
/// original purchase through `originalID` and `originalDate` (REFERENCE section 1).
public struct Transaction: Hashable, Sendable, Codable {
    public var id: TransactionID { box.fields.id }
    public var originalID: TransactionID {
        get { box.fields.originalID }
        _modify { yield &fields.originalID }
    }
    public var productID: ProductID { box.fields.productID }
    public var productType: ProductType { box.fields.productType }
    public var quantity: Int {
        get { box.fields.quantity }
        _modify { yield &fields.quantity }
    }
    /// The payment's `applicationUsername`, or nil.
    public var userID: UserID? {
        get { box.fields.userID }
        _modify { yield &fields.userID }
    }
    /// Kept beside the box, not in it, with `disposition` and `charged`: what a purchase and a
    /// finish change. Moving a transaction along its lifecycle then changes a word of its own
    /// and shares every other field with the version before it (which an event still holds),
    /// instead of copying them all into a new box.
    public var state: TransactionState
    /// In the payment queue, finished, or deleted: one lifecycle, so a transaction cannot be
    /// both deleted and still queued.
    public var disposition: Disposition
    public var date: Timestamp {
        get { box.fields.date }
        _modify { yield &fields.date }
    }
    public var originalDate: Timestamp {
        get { box.fields.originalDate }
        _modify { yield &fields.originalDate }
    }
    public var storefront: String {
        get { box.fields.storefront }
        _modify { yield &fields.storefront }
    }
    /// The product's price in the storefront's currency, per unit.
    public var price: Price {
        get { box.fields.price }
        _modify { yield &fields.price }
    }
    public var currency: String {
        get { box.fields.currency }
        _modify { yield &fields.currency }
    }
    /// Whether money moved: false for restores, failures, and re-buying what is already owned.
    public var charged: Bool
    public var downloads: [Download] {
        get { box.fields.downloads }
        _modify { yield &fields.downloads }
    }
    /// Subscriptions: when this period ends.
    public var expiresDate: Timestamp? {
        get { box.fields.expiresDate }
        _modify { yield &fields.expiresDate }
    }
    /// Subscriptions: identifies one billing period across devices (`web_order_line_item_id`).
    public var webOrderLineItemID: UInt64? {
        get { box.fields.webOrderLineItemID }
        _modify { yield &fields.webOrderLineItemID }
    }
    /// Set by a refund (`cancellation_date` in receipts, `revocationDate` in StoreKit 2).
    public var revocationDate: Timestamp? {
        get { box.fields.revocationDate }
        _modify { yield &fields.revocationDate }
    }
    /// 0: refunded for another reason, 1: refunded because of an issue in the app.
    public var revocationReason: Int? {
        get { box.fields.revocationReason }
        _modify { yield &fields.revocationReason }
    }
    /// `revocationType` after a refund request was approved (REFUND_FULL, REFUND_PRORATED); nil
    /// for Xcode's immediate refund, which has none.
    public var revocationType: RevocationType? {
        get { box.fields.revocationType }
        _modify { yield &fields.revocationType }
    }
    /// `revocationPercentage`, in milliunits (100000 is 100%), with `revocationType`.
    public var revocationPercentage: Int? {
        get { box.fields.revocationPercentage }
        _modify { yield &fields.revocationPercentage }
    }
    /// Set when the user upgraded to a higher level in the subscription group.
    public var isUpgraded: Bool {
        get { box.fields.isUpgraded }
        _modify { yield &fields.isUpgraded }
    }
    /// The payment mode of the offer this period (or one-time purchase) was bought under, if
    /// any (`offerDiscountType`); `offerType` says which kind of offer.
    public var offer: OfferKind? {
        get { box.fields.offer }
        _modify { yield &fields.offer }
    }
    /// Why the transaction exists: a purchase or a subscription renewal.
    public var reason: Reason {
        get { box.fields.reason }
        _modify { yield &fields.reason }
    }
    /// The subscription group (auto-renewables).
    public var subscriptionGroup: String? {
        get { box.fields.subscriptionGroup }
        _modify { yield &fields.subscriptionGroup }
    }
    /// An immediate upgrade or crossgrade: the prorated credit for the unused part of the period
    /// it replaced, in that period's currency.
    public var upgradeCredit: Price? {
        get { box.fields.upgradeCredit }
        _modify { yield &fields.upgradeCredit }
    }

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
    public var offerType: OfferType? {
        get { box.fields.offerType }
        _modify { yield &fields.offerType }
    }
    /// `offerIdentifier`: the promotional or win-back offer's identifier, or the offer code's
    /// reference name; nil for introductory offers.
    public var offerID: OfferID? {
        get { box.fields.offerID }
        _modify { yield &fields.offerID }
    }
    /// `offerPeriod`: the whole offer's duration (one period of the offer times its count).
    public var offerPeriod: SubscriptionPeriod? {
        get { box.fields.offerPeriod }
        _modify { yield &fields.offerPeriod }
    }
    /// `billingPlanType`, for subscriptions of products that offer the monthly plan.
    public var billingPlan: BillingPlanType? {
        get { box.fields.billingPlan }
        _modify { yield &fields.billingPlan }
    }
    /// `commitmentInfo`: where a monthly-plan period sits in its commitment.
    public var commitment: TransactionCommitment? {
        get { box.fields.commitment }
        _modify { yield &fields.commitment }
    }

    // MARK: - Family Sharing

    /// The family member this transaction belongs to (`inAppOwnershipType` FAMILY_SHARED), or
    /// nil for the account's own (PURCHASED). See `Family`.
    public var familyMember: String? {
        get { box.fields.familyMember }
        _modify { yield &fields.familyMember }
    }
    /// A family member's own purchase (`buy --member`): the member's, but PURCHASED.
    public var isMemberPurchase: Bool {
        get { box.fields.isMemberPurchase }
        _modify { yield &fields.isMemberPurchase }
    }

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
        self.state = state
        self.disposition = disposition
        self.charged = charged
        self.box = Box(
            Fields(
                id: id,
                originalID: originalID,
                productID: productID,
                productType: productType,
                quantity: quantity,
                userID: userID,
                date: date,
                originalDate: originalDate,
                storefront: storefront,
                price: price,
                currency: currency,
                downloads: downloads,
                expiresDate: expiresDate,
                webOrderLineItemID: webOrderLineItemID,
                revocationDate: revocationDate,
                revocationReason: revocationReason,
                revocationType: nil,
                revocationPercentage: nil,
                isUpgraded: isUpgraded,
                offer: offer,
                reason: reason,
                subscriptionGroup: subscriptionGroup,
                upgradeCredit: upgradeCredit,
                offerType: offerType ?? (offer != nil ? .introductory : nil),
                offerID: offerID,
                offerPeriod: offerPeriod,
                billingPlan: billingPlan,
                commitment: commitment,
                familyMember: nil,
                isMemberPurchase: false))
    }

    // MARK: - Storage

    /// The stored fields, held in one copy-on-write box: a transaction is copied into every event,
    /// outcome and queue entry an `apply` makes, and copying a box is one retain where copying the
    /// fields themselves was one per string, array and enum payload (the purchase+finish cycle
    /// of `iapbench` spent most of its time in those copies and their releases).
    struct Fields: Hashable, Sendable {
        var id: TransactionID
        var originalID: TransactionID
        var productID: ProductID
        var productType: ProductType
        var quantity: Int
        var userID: UserID?
        var date: Timestamp
        var originalDate: Timestamp
        var storefront: String
        var price: Price
        var currency: String
        var downloads: [Download]
        var expiresDate: Timestamp?
        var webOrderLineItemID: UInt64?
        var revocationDate: Timestamp?
        var revocationReason: Int?
        var revocationType: RevocationType?
        var revocationPercentage: Int?
        var isUpgraded: Bool
        var offer: OfferKind?
        var reason: Reason
        var subscriptionGroup: String?
        var upgradeCredit: Price?
        var offerType: OfferType?
        var offerID: OfferID?
        var offerPeriod: SubscriptionPeriod?
        var billingPlan: BillingPlanType?
        var commitment: TransactionCommitment?
        var familyMember: String?
        var isMemberPurchase: Bool
    }

    /// Shared between copies until one of them changes a field (`fields`'s `_modify` then
    /// copies it first), so a box is never mutated while another transaction holds it.
    final class Box: @unchecked Sendable {
        /// Unchecked: a box is reached only through its `Transaction`, whose own exclusivity the
        /// compiler enforces, and is written only while that transaction holds it alone (`fields`
        /// below). A checked class property made every field read a runtime access check.
        @exclusivity(unchecked) var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// The fields for writing: the box is copied first unless this transaction is its only holder.
    private var fields: Fields {
        get { box.fields }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }

    public static func == (a: Transaction, b: Transaction) -> Bool {
        // Two versions of one transaction (what a commit compares) mostly differ in one of these:
        // read alone, they answer before the whole field list is copied out and compared.
        if a.disposition != b.disposition || a.state != b.state || a.charged != b.charged { return false }
        if a.box === b.box { return true }
        if a.id != b.id { return false }
        return a.box.fields == b.box.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(state)
        hasher.combine(disposition)
        hasher.combine(charged)
        box.fields.hash(into: &hasher)
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
