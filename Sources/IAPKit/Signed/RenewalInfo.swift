import IAPTime

/// What the signed renewal information of an auto-renewable subscription says: the fields of
/// Apple's `JWSRenewalInfoDecodedPayload` ("a decoded payload containing subscription renewal
/// information for an auto-renewable subscription", App Store Server API) that the store knows.
///
/// Built from the subscription engine's record (`Subscription`) for `iapctl jws renewal` and the
/// server, or from the snapshot a subscription event carries for notifications
/// (`NotificationLog`); `SignedRenewalInfoPayload` writes it.
public struct RenewalInfo: Hashable, Sendable {
    public var originalTransactionID: TransactionID
    /// `productId`: the product of the current period.
    public var productID: ProductID
    /// `autoRenewProductId`: "the product identifier of the product that renews at the next
    /// billing period".
    public var autoRenewProductID: ProductID
    /// `autoRenewStatus`: 1 on, 0 off.
    public var autoRenew: Bool
    /// `expirationIntent` (1 cancelled, 2 billing error, 3 price increase declined, 4 product
    /// unavailable, 5 other), once the subscription expired.
    public var expirationIntent: Int?
    /// `isInBillingRetryPeriod`, written once the subscription is not active (Apple leaves it out
    /// of an active subscription's renewal info).
    public var isInBillingRetryPeriod: Bool?
    /// `gracePeriodExpiresDate`, while in the Billing Grace Period.
    public var gracePeriodExpiresDate: Timestamp?
    /// The offer the next period renews under (`offerType`, `offerIdentifier`,
    /// `offerDiscountType`, `offerPeriod`): the rest of a pay-as-you-go offer, or an offer
    /// redeemed for the renewal ("the offer applying at the next renewal").
    public var renewalOffer: RenewalOffer?
    /// `renewalPrice` (milliunits) and `currency` of the next period, when the renewal product is
    /// priced in the storefront.
    public var renewalPrice: Price?
    public var currency: String?
    /// `recentSubscriptionStartDate` (see `Subscription.recentStartDate`).
    public var recentSubscriptionStartDate: Timestamp
    /// `renewalDate`: "the UNIX time, in milliseconds, when the most recent auto-renewable
    /// subscription purchase expires ... always present ... even for expired subscriptions".
    public var renewalDate: Timestamp
    /// `appAccountToken`, when the subscriber's user id is a UUID.
    public var appAccountToken: String?
    /// `eligibleWinBackOfferIds`, for a subscription that has churned: the win-back offers the
    /// customer may redeem, best first (left out when there are none).
    public var eligibleWinBackOfferIDs: [OfferID] = []
    /// `renewalBillingPlanType` and `commitmentInfo`, while the subscription is in a commitment:
    /// "they are only present in the renewal info when the subscription is currently in a
    /// commitment" (WWDC26 "What's new in Apple In-App Purchase").
    public var renewalBillingPlan: BillingPlanType?
    public var commitment: RenewalCommitment?
    /// The subscription's status (the App Store Server API's `status`; a notification's
    /// `data.status`).
    public var status: SubscriptionStatus
    /// `priceIncreaseStatus` while a price increase waits for the renewal (issue 15): 0 not yet
    /// answered (or declined), 1 accepted or needing no consent; left out otherwise.
    public var priceIncreaseStatus: Int? = nil

    /// Shows a price increase the subscriber was told of: `priceIncreaseStatus`, and the next
    /// period's price is the raised one.
    public mutating func apply(_ consent: PriceConsent) {
        priceIncreaseStatus = consent.priceIncreaseStatus
        if autoRenewProductID == consent.productID {
            renewalPrice = consent.price
            currency = consent.currency
        }
    }

    /// The next period's price after the price increases made by `date` (issue 15): the raised
    /// regular price of the renewal product in `storefront`; an offer's or a commitment's price stays.
    public mutating func applyPriceIncreases(_ increases: [PriceIncrease]?, storefront: String, asOf date: Timestamp) {
        guard renewalOffer == nil, renewalBillingPlan == nil,
            let raised = increases?.last(where: {
                $0.productID == autoRenewProductID && $0.storefront == storefront && $0.date <= date
            })
        else { return }
        renewalPrice = raised.price
        currency = Storefront.named(storefront)?.currency ?? currency
    }

