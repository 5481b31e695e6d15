import IAPTime

/// An imperative request to the store. `Machine.apply` is the only way state changes, and it
/// takes one of these.
///
/// The commands every purchase cycle sends (buy, finish) carry their payload inline; the rarer
/// ones with large payloads are `indirect`, so a command stays small to pass and copy.
public enum Command: Hashable, Sendable {
    /// `SKProductsRequest` for these ids; empty means the whole catalog.
    case requestProducts([ProductID])
    /// `SKPaymentQueue.add(_:)`.
    case buy(ProductID, user: UserID?, quantity: Int)
    /// `finishTransaction` for each id, all or nothing.
    case finish([TransactionID])
    /// `finishTransaction` for every finishable transaction in the queue.
    case finishAll
    /// `restoreCompletedTransactions(withApplicationUsername:)`.
    case restore(user: UserID?)
    /// The app launched: redeliver every unfinished transaction.
    case launch
    /// Change one setting.
    indirect case setSetting(key: String, value: String)
    /// Make the store: the first command of every store, on the empty state (`storeCreated`).
    indirect case createStore(StoreOrigin)
    /// The settings and faults a catalog carries, applied to a new store (`settingChanged` and
    /// `faultAdded` events); `catalog` names the file in errors.
    indirect case applyCatalogSettings([CatalogSetting], catalog: String)
    /// `SKPaymentQueue.start/pause/resume/cancel(_ downloads:)` for one download of a transaction,
    /// or for every download of it the move applies to (`content` nil).
    indirect case download(DownloadMove, TransactionID, content: String?)
    /// A hosted download of an active transaction reached `downloadedBytes` (the CLI copied them).
    indirect case recordDownloadProgress(TransactionID, content: String, downloadedBytes: Int64)
    /// What the self-hosted content downloader did for a transaction (the CLI ran it).
    indirect case recordContentDownload(TransactionID, ContentDownloadStep)
    /// The App Store starts a purchase of a promoted product (`shouldAddStorePayment`).
    case promote(ProductID, user: UserID?)
    /// RMStore's `acceptStoredStorePayments`: every stored payment joins the queue.
    case acceptStoredPayments
    /// Ask to Buy: the parent approves a deferred transaction.
    case approve(TransactionID)
    /// Ask to Buy: the parent declines a deferred transaction, which fails with `error`.
    indirect case decline(TransactionID, error: TransactionError)
    /// The user resolved what interrupted a purchase (or, later, another resolvable issue).
    case resolve(TransactionID)
    /// Arm a fault: the next `count` requests at `point` (for `product`, or any) fail with `error`.
    indirect case addFault(FaultPoint, TransactionError, count: Int, product: ProductID?)
    /// Disarm every fault.
    case clearFaults
    /// RMStore's `consumeProductOfIdentifier:`, `count` times.
    case consume(ProductID, count: Int)
    /// A receipt refresh or verification (issue 5).
    indirect case receipt(ReceiptRequest)
    /// Move the simulated clock forward to a date, running everything that falls due on the way
    /// in date order: renewals, expiries, the ends of grace and billing retry periods.
    case advanceClock(to: Timestamp)
    /// Turn a subscription's auto-renew off or on (Settings > Subscriptions; Xcode's transaction
    /// manager).
    indirect case setAutoRenew(SubscriptionReference, on: Bool)
    /// End a subscription now (Xcode's "Expire Subscription").
    indirect case expireSubscription(SubscriptionReference)
    /// Renew a subscription now, ahead of its date (Xcode's "Renew Subscription").
    indirect case renewSubscription(SubscriptionReference)
    /// End a billing issue with a successful renewal (Xcode's "Resolve Billing Issue").
    indirect case resolveBillingIssue(SubscriptionReference)
    /// Refund a transaction: sets revocationDate and revocationReason (0 other, 1 an issue in
    /// the app) and takes the entitlement away (Xcode's "Refund Purchase").
    case refund(TransactionID, reason: Int)
    /// Remove a transaction from history, as if it never happened (Xcode's deleteTransaction).
    case deleteTransaction(TransactionID)
    /// Remove every transaction (Xcode's clearTransactions).
    case clearTransactions

    // MARK: - Offers

