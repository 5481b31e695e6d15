import IAPTime

/// The store's working state: everything a command may need without reading history.
///
/// Finished transactions are not here; they live in the store's journal and are reached through a
/// `TransactionArchive`, so the cost of a command does not grow with the number of finished
/// transactions it does not touch (SPEC section 6).
public struct StoreState: Hashable, Sendable, Codable {
    /// The app whose purchases these are (receipt attribute 2).
    public var bundleID: String
    /// `CFBundleVersion` of the running app (receipt attribute 3).
    public var appVersion: String
    /// The version first installed (receipt attribute 19).
    public var originalAppVersion: String
    /// The simulated clock: the date of the latest thing that happened.
    public var clock: Timestamp
    public var nextTransactionID: TransactionID
    public var nextEventSeq: UInt64
    public var nextWebOrderLineItemID: UInt64
    public var settings: Settings
    /// The payment queue: unfinished transactions, oldest (lowest id) first.
    public private(set) var queue: PaymentQueue
    /// What the user's Apple account owns, by product: the first purchase of each non-consumable
    /// and the original purchase of each auto-renewable subscription. Restore reads this.
    public var ownership: [ProductID: Ownership]
    /// Armed faults, in the order they fire (`iapctl fault`).
    public var faults: [Fault] = []
    public var nextFaultID = 1
    /// Store-initiated payments the app deferred (RMStore's stored store payments), oldest first.
    public var storedPayments: [StoredPayment] = []
    /// Interrupted purchases waiting for `resolve`, oldest first.
    public var interruptedPurchases: [InterruptedPurchase] = []
    /// RMStore's keychain persistence: what the app delivered and consumed, by product.
    public var ledger: [ProductID: LedgerEntry] = [:]
    /// Self-hosted content of unfinished transactions, by transaction id.
    public var contentDownloads: [ContentDownload] = []
    /// finish-after-downloads: transactions whose finish waits for their downloads, by id.
    public var postponedFinishes: [TransactionID] = []
    /// The SHA-256 of the signing chain copied in by `init --signing-dir` (`<store>/signing`);
    /// nil means the built-in TEST ONLY chain signs the store's receipts.
    public var signingSHA256: String?
    /// Auto-renewable subscriptions by original transaction id (see `Subscription`).
    public var subscriptions: [TransactionID: Subscription]
    /// The subscription of each subscription group: an account has at most one per group.
    public var subscriptionGroups: [String: TransactionID]
    /// Non-renewing subscriptions: the time bought so far, by product.
    public var nonRenewing: [ProductID: NonRenewingEntitlement]
    /// Subscription offers: keys, spent nonces, each subscription's offers (see `offers`). Nil
    /// while empty, so a store that never used an offer (and every store of format 1) holds none.
    public private(set) var offerState: StoreOffers?

    /// Subscription offers: keys, spent nonces, each subscription's offers, waiting requests.
    public var offers: StoreOffers {
        get { offerState ?? StoreOffers() }
        // Changed in place: a get-then-set copy would make every change (each renewal records
        // its offers) copy the whole per-subscription table, quadratic over a clock advance.
        _modify {
            var value = offerState ?? StoreOffers()
            offerState = nil
            defer { offerState = value.isEmpty ? nil : value }
            yield &value
        }
    }
    /// The offer state of the subscription with original id `original`, read without copying
    /// the other tables of `offers` (a renewal asks several times).
    public func subscriptionOffers(_ original: TransactionID) -> SubscriptionOfferState? {
        offerState?.subscriptions[original]
    }
    /// What the App Store Server API recorded per transaction (`ServerAPIRecord`); nil when
    /// nothing (stores written before issue 13 have no such member).
    public var serverAPIRecords: [TransactionID: ServerAPIRecord]?
    /// Completed mass renewal-date extensions, oldest first; nil when none.
    public var massExtensions: [MassExtension]?
    /// The webhook's delivery attempts, by the notification's event `seq`; nil when none.
    public var sendAttempts: [UInt64: [SendAttempt]]?
    /// Retention Messaging: images, messages, defaults, the realtime URL; nil when none.
    public var retention: RetentionMessaging?
    /// Refund requests by transaction id (`RefundRequest`, issue 15); nil when none.
    public var refundRequests: [TransactionID: RefundRequest]?
    /// Announced price increases, oldest first (`PriceIncrease`, issue 15); nil when none.
    public var priceIncreases: [PriceIncrease]?
    /// Each subscriber's answer to a price increase, by original transaction id; nil when none.
    public var priceConsents: [TransactionID: PriceConsent]?
    /// Family Sharing: the members and what they have through the family; nil when no family
    /// (see `Family`, `familyGroup`).
    public var family: Family?

