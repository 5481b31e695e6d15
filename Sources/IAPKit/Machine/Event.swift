import IAPTime

/// A past-tense fact the store recorded: the notification log behind `iapctl events`.
///
/// Every transaction update, request and setting change is an event, numbered from 1 (`seq`)
/// and dated by the store's clock. `docs/events.md` maps each name to the RMStore notification
/// and DYFStoreKit state it corresponds to.
public struct Event: Hashable, Sendable {
    public let seq: UInt64
    public let date: Timestamp
    public let kind: EventKind

    public init(seq: UInt64, date: Timestamp, kind: EventKind) {
        self.seq = seq
        self.date = date
        self.kind = kind
    }

    public var name: String { kind.name }
}

/// What happened. Cases carry the data an observer needs, as the seeds' notifications do.
///
/// The cases every purchase and finish emit (a transaction, a count, two ids or dates) are
/// stored inline, so an event costs no allocation of its own; the rest are `indirect`, each a
/// box, which keeps an `Event` a few words long.
public enum EventKind: Hashable, Sendable {
    /// A transaction entered a state (`paymentQueue(_:updatedTransactions:)`): the event is
    /// named after the state, `transactionPurchasing` ... `transactionDeferred`.
    case transactionUpdated(Transaction)
    /// The app called `finishTransaction` (`paymentQueue(_:removedTransactions:)`).
    case transactionFinished(Transaction)
    /// An unfinished transaction delivered again at app launch.
    case transactionRedelivered(Transaction)
    /// `SKProductsRequest` answered.
    indirect case productsRequestFinished(products: [ProductID], invalid: [ProductID])
    /// `SKProductsRequest` failed.
    indirect case productsRequestFailed(TransactionError)
    /// `paymentQueueRestoreCompletedTransactionsFinished`, with how many were restored.
    indirect case restoreFinished(count: Int, user: UserID?)
    /// `restoreCompletedTransactionsFailedWithError`.
    indirect case restoreFailed(TransactionError, user: UserID?)
    /// The app launched and attached its transaction observer.
    case appLaunched(unfinished: Int)
    /// `iapctl config set` changed a setting (or a catalog's settings did, at store creation).
    indirect case settingChanged(key: String, value: String)
    /// The store was made: the first event of every store created by this release.
    indirect case storeCreated(StoreOrigin)
    /// A hosted download moved or made progress (`paymentQueue(_:updatedDownloads:)`): named
    /// `downloadStarted`, `downloadPaused`, `downloadResumed`, `downloadUpdated` (a progress step),
    /// `downloadFinished`, `downloadFailed`, `downloadCancelled`.
    indirect case download(DownloadChange, transaction: TransactionID, product: ProductID, Download)
    /// Self-hosted content (RMStore's contentDownloader) moved or made progress: named
    /// `contentDownloadStarted`, `contentDownloadUpdated`, `contentDownloadFinished`,
    /// `contentDownloadFailed`, `contentDownloadCancelled`.
    indirect case contentDownload(DownloadChange, ContentDownload)
    /// The App Store started a purchase and the app answered `shouldAddStorePayment`, or a stored
    /// payment joined the queue: `storePaymentAccepted` ... `storedPaymentAccepted`.
    indirect case storePayment(StorePaymentDecision, StoredPayment)
    /// finish-after-downloads: the finish waits until the transaction's downloads end.
    case transactionFinishPostponed(Transaction)
    /// finish-after-downloads: the downloads ended badly, so the transaction was finished and
    /// reported failed (RMStore's `storePaymentTransactionFailed`, error 300 for a cancellation).
    indirect case transactionDeliveryFailed(Transaction, TransactionError)
    /// An interrupted purchase was resolved by a new purchased transaction.
    case interruptedPurchaseResolved(original: TransactionID, resolved: TransactionID)
    /// `iapctl fault add` armed a fault.
    indirect case faultAdded(Fault)
    /// A fault fired; `remaining` in it is what is left after this firing.
    indirect case faultFired(Fault)
    /// `iapctl fault clear` disarmed `count` faults.
    case faultsCleared(count: Int)
    /// `iapctl consume` used up units of a consumable; `balance` is what is left.
    indirect case productConsumed(ProductID, count: Int, balance: Int)
    /// A receipt refresh or verification, and what a verification did to a transaction.
    indirect case receipt(ReceiptEvent)
    /// The simulated clock moved forward (`iapctl clock advance|set`), after everything that fell
    /// due on the way.
    case clockAdvanced(from: Timestamp, to: Timestamp)
    /// A subscription began, or a lapsed one was bought again (server notification SUBSCRIBED,
    /// INITIAL_BUY or RESUBSCRIBE).
    indirect case subscriptionStarted(Transaction, Subscription, resubscribed: Bool)
    /// A period renewed: a new purchased transaction, same original id, delivered to the queue
    /// (DID_RENEW; BILLING_RECOVERY when it ended a billing issue).
    indirect case subscriptionRenewed(Transaction, Subscription, recovered: Bool)
    /// An upgrade, or a crossgrade of the same duration, replaced the current period at once: the
    /// old period's transaction is marked upgraded and its unused part credited
    /// (DID_CHANGE_RENEWAL_PREF, UPGRADE).
    indirect case subscriptionUpgraded(from: Transaction, to: Transaction, Subscription)
    /// The product the subscription renews into changed: a downgrade or a crossgrade to another
    /// duration, waiting for the renewal, or (`change` nil) such a change taken back
    /// (DID_CHANGE_RENEWAL_PREF).
    indirect case renewalPreferenceChanged(Subscription, from: ProductID, change: GroupChange?)
    /// Auto-renew was turned on or off (DID_CHANGE_RENEWAL_STATUS).
    indirect case autoRenewStatusChanged(Subscription)
    /// A renewal could not be charged: billing retry, and the grace period if enabled
    /// (DID_FAIL_TO_RENEW, GRACE_PERIOD when in grace).
    indirect case renewalFailed(Subscription)
    /// The grace period ended without a successful charge; access ends, retry goes on
    /// (GRACE_PERIOD_EXPIRED).
    indirect case gracePeriodExpired(Subscription)
    /// The subscription ended: auto-renew off, billing retry over, renewal product unavailable,
    /// or expired on purpose (EXPIRED, with the subtype from the expiration intent).
    indirect case subscriptionExpired(Subscription)
    /// A refund: the transaction carries revocationDate and revocationReason; the subscription
    /// it ended, if any (REFUND).
    indirect case transactionRevoked(Transaction, Subscription?)
    /// `iapctl delete` removed a transaction from history (Xcode's deleteTransaction).
    case transactionDeleted(Transaction)
    /// `iapctl clear` removed every transaction (Xcode's clearTransactions).
    case transactionsCleared(count: Int)
    /// The App Store Server API changed what the App Store knows about a transaction
    /// (`ServerAPIChange`: its app account token, its consumption information).
    indirect case serverAPI(ServerAPIChange)