    public init(
        originalTransactionID: TransactionID, productID: ProductID, autoRenewProductID: ProductID, autoRenew: Bool,
        expirationIntent: Int?, isInBillingRetryPeriod: Bool?, gracePeriodExpiresDate: Timestamp?,
        renewalOffer: RenewalOffer?, renewalPrice: Price?, currency: String?, recentSubscriptionStartDate: Timestamp,
        renewalDate: Timestamp, appAccountToken: String?, status: SubscriptionStatus
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.autoRenewProductID = autoRenewProductID
        self.autoRenew = autoRenew
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.renewalOffer = renewalOffer
        self.renewalPrice = renewalPrice
        self.currency = currency
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.appAccountToken = appAccountToken
        self.status = status
    }

    /// The renewal info of a subscription as the engine holds it now. The next period's price is
    /// what `renew` would charge (`SubscriptionTerms.renewal`): the renewal product in the
    /// storefront of the current period's transaction (`storefront`), under the offer the renewal
    /// applies; `offers` is the subscription's offer state, `now` the store's clock (for the
    /// win-back offers it may redeem).
    public init(
        _ sub: Subscription, offers: SubscriptionOfferState?, storefront: String, catalog: Catalog, now: Timestamp
    ) {
        self.init(
            snapshot: Snapshot(
                original: sub.originalID, product: sub.productID, renewalProduct: sub.renewalProductID, autoRenew: sub.autoRenew,
                status: SubscriptionStatus(sub.status), expirationIntent: sub.expirationIntent?.rawValue,
                isInBillingRetry: sub.isInBillingRetry, gracePeriodExpires: sub.gracePeriodExpiresDate, expires: sub.expiresDate,
                currentOffer: sub.offer, offerPeriodsLeft: sub.offerPeriodsLeft,
                recentStart: sub.recentStartDate ?? sub.originalDate, userID: sub.userID),
            offers: offers, storefront: storefront, catalog: catalog, now: now)
    }

    /// The renewal info of a subscription without offer state (a store from before iapctl
    /// recorded offers), at its own expiry.
    public init(_ sub: Subscription, storefront: String, catalog: Catalog) {
        self.init(sub, offers: nil, storefront: storefront, catalog: catalog, now: sub.expiresDate)
    }

    /// What renewal info is made of: a subscription as the engine holds it, or as an event's
    /// snapshot shows it (`NotificationLog`).
    public struct Snapshot: Sendable {
        public var original: TransactionID
        public var product: ProductID
        public var renewalProduct: ProductID
        public var autoRenew: Bool
        public var status: SubscriptionStatus
        public var expirationIntent: Int?
        public var isInBillingRetry: Bool
        public var gracePeriodExpires: Timestamp?
        public var expires: Timestamp
        /// The payment mode of the offer the current period is under, and pay-as-you-go periods left.
        public var currentOffer: Transaction.OfferKind?
        public var offerPeriodsLeft: Int
        public var recentStart: Timestamp
        public var userID: UserID?

        public init(
            original: TransactionID, product: ProductID, renewalProduct: ProductID, autoRenew: Bool, status: SubscriptionStatus,
            expirationIntent: Int?, isInBillingRetry: Bool, gracePeriodExpires: Timestamp?, expires: Timestamp,
            currentOffer: Transaction.OfferKind?, offerPeriodsLeft: Int, recentStart: Timestamp, userID: UserID?
        ) {
            self.original = original
            self.product = product
            self.renewalProduct = renewalProduct
            self.autoRenew = autoRenew
            self.status = status
            self.expirationIntent = expirationIntent
            self.isInBillingRetry = isInBillingRetry
            self.gracePeriodExpires = gracePeriodExpires
            self.expires = expires
            self.currentOffer = currentOffer
            self.offerPeriodsLeft = offerPeriodsLeft
            self.recentStart = recentStart
            self.userID = userID
        }
    }

