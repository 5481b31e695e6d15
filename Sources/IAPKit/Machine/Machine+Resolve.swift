/// Something `iapctl resolve ID` can clear: the user acted outside the app and the store can now
/// complete what was waiting.
///
/// Extension point: another resolvable issue (a subscription in billing retry, for instance) is a
/// new case here, found by `Machine.resolvable(_:)` and handled in `Machine.resolve`, whose switch
/// the compiler then points at.
enum Resolvable: Hashable, Sendable {
    /// A purchase that failed as interrupted (`interrupted-purchases`).
    case interruptedPurchase(InterruptedPurchase)
}

extension Machine {
    /// What `id` has to resolve, if anything.
    func resolvable(_ id: TransactionID) -> Resolvable? {
        if let purchase = state.interruptedPurchases.first(where: { $0.transactionID == id }) {
            return .interruptedPurchase(purchase)
        }
        return nil
    }

    mutating func resolve(_ id: TransactionID, archive: some TransactionArchive, into effects: inout Effects) throws(StoreError) {
        guard let issue = resolvable(id) else {
            var known = state.queued(id)
            if known == nil { known = try archive.transaction(id) }
            guard let t = known else { throw .unknownTransaction(id) }
            let what = t.state.error.map { "failed (\($0.name))" } ?? t.state.name
            throw .refused(.nothingToResolve(id, what: what))
        }
        switch issue {
        case .interruptedPurchase(let purchase):
            resolveInterrupted(purchase, into: &effects)
        }
    }

    /// The user fixed what interrupted the purchase: a new transaction arrives purchased, and the
    /// failed one stays as it was (Apple: "Testing an interrupted purchase").
    private mutating func resolveInterrupted(_ purchase: InterruptedPurchase, into effects: inout Effects) {
        state.interruptedPurchases.removeAll { $0.transactionID == purchase.transactionID }
        // A store's catalog never changes, so the product is always found.
        guard let product = catalog[purchase.productID] else { return }
        tickRunningDue(into: &effects)
        var t = newTransaction(product, user: purchase.userID, quantity: purchase.quantity, state: .purchasing)
        // The offer the interrupted payment asked for applies to the purchase that resolves it.
        if let request = state.offers.requests[purchase.transactionID] {
            state.offers.requests[purchase.transactionID] = nil
            state.offers.requests[t.id] = request
        }
        complete(&t, product: product, into: &effects)
        record(t, into: &effects)
        emit(.interruptedPurchaseResolved(original: purchase.transactionID, resolved: t.id), into: &effects)
        emit(.transactionUpdated(t), into: &effects)
        // The members' copies are shared at the end of the apply (`shareWithFamily`), which adds
        // them to `family`.
        effects.outcome = .resolved(original: purchase.transactionID, .purchased(t), family: [])
    }
}