    // MARK: - Offers

    /// A subscription offer key was added (`offer-key add`, or the catalog's at creation).
    indirect case offerKeyAdded(OfferKeyRecord)
    /// A subscription offer key was removed.
    indirect case offerKeyRemoved(OfferKeyRecord)
    /// A customer with an active subscription redeemed an offer for it, applying from the next
    /// renewal; with a downgrade or crossgrade (`change`), into the renewal product (server
    /// notification OFFER_REDEEMED, DOWNGRADE for a change; an upgrade with an offer is
    /// `subscriptionUpgraded`, notified as OFFER_REDEEMED UPGRADE).
    indirect case offerRedeemed(Transaction, Subscription, offer: SubscriptionOfferState.OfferRef, change: GroupChange?)
    /// A subscription's offers or billing plan changed: the offer in effect or waiting for the
    /// renewal, the commitment (for the renewal information the notifications after it carry).
    indirect case subscriptionOffersChanged(original: TransactionID, SubscriptionOfferState)

    // MARK: - Issue 15, life-a (refund requests, price increases)

    /// A refund request or price increase step (`LifeChange`).
    indirect case life(LifeChange)
    // MARK: - Life (issue 15)

    /// Family Sharing: a member joined or left, a member got a FAMILY_SHARED transaction, or one
    /// was revoked (REVOKE).
    indirect case family(FamilyChange)