    /// The first purchase that made a product owned.
    public struct Ownership: Hashable, Sendable, Codable {
        public var originalID: TransactionID
        public var originalDate: Timestamp
        public var userID: UserID?

        public init(originalID: TransactionID, originalDate: Timestamp, userID: UserID?) {
            self.originalID = originalID
            self.originalDate = originalDate
            self.userID = userID
        }
    }

    public init(
        bundleID: String = "com.x.demo", appVersion: String = "1.0", start: Timestamp = .defaultStart,
        settings: Settings = Settings()
    ) {
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.originalAppVersion = appVersion
        self.clock = start
        self.nextTransactionID = .first
        self.nextEventSeq = 1
        self.nextWebOrderLineItemID = 2_000_000_000_001
        self.settings = settings
        self.queue = PaymentQueue()
        self.ownership = [:]
        self.subscriptions = [:]
        self.subscriptionGroups = [:]
        self.nonRenewing = [:]
    }

    /// The index of `id` in the queue, by binary search (the queue is sorted by id).
    func queueIndex(of id: TransactionID) -> Int? { queue.index(of: id) }

    public func queued(_ id: TransactionID) -> Transaction? {
        queue.index(of: id).map { queue[$0] }
    }

    /// Replaces the queue wholesale (salvage rebuilds it from the journal).
    mutating func replaceQueue(with transactions: [Transaction]) {
        queue = PaymentQueue(transactions.filter { $0.isInQueue })
    }

    /// Replaces the queue with one read from a checkpoint.
    mutating func replaceQueue(with stored: PaymentQueue) { queue = stored }

    /// Where the queue reads the transactions a checkpoint named by id (the store's journal).
    mutating func attachQueueSource(_ source: PaymentQueue.Source) { queue.attach(source) }
    /// Stores a transaction's App Store Server API record; an empty map is kept as nil, so a
    /// store that never had one compares equal to its reloaded self.
    mutating func setServerAPIRecord(_ record: ServerAPIRecord?, for id: TransactionID) {
        var all = serverAPIRecords ?? [:]
        all[id] = record
        serverAPIRecords = all.isEmpty ? nil : all
    }

    /// The app account token Set App Account Token gave an original transaction, if any.
    public func appAccountToken(original: TransactionID) -> String? { serverAPIRecords?[original]?.appAccountToken }

    /// Puts a transaction in the queue, or replaces the queued version; finished (and deleted)
    /// ones leave it.
    mutating func upsert(_ transaction: Transaction) { queue.upsert(transaction) }

    /// Records a stored transaction's queue membership without decoding it (`PaymentQueue.upsertStored`).
    mutating func upsertStored(_ id: TransactionID, inQueue: Bool) { queue.upsertStored(id, inQueue: inQueue) }

    /// Takes a transaction out of the queue before it is finished (see `PaymentQueue.remove`).
    mutating func dequeue(_ id: TransactionID) { queue.remove(id) }
}

extension ProductID: CodingKeyRepresentable {
    public var codingKey: any CodingKey { ProductIDKey(stringValue: rawValue) }

    public init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }

    private struct ProductIDKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension TransactionID: CodingKeyRepresentable {
    public var codingKey: any CodingKey { TransactionIDKey(stringValue: description) }

    public init?<T: CodingKey>(codingKey: T) { self.init(parsing: codingKey.stringValue) }

    private struct TransactionIDKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
