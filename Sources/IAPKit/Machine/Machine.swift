/// The deterministic purchase state machine: a catalog, the working state, and `apply`, the one
/// place where state changes.
///
/// `apply` performs no I/O and reads no clock: time is `state.clock`, identifiers come from the
/// state's counters, and history is reached through the `TransactionArchive` passed in. The same
/// catalog, state and commands therefore always give the same events and transactions.
public struct Machine: Sendable {
    public let catalog: Catalog
    public internal(set) var state: StoreState
    /// The code and currency of the last storefront a new transaction was dated in, and the
    /// setting's text it was looked up by: every purchase asks, and the setting rarely changes.
    private var storefrontMemo: (setting: String, code: String, currency: String)?

    public init(catalog: Catalog, state: StoreState) {
        self.catalog = catalog
        self.state = state
    }

    /// `apply(_:archive:)` with the in-memory archive of tests and benchmarks: a caller in another
    /// module would otherwise run the unspecialized generic `apply`, passing the archive's type
    /// through every command's code; this overload is specialized inside IAPKit.
    public mutating func apply(_ command: Command, archive: MemoryArchive) throws(StoreError) -> Effects {
        var effects = Effects()
        try applyCommand(command, archive: archive, into: &effects)
        return effects
    }

    /// Applies one command. On a thrown error the state is unchanged (commands validate before
    /// they mutate), so a refused command never leaves a half-done store.
    public mutating func apply(_ command: Command, archive: some TransactionArchive) throws(StoreError) -> Effects {
        var effects = Effects()
        try applyCommand(command, archive: archive, into: &effects)
        return effects
    }

    /// The body of both `apply`s, into the caller's `effects` (returning them from here copied
    /// the whole value, and destroyed the original, on every apply).
    private mutating func applyCommand(
        _ command: Command, archive: some TransactionArchive, into effects: inout Effects
    ) throws(StoreError) {
        // Near the date limit the state before is kept to roll back to; far from it (every
        // store's usual life) no copy of the state is made at all.
        guard watchesDateLimit(command) else { return try applyUnwatched(command, archive: archive, into: &effects) }
        let before = state
        try applyUnwatched(command, archive: archive, into: &effects)
        if let problem = dateLimitProblem(effects, clockBefore: before.clock) {
            state = before
            throw problem
        }
    }