    public var name: String {
        switch self {
        case .transactionUpdated(let t):
            switch t.state {
            case .purchasing: return "transactionPurchasing"
            case .purchased: return "transactionPurchased"
            case .failed: return "transactionFailed"
            case .restored: return "transactionRestored"
            case .deferred: return "transactionDeferred"
            }
        case .transactionFinished: return "transactionFinished"
        case .transactionRedelivered: return "transactionRedelivered"
        case .productsRequestFinished: return "productsRequestFinished"
        case .productsRequestFailed: return "productsRequestFailed"
        case .restoreFinished: return "restoreFinished"
        case .restoreFailed: return "restoreFailed"
        case .appLaunched: return "appLaunched"
        case .settingChanged: return "settingChanged"
        case .storeCreated: return "storeCreated"
        case .download(let change, _, _, _): return "download" + change.capitalized
        case .contentDownload(let change, _): return "contentDownload" + change.capitalized
        case .storePayment(let decision, _): return decision.eventName
        case .transactionFinishPostponed: return "transactionFinishPostponed"
        case .transactionDeliveryFailed: return "transactionDeliveryFailed"
        case .interruptedPurchaseResolved: return "interruptedPurchaseResolved"
        case .faultAdded: return "faultAdded"
        case .faultFired: return "faultFired"
        case .faultsCleared: return "faultsCleared"
        case .productConsumed: return "productConsumed"
        case .receipt(let e): return e.name
        case .clockAdvanced: return "clockAdvanced"
        case .subscriptionStarted: return "subscriptionStarted"
        case .subscriptionRenewed: return "subscriptionRenewed"
        case .subscriptionUpgraded: return "subscriptionUpgraded"
        case .renewalPreferenceChanged: return "renewalPreferenceChanged"
        case .autoRenewStatusChanged: return "autoRenewStatusChanged"
        case .renewalFailed: return "renewalFailed"
        case .gracePeriodExpired: return "gracePeriodExpired"
        case .subscriptionExpired: return "subscriptionExpired"
        case .transactionRevoked: return "transactionRevoked"
        case .transactionDeleted: return "transactionDeleted"
        case .transactionsCleared: return "transactionsCleared"
        case .offerKeyAdded: return "offerKeyAdded"
        case .offerKeyRemoved: return "offerKeyRemoved"
        case .offerRedeemed: return "offerRedeemed"
        case .subscriptionOffersChanged: return "subscriptionOffersChanged"
        case .serverAPI(let change): return change.name
        case .life(let change): return change.name
        case .family(let change): return change.name
        }
    }

    /// The transaction the event is about, if any.
    public var transaction: Transaction? {
        switch self {
        case .transactionUpdated(let t), .transactionFinished(let t), .transactionRedelivered(let t): return t
        case .productsRequestFinished, .productsRequestFailed, .restoreFinished, .restoreFailed, .appLaunched, .settingChanged,
            .storeCreated:
            return nil
        case .transactionFinishPostponed(let t), .transactionDeliveryFailed(let t, _): return t
        case .subscriptionStarted(let t, _, _), .subscriptionRenewed(let t, _, _), .subscriptionUpgraded(_, let t, _),
            .transactionRevoked(let t, _), .transactionDeleted(let t), .offerRedeemed(let t, _, _, _):
            return t
        case .download, .contentDownload, .storePayment, .interruptedPurchaseResolved, .faultAdded, .faultFired, .faultsCleared,
            .productConsumed, .clockAdvanced, .renewalPreferenceChanged, .autoRenewStatusChanged, .renewalFailed,
            .gracePeriodExpired,
            .subscriptionExpired, .transactionsCleared, .offerKeyAdded, .offerKeyRemoved, .subscriptionOffersChanged:
            return nil
        case .receipt(let e): return e.transaction
        case .serverAPI(let change): return change.transaction
        case .life(let change): return change.transaction
        case .family(let change): return change.transaction
        }
    }
}