    /// The renewal info of a snapshot. Within the monthly plan's commitment the next billing
    /// period is the current product and will renew (`autoRenewStatus` 1: "whether the next
    /// billing period will renew"), and `commitmentInfo` says what happens when the commitment
    /// ends (`commitmentAutoRenewStatus`: the auto-renew setting, off once the customer turned it
    /// off).
    public init(snapshot s: Snapshot, offers: SubscriptionOfferState?, storefront: String, catalog: Catalog, now: Timestamp) {
        let committed = offers?.isCommitted ?? false
        let next = committed ? s.product : s.renewalProduct
        var price: Price?
        var currency: String?
        var offer: RenewalOffer?
        if let product = catalog[next], product.price(in: storefront) != nil, let shop = Storefront.named(storefront) {
            let terms = SubscriptionTerms.renewal(
                current: s.product, currentOffer: s.currentOffer, offerPeriodsLeft: s.offerPeriodsLeft, offers: offers,
                product: product, catalog: catalog, storefront: storefront)
            price = terms.price
            currency = shop.currency
            if let kind = terms.offer {
                offer = RenewalOffer(
                    type: terms.offerRef?.type ?? .introductory, id: terms.offerRef?.id, kind: kind, period: terms.offerPeriod)
            }
        }
        let churned = s.status == .expired && !s.autoRenew
        let active = s.status == .active
        self.init(
            originalTransactionID: s.original, productID: s.product, autoRenewProductID: next,
            autoRenew: s.autoRenew || (committed && active), expirationIntent: s.expirationIntent,
            isInBillingRetryPeriod: active ? nil : s.isInBillingRetry, gracePeriodExpiresDate: s.gracePeriodExpires,
            renewalOffer: offer,
            renewalPrice: price, currency: currency, recentSubscriptionStartDate: s.recentStart, renewalDate: s.expires,
            appAccountToken: AppAccountToken.token(for: s.userID), status: s.status)
        if let product = catalog[s.product] {
            eligibleWinBackOfferIDs = WinBackEligibility.eligible(
                product,
                for: WinBackEligibility.Subscriber(
                    churned: churned, paidSince: s.recentStart, paidUntil: s.expires,
                    redemptions: offers?.winBackRedemptions ?? [:]),
                at: now)
        }
        if let offers, let c = offers.commitment, active {
            renewalBillingPlan = offers.renewalBillingPlan
            var commitmentPrice: Price?
            if let product = catalog[s.renewalProduct] {
                commitmentPrice =
                    offers.renewalBillingPlan == .monthly
                    ? product.offers.billingPlan(.monthly)?.commitmentPrice(in: storefront) : product.price(in: storefront)
            }
            commitment = RenewalCommitment(
                autoRenewProductID: s.renewalProduct, autoRenew: s.autoRenew, renewalBillingPlan: offers.renewalBillingPlan,
                renewalDate: c.expiresDate, renewalPrice: commitmentPrice)
        }
    }
}

/// The offer the next period renews under, as renewal information reports it.
public struct RenewalOffer: Hashable, Sendable {
    /// `offerType`.
    public var type: OfferType
    /// `offerIdentifier` (nil for an introductory offer).
    public var id: OfferID?
    /// `offerDiscountType`.
    public var kind: Transaction.OfferKind
    /// `offerPeriod`: the offer's whole duration.
    public var period: SubscriptionPeriod?

    public init(type: OfferType, id: OfferID?, kind: Transaction.OfferKind, period: SubscriptionPeriod?) {
        self.type = type
        self.id = id
        self.kind = kind
        self.period = period
    }
}

/// The App Store Server API's `RenewalCommitmentInfo`: how the subscription renews when its
/// commitment ends (`commitmentAutoRenewProductId`, `commitmentAutoRenewStatus`,
/// `commitmentRenewalBillingPlanType`, `commitmentRenewalDate`, `commitmentRenewalPrice`).
public struct RenewalCommitment: Hashable, Sendable {
    public var autoRenewProductID: ProductID
    public var autoRenew: Bool
    public var renewalBillingPlan: BillingPlanType
    public var renewalDate: Timestamp
    public var renewalPrice: Price?

    public init(
        autoRenewProductID: ProductID, autoRenew: Bool, renewalBillingPlan: BillingPlanType, renewalDate: Timestamp,
        renewalPrice: Price?
    ) {
        self.autoRenewProductID = autoRenewProductID
        self.autoRenew = autoRenew
        self.renewalBillingPlan = renewalBillingPlan
        self.renewalDate = renewalDate
        self.renewalPrice = renewalPrice
    }
}

extension SubscriptionStatus {
    /// The API's status of a subscription engine status: active 1, expired 2, billing retry 3,
    /// grace period 4, revoked 5 (App Store Server API, status).
    public init(_ status: Subscription.Status) {
        switch status {
        case .active: self = .active
        case .expired: self = .expired
        case .inBillingRetry: self = .billingRetry
        case .inGracePeriod: self = .gracePeriod
        case .revoked: self = .revoked
        }
    }
}