    /// `applyCommand` without the date-limit check.
    private mutating func applyUnwatched(
        _ command: Command, archive: some TransactionArchive, into effects: inout Effects
    ) throws(StoreError) {
        // Most commands emit a few events: room for them at once, not an allocation at the first
        // and a copy into a larger one at the second.
        if effects.events.isEmpty { effects.events.reserveCapacity(4) }
        switch command {
        case .requestProducts(let ids):
            requestProducts(ids, into: &effects)
        case .buy(let id, let user, let quantity):
            try buy(id, user: user, quantity: quantity, into: &effects)
        case .finish(let ids):
            try finish(ids, archive: archive, into: &effects)
            effects.outcome = .finish(effects.finish)
        case .finishAll:
            let ids = state.queue.filter { $0.state.isFinishable }.map(\.id)
            try finish(ids, archive: archive, into: &effects)
            effects.outcome = .finish(effects.finish)
        case .restore(let user):
            try restore(user: user, archive: archive, into: &effects)
        case .launch:
            let queue = state.queue
            emit(.appLaunched(unfinished: queue.count), into: &effects)
            for t in queue { emit(.transactionRedelivered(t), into: &effects) }
            effects.outcome = .launch(redelivered: Array(queue))
        case .setSetting(let key, let value):
            guard let setting = SettingKey(rawValue: key) else {
                throw .unknownSetting(key, suggestion: Suggestions.nearest(to: key, among: SettingKey.names))
            }
            var settings = state.settings
            try setting.set(value, in: &settings)
            state.settings = settings
            emit(.settingChanged(key: key, value: setting.value(in: settings)), into: &effects)
        case .createStore(let origin):
            try createStore(origin, into: &effects)
        case .applyCatalogSettings(let settings, let catalog):
            try applyCatalogSettings(settings, catalog: catalog, into: &effects)
        case .download(let move, let id, let content):
            try moveDownloads(move, of: id, content: content, archive: archive, into: &effects)
        case .recordDownloadProgress(let id, let content, let bytes):
            try recordDownloadProgress(id, content: content, downloadedBytes: bytes, archive: archive, into: &effects)
        case .recordContentDownload(let id, let step): try recordContentDownload(id, step, archive: archive, into: &effects)
        case .promote(let id, let user): try promote(id, user: user, into: &effects)
        case .acceptStoredPayments: acceptStoredPayments(into: &effects)
        case .approve(let id): try approve(id, archive: archive, into: &effects)
        case .decline(let id, let error): try decline(id, error: error, archive: archive, into: &effects)
        case .resolve(let id): try resolve(id, archive: archive, into: &effects)
        case .addFault(let point, let error, let count, let product):
            try addFault(point, error, count: count, product: product, into: &effects)
        case .clearFaults: clearFaults(into: &effects)
        case .consume(let id, let count): try consume(id, count: count, into: &effects)
        case .receipt(let request): try applyReceipt(request, archive: archive, into: &effects)
        case .advanceClock(let target):
            try advanceClock(to: target, into: &effects)
        case .setAutoRenew(let ref, let on):
            try setAutoRenew(ref, on: on, into: &effects)
        case .expireSubscription(let ref):
            try expireSubscription(ref, archive: archive, into: &effects)
        case .renewSubscription(let ref):
            try renewSubscription(ref, archive: archive, into: &effects)
        case .resolveBillingIssue(let ref):
            try resolveBillingIssue(ref, into: &effects)
        case .refund(let id, let reason):
            try refund(id, reason: reason, archive: archive, into: &effects)
        case .deleteTransaction(let id):
            try deleteTransaction(id, archive: archive, into: &effects)
        case .clearTransactions:
            try clearTransactions(archive: archive, into: &effects)
        case .addOfferKey(let record):
            try addOfferKey(record, into: &effects)
        case .removeOfferKey(let id):
            try removeOfferKey(id, into: &effects)
        case .buyWithOptions(let id, let user, let quantity, let options):
            try buyWithOptions(id, user: user, quantity: quantity, options: options, archive: archive, into: &effects)
        case .serverAPI(let request):
            try applyServerAPI(request, archive: archive, into: &effects)
        case .refundRequest(let step):
            try applyRefundStep(step, archive: archive, into: &effects)
        case .raisePrice(let product, let price, let storefront, let consent):
            try raisePrice(product, to: price, storefront: storefront, consentRequired: consent, archive: archive, into: &effects)
        case .answerPriceIncrease(let id, let accept):
            try answerPriceIncrease(id, accept: accept, archive: archive, into: &effects)
        case .family(let request):
            try applyFamily(request, archive: archive, into: &effects)
        case .simulatedAPI(let point, let product):
            if let error = takeFault(point, product: product, into: &effects) { effects.outcome = .apiFailed(point, error) }
        }
        try flushFollowups(archive: archive, into: &effects)
        shareWithFamily(into: &effects)
    }

    // MARK: - Products

    /// The products a request returns, and the ids StoreKit would list as invalid: unknown ids
    /// and products not sold in the current storefront. No ids means the whole catalog.
    public func productsRequest(_ ids: [ProductID], storefront: String? = nil) -> (valid: [Product], invalid: [ProductID]) {
        let storefront = storefront ?? state.settings.storefront
        let wanted = ids.isEmpty ? catalog.products.map(\.id) : ids
        var valid: [Product] = []
        var invalid: [ProductID] = []
        var seen: Set<ProductID> = []
        for id in wanted where seen.insert(id).inserted {
            if let p = catalog[id], p.price(in: storefront) != nil {
                valid.append(raisingPrices(of: p))
            } else {
                invalid.append(id)
            }
        }
        return (valid, invalid)
    }