    /// Add the app's subscription offer key (`iapctl offer-key add`; the catalog's at store
    /// creation), replacing one with the same id.
    indirect case addOfferKey(OfferKeyRecord)
    /// Remove a subscription offer key (`iapctl offer-key remove`).
    case removeOfferKey(String)
    /// `SKPaymentQueue.add(_:)` of a payment with offer options: a promotional offer (either
    /// signature form), an offer code, a win-back offer, the introductory offer eligibility
    /// override, the billing plan.
    indirect case buyWithOptions(ProductID, user: UserID?, quantity: Int, options: PurchaseOptions)
    /// A change the App Store Server API asked for (`iapctl serve`).
    indirect case serverAPI(ServerAPIRequest)

    // MARK: - Issue 15, life-a

    /// `refund request`, `refund approve`, `refund decline`, `refund reverse`.
    indirect case refundRequest(RefundStep)
    /// `price-increase PRODUCT PRICE`: the subscription's price in `storefront` (nil: the
    /// account's) becomes `price`, with or without the subscribers' consent.
    indirect case raisePrice(ProductID, price: Price, storefront: String?, consentRequired: Bool)
    /// `price-consent ID accept|decline`: the subscriber of the subscription `id` belongs to
    /// (any of its transaction ids) answers the price increase.
    case answerPriceIncrease(TransactionID, accept: Bool)
    // MARK: - Life (issue 15)

    /// `iapctl family add|remove NAME`: a member joins or leaves the account's family.
    indirect case family(FamilyRequest)
    /// The app called a StoreKit API that has no state of its own to change (subscription
    /// status, AppTransaction, a sheet): an armed fault at `point` fails it (issue 15 item 5).
    case simulatedAPI(FaultPoint, product: ProductID?)
}

/// What one `apply` did: the events to record and the latest version of every transaction it
/// created or changed, for the store to persist.
public struct Effects: Sendable {
    public internal(set) var events: [Event] = []
    public internal(set) var transactions: [Transaction] = []
    /// What the command came to (see `Outcome`): what a command renders and exits with.
    public internal(set) var outcome: Outcome = .done
    /// Every finish this apply did, whichever command caused it (a finish, a verification, the
    /// end of a download a postponed finish waited for), and the downloads finishing cancelled.
    public internal(set) var finish = Finish()
    /// The faults that fired, in order (each also a `faultFired` event): what a command prints
    /// before the failure they caused.
    public internal(set) var firedFaults: [Fault] = []
    /// Changes to the store directory the session carries out after the commit.
    public internal(set) var storeEffects: [StoreEffect] = []
    /// Work a subscription purchase left for the end of this apply (see `Followup`), carried in
    /// the apply's own value rather than in the machine.
    var followups: [Followup] = []
    /// Where each id sits in `transactions`, so recording stays O(1) when one command creates
    /// many (a clock advance over years of renewals).
    private var positions: [TransactionID: Int] = [:]

    public init() {}

    /// Appends a later apply's effects, keeping one (the latest) version of each transaction.
    public mutating func merge(_ later: Effects) {
        events += later.events
        outcome = later.outcome
        firedFaults += later.firedFaults
        storeEffects += later.storeEffects
        finish.steps += later.finish.steps
        for c in later.finish.cancelledDownloads {
            for content in c.contents { finish.cancelled(content, of: c.transaction) }
        }
        for t in later.transactions { record(t) }
    }

    /// The latest version of `id` these effects recorded, if they recorded one (a group
    /// commit's reads of its own uncommitted changes).
    func recorded(_ id: TransactionID) -> Transaction? {
        if transactions.count < 16 { return transactions.last { $0.id == id } }
        return positions[id].map { transactions[$0] }
    }

    /// Adds events another source already numbered (salvage).
    mutating func appendEvents(_ more: [Event]) { events += more }

    mutating func record(_ transaction: Transaction) {
        // Most commands touch one or two transactions: a scan beats hashing until there are many.
        if transactions.count < 16 {
            if let i = transactions.firstIndex(where: { $0.id == transaction.id }) {
                transactions[i] = transaction
            } else {
                transactions.append(transaction)
                if transactions.count == 16 {
                    for (i, t) in transactions.enumerated() { positions[t.id] = i }
                }
            }
            return
        }
        if let i = positions[transaction.id] {
            transactions[i] = transaction
        } else {
            positions[transaction.id] = transactions.count
            transactions.append(transaction)
        }
    }
}
