/// The App Store Server Notification (V2) an event corresponds to: `notificationType` and
/// `subtype`, so a later signer can turn the event log into the notifications a backend receives.
public struct ServerNotification: Hashable, Sendable {
    public let type: String
    public let subtype: String?

    public init(_ type: String, _ subtype: String? = nil) {
        self.type = type
        self.subtype = subtype
    }
}

extension EventKind {
    /// The server notification for a subscription event, nil for events the App Store does not
    /// notify (local StoreKit callbacks, the clock, deletions).
    public var serverNotification: ServerNotification? {
        switch self {
        case .subscriptionStarted(let t, _, let resubscribed):
            // A subscription that starts with a promotional offer, an offer code or a win-back
            // offer is OFFER_REDEEMED: "If the subtype is INITIAL_BUY, the customer redeemed the
            // offer for a first-time purchase. If the subtype is RESUBSCRIBE, the customer
            // redeemed an offer to resubscribe to an inactive subscription" (App Store Server
            // Notifications, notificationType). An introductory offer is the subscription's own
            // start: SUBSCRIBED.
            switch t.offerType {
            case .promotional?, .code?, .winBack?:
                return ServerNotification("OFFER_REDEEMED", resubscribed ? "RESUBSCRIBE" : "INITIAL_BUY")
            case .introductory?, nil:
                return ServerNotification("SUBSCRIBED", resubscribed ? "RESUBSCRIBE" : "INITIAL_BUY")
            }
        case .subscriptionRenewed(_, _, let recovered):
            return ServerNotification("DID_RENEW", recovered ? "BILLING_RECOVERY" : nil)
        case .subscriptionUpgraded(_, let to, _):
            // "If the subtype is UPGRADE, the customer redeemed an offer to upgrade their active
            // subscription, which goes into effect immediately" (notificationType, OFFER_REDEEMED).
            if let type = to.offerType, type != .introductory { return ServerNotification("OFFER_REDEEMED", "UPGRADE") }
            return ServerNotification("DID_CHANGE_RENEWAL_PREF", "UPGRADE")
        case .offerRedeemed(_, _, _, let change):
            switch change {
            case nil, .upgrade?: return ServerNotification("OFFER_REDEEMED")
            case .downgrade?, .crossgrade?: return ServerNotification("OFFER_REDEEMED", "DOWNGRADE")
            }
        case .renewalPreferenceChanged(_, _, let change):
            switch change {
            case .upgrade: return ServerNotification("DID_CHANGE_RENEWAL_PREF", "UPGRADE")
            case .downgrade, .crossgrade: return ServerNotification("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE")
            case nil: return ServerNotification("DID_CHANGE_RENEWAL_PREF")
            }
        case .autoRenewStatusChanged(let s):
            return ServerNotification("DID_CHANGE_RENEWAL_STATUS", s.autoRenew ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED")
        case .renewalFailed(let s):
            return ServerNotification("DID_FAIL_TO_RENEW", s.gracePeriodExpiresDate != nil ? "GRACE_PERIOD" : nil)
        case .gracePeriodExpired:
            return ServerNotification("GRACE_PERIOD_EXPIRED")
        case .subscriptionExpired(let s):
            switch s.expirationIntent {
            case .cancelled: return ServerNotification("EXPIRED", "VOLUNTARY")
            case .billingError: return ServerNotification("EXPIRED", "BILLING_RETRY")
            case .priceIncreaseDeclined: return ServerNotification("EXPIRED", "PRICE_INCREASE")
            case .productUnavailable: return ServerNotification("EXPIRED", "PRODUCT_NOT_FOR_SALE")
            case .unknown, nil: return ServerNotification("EXPIRED")
            }
        case .transactionRevoked:
            return ServerNotification("REFUND")
        case .transactionUpdated(let t):
            // Apple notifies ONE_TIME_CHARGE for consumables, non-consumables and non-renewing
            // subscriptions when the user is charged, or redeems an offer code for one ("When
            // customers redeem an offer code for a consumable, non-consumable, or non-renewing
            // subscription, the notification type is ONE_TIME_CHARGE"); subscriptions have
            // SUBSCRIBED instead.
            guard t.state == .purchased, t.charged || t.offerType == .code, t.productType != .autoRenewable else {
                return nil
            }
            return ServerNotification("ONE_TIME_CHARGE")
        case .transactionFinished, .transactionRedelivered, .productsRequestFinished, .productsRequestFailed,
            .restoreFinished, .restoreFailed, .appLaunched, .settingChanged, .storeCreated, .clockAdvanced, .transactionDeleted,
            .transactionsCleared, .download, .contentDownload, .storePayment, .transactionFinishPostponed,
            .transactionDeliveryFailed, .interruptedPurchaseResolved, .faultAdded, .faultFired, .faultsCleared, .productConsumed,
            .receipt, .offerKeyAdded, .offerKeyRemoved, .subscriptionOffersChanged:
            return nil
        case .life(let change):
            return change.serverNotification
        case .family(let change):
            switch change {
            // REVOKE (REFERENCE section 11): StoreKit's counterpart is
            // `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`, called "whenever App
            // Store revokes in-app purchases for a family member based on changes in Family
            // Sharing, or when the purchaser gets a refund for an in-app purchase". The App Store
            // notifies no member's shared purchase or renewal on its own (documented in
            // docs/family.md).
            case .transactionRevoked: return ServerNotification("REVOKE")
            // The member was charged for its own one-time purchase.
            // Its own subscription is a first purchase: SUBSCRIBED INITIAL_BUY ("the customer
            // subscribed to an auto-renewable subscription", App Store Server Notifications V2).
            case .memberPurchased(let t):
                return t.productType == .autoRenewable
                    ? ServerNotification("SUBSCRIBED", "INITIAL_BUY") : ServerNotification("ONE_TIME_CHARGE")
            // A reversed refund's cleared member revocation and a deleted member copy: Apple
            // documents no notification for the member (docs/family.md).
            case .memberAdded, .memberRemoved, .transactionShared, .revocationCleared, .transactionDeleted: return nil
            }
        case .serverAPI(let change):
            switch change {
            // "The App Store extended the subscription renewal date for a specific subscription"
            // (App Store Server Notifications, RENEWAL_EXTENDED), one request or a mass one.
            case .renewalExtended: return ServerNotification("RENEWAL_EXTENDED")
            // "A notification type that the App Store server sends when you request it by calling
            // the Request a Test Notification endpoint" (notificationType TEST).
            case .testNotificationRequested: return ServerNotification("TEST")
            // "The App Store completed a request to extend the subscription renewal date for all
            // eligible subscribers" (RENEWAL_EXTENSION, SUMMARY), with a summary object.
            case .massExtensionCompleted: return ServerNotification("RENEWAL_EXTENSION", "SUMMARY")
            // "If the subtype is FAILURE, the renewal date extension didn't succeed for a specific
            // subscription. The data object contains information about the subscription"
            // (RENEWAL_EXTENSION); one per subscription the mass extension could not extend.
            case .massExtensionFailed: return ServerNotification("RENEWAL_EXTENSION", "FAILURE")
            case .notificationSent(let n, _, _): return n
            case .appAccountTokenSet, .consumptionInformationReceived, .retentionChanged: return nil
            }
        }
    }
}