    // MARK: - Buying

    private mutating func buy(_ id: ProductID, user: UserID?, quantity: Int, into effects: inout Effects) throws(StoreError) {
        let product = try sellable(id)
        guard PurchaseQuantity.range.contains(quantity) else { throw .quantityOutOfRange(quantity) }
        if quantity > 1 {
            guard PurchaseQuantity.allowsMany(product.type, settings: state.settings) else {
                throw .quantityNotAllowed(id, product.type)
            }
        }
        let t = pay(product, user: user, quantity: quantity, into: &effects)
        effects.outcome = .payment(payment(t))
    }

    /// The typed answer a payment's final transaction stands for.
    func payment(_ t: Transaction) -> Payment {
        Payment(t, interrupted: state.interruptedPurchases.contains { $0.transactionID == t.id })
    }

    /// The product if it can be bought now, else why not.
    func sellable(_ id: ProductID) throws(StoreError) -> Product {
        guard let product = catalog[id] else { throw .unknownProduct(id, closest: catalog.closest(to: id)) }
        guard product.price(in: state.settings.storefront) != nil else {
            throw .productNotInStorefront(id, storefront: state.settings.storefront, available: product.prices.map(\.storefront))
        }
        return product
    }

    /// A new transaction for `product`, numbered from the store's counter and dated now.
    mutating func newTransaction(_ product: Product, user: UserID?, quantity: Int, state txState: TransactionState) -> Transaction
    {
        let id = state.nextTransactionID
        state.nextTransactionID = id.next
        let storefront = currentStorefront()
        return Transaction(
            id: id, originalID: id, productID: product.id, productType: product.type, quantity: quantity, userID: user,
            state: txState, date: state.clock, originalDate: state.clock, storefront: storefront.code,
            price: raisedPrice(of: product.id, in: storefront.code) ?? product.price(in: storefront.code) ?? .zero,
            currency: storefront.currency, charged: false,
            subscriptionGroup: product.subscriptionGroup)
    }

    /// The code and currency a new transaction records: the storefront setting's, or the
    /// United States' for a code iapctl does not know.
    private mutating func currentStorefront() -> (code: String, currency: String) {
        let setting = state.settings.storefront
        if let memo = storefrontMemo, memo.setting == setting { return (memo.code, memo.currency) }
        let found = Storefront.codeAndCurrency(setting) ?? (Storefront.usa.code, Storefront.usa.currency)
        storefrontMemo = (setting, found.code, found.currency)
        return found
    }

    /// Moves a purchasing (or approved deferred) transaction to purchased: charges the user, or,
    /// for a non-consumable the account already owns, delivers it again without a charge, as the
    /// App Store does ("You've already purchased this"), pointing at the first purchase.
    mutating func complete(_ t: inout Transaction, product: Product, into effects: inout Effects) {
        t.state = .purchased
        if product.type == .nonRenewing || product.type == .consumable || product.type == .nonConsumable {
            applyOneTimeOffer(&t, product: product)
        }
        if product.type.isSubscription { return completeSubscription(&t, product: product, into: &effects) }
        if product.type == .nonConsumable, let owned = state.ownership[product.id] {
            t.originalID = owned.originalID
            t.originalDate = owned.originalDate
            t.charged = false
        } else {
            t.charged = true
            if product.type.isRestorable && state.ownership[product.id] == nil {
                state.ownership[product.id] = .init(originalID: t.id, originalDate: t.date, userID: t.userID)
            }
        }
        // Assigning no downloads to a transaction that has none would copy its shared fields.
        if !product.hostedContent.isEmpty || !t.downloads.isEmpty { t.downloads = downloads(for: product) }
        if t.offerType == .code && t.price == .zero { t.charged = false }
    }

