/// New payments and what the store answers them, and Ask to Buy's approval and decline.
extension Machine {
    /// A new payment for `product` (validated by the caller): a `purchasing` transaction, then the
    /// store's answer. Returns the transaction in its final state.
    @discardableResult
    mutating func pay(_ product: Product, user: UserID?, quantity: Int, ticking: Bool = true, into effects: inout Effects)
        -> Transaction
    {
        if ticking { tickRunningDue(into: &effects) }
        var t = newTransaction(product, user: user, quantity: quantity, state: .purchasing)
        emit(.transactionUpdated(t), into: &effects)
        settle(&t, product: product, into: &effects)
        record(t, into: &effects)
        emit(.transactionUpdated(t), into: &effects)
        return t
    }

    /// The store's answer to a purchasing payment, checked in this order:
    /// 0. the product is not sold in the storefront (a stored payment accepted after the
    ///    storefront changed): SKError storeProductNotAvailable;
    /// 1. payments not allowed (`SKPaymentQueue.canMakePayments()` false): SKError paymentNotAllowed;
    /// 2. an armed `purchase` fault: its error;
    /// 3. `fail-transactions` (Xcode's `_failTransactionsEnabled`): the configured error;
    /// 4. `interrupted-purchases`: SKError paymentCancelled, and the purchase waits for `resolve`
    ///    (Apple, "Testing an interrupted purchase": the payment fails, and a new transaction
    ///    succeeds once the user has acted);
    /// 5. `ask-to-buy`: deferred, waiting for `approve` or `decline`;
    /// 6. otherwise purchased.
    mutating func settle(_ t: inout Transaction, product: Product, into effects: inout Effects) {
        if product.price(in: state.settings.storefront) == nil {
            t.state = .failed(TransactionError(.storeProductNotAvailable))
        } else if !state.settings.paymentsAllowed {
            t.state = .failed(TransactionError(.paymentNotAllowed))
        } else if let error = takeFault(.purchase, product: product.id, into: &effects) {
            t.state = .failed(error)
        } else if let error = state.settings.failTransactions {
            t.state = .failed(error)
        } else if state.settings.interruptedPurchases {
            t.state = .failed(TransactionError(.paymentCancelled))
            state.interruptedPurchases.append(
                InterruptedPurchase(transactionID: t.id, productID: product.id, userID: t.userID, quantity: t.quantity))
        } else if state.settings.askToBuy {
            t.state = .deferred
        } else {
            complete(&t, product: product, into: &effects)
        }
    }

    /// Ask to Buy approved: the deferred transaction becomes purchased, dated now.
    mutating func approve(_ id: TransactionID, archive: some TransactionArchive, into effects: inout Effects) throws(StoreError) {
        var t = try deferredTransaction(id, verb: "approve", archive: archive)
        guard let product = catalog[t.productID] else {
            throw .unknownProduct(t.productID, closest: catalog.closest(to: t.productID))
        }
        tickRunningDue(into: &effects)
        t.date = state.clock
        if t.originalID == t.id { t.originalDate = state.clock }
        complete(&t, product: product, into: &effects)
        record(t, into: &effects)
        emit(.transactionUpdated(t), into: &effects)
        effects.outcome = .payment(.purchased(t))
    }

    /// Ask to Buy declined: the deferred transaction fails with `error`.
    mutating func decline(
        _ id: TransactionID, error: TransactionError, archive: some TransactionArchive, into effects: inout Effects
    ) throws(StoreError) {
        var t = try deferredTransaction(id, verb: "decline", archive: archive)
        tickRunningDue(into: &effects)
        t.date = state.clock
        if t.originalID == t.id { t.originalDate = state.clock }
        t.state = .failed(error)
        state.offers.requests[id] = nil
        record(t, into: &effects)
        emit(.transactionUpdated(t), into: &effects)
        effects.outcome = .declined(t)
    }

    /// The queued transaction `id` if it is deferred; else why it cannot be approved or declined.
    func deferredTransaction(_ id: TransactionID, verb: String, archive: some TransactionArchive) throws(StoreError)
        -> Transaction
    {
        guard let t = state.queued(id) else {
            if try archive.transaction(id) != nil {
                throw .refused(.approveFinished(verb: verb, id))
            }
            throw .unknownTransaction(id)
        }
        guard t.state == .deferred else {
            throw .refused(.approveNotDeferred(verb: verb, id, state: t.state.name))
        }
        return t
    }
}