    /// Hosted content arrives with purchased and restored transactions, every download waiting.
    func downloads(for product: Product) -> [Download] {
        product.hostedContent.map {
            Download(contentIdentifier: $0.contentIdentifier, contentVersion: $0.version, contentLength: $0.contentLength)
        }
    }

    // MARK: - Finishing

    private mutating func finish(_ ids: [TransactionID], archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError)
    {
        // One id (the common finish) needs no set to drop repeats, nor a list of targets.
        if ids.count == 1 {
            let id = ids[0]
            guard let t = state.queued(id) else {
                if try archive.transaction(id) != nil { throw .alreadyFinished(id) }
                throw .unknownTransaction(id)
            }
            guard t.state.isFinishable else { throw .cannotFinish(id, state: t.state.name) }
            return finishValidated(t, into: &effects)
        }
        var seen: Set<TransactionID> = []
        var targets: [Transaction] = []
        for id in ids where seen.insert(id).inserted {
            guard let t = state.queued(id) else {
                if try archive.transaction(id) != nil { throw .alreadyFinished(id) }
                throw .unknownTransaction(id)
            }
            guard t.state.isFinishable else { throw .cannotFinish(id, state: t.state.name) }
            targets.append(t)
        }
        for t in targets { finishValidated(t, into: &effects) }
    }

    // MARK: - Restoring

    /// New `restored` transactions for everything restorable the account owns, each with a new id
    /// and the original purchase's id and date; consumables and non-renewing subscriptions are
    /// never restored (REFERENCE section 1). `user` is the `applicationUsername` passed to
    /// `restoreCompletedTransactions(withApplicationUsername:)`: StoreKit uses it for fraud
    /// checks, not as a filter, so it is recorded on the restored transactions.
    private mutating func restore(
        user: UserID?, archive: some TransactionArchive, into effects: inout Effects
    ) throws(StoreError) {
        tickRunningDue(into: &effects)
        let owned = state.ownership.sorted { $0.value.originalID < $1.value.originalID }
        var count = 0
        if let error = takeFault(.restore, where: { $0 == nil }, into: &effects) {
            emit(.restoreFailed(error, user: user), into: &effects)
            effects.outcome = .restore(restored: [], failure: error)
            return
        }
        for (productID, ownership) in owned {
            guard let product = catalog[productID], product.type.isRestorable else { continue }
            if let error = takeFault(.restore, where: { $0 == productID }, into: &effects) {
                emit(.restoreFailed(error, user: user), into: &effects)
                effects.outcome = .restore(restored: effects.transactions.filter { $0.state == .restored }, failure: error)
                return
            }
            // Subscriptions restore from their billing periods, below.
            if product.type == .autoRenewable { continue }
            var t = newTransaction(product, user: user ?? ownership.userID, quantity: 1, state: .restored)
            t.originalID = ownership.originalID
            t.originalDate = ownership.originalDate
            t.downloads = downloads(for: product)
            record(t, into: &effects)
            emit(.transactionUpdated(t), into: &effects)
            count += 1
        }
        count += try restoreSubscriptions(user: user, archive: archive, into: &effects)
        emit(.restoreFinished(count: count, user: user), into: &effects)
        effects.outcome = .restore(restored: effects.transactions.filter { $0.state == .restored }, failure: nil)
    }

    // MARK: - Plumbing

    /// Advances the clock by the configured step before a new payment or restore.
    mutating func tick() {
        state.clock = state.clock.adding(milliseconds: state.settings.clockStepMilliseconds)
    }

    mutating func emit(_ kind: EventKind, into effects: inout Effects) {
        effects.events.append(Event(seq: state.nextEventSeq, date: state.clock, kind: kind))
        state.nextEventSeq += 1
    }

    mutating func record(_ t: Transaction, into effects: inout Effects) {
        state.upsert(t)
        trackSelfHostedContent(t)
        effects.record(t)
    }
}
