/// Store-initiated (promoted) purchases: the App Store starts a payment and asks the app
/// `paymentQueue(_:shouldAddStorePayment:for:)` (REFERENCE section 1). The answer is the
/// `store-payments` setting; see `StorePaymentPolicy`.
extension Machine {
    /// The most stored payments a store keeps.
    static let maximumStoredPayments = 1000

    mutating func promote(_ id: ProductID, user: UserID?, into effects: inout Effects) throws(StoreError) {
        let product = try sellable(id)
        if state.settings.storePayments == .defer && state.storedPayments.count >= Machine.maximumStoredPayments {
            throw .refused(.tooManyStoredPayments(Machine.maximumStoredPayments))
        }
        tickRunningDue(into: &effects)
        let payment = StoredPayment(productID: id, userID: user, quantity: 1, date: state.clock)
        switch state.settings.storePayments {
        case .accept:
            emit(.storePayment(.accepted, payment), into: &effects)
            let t = pay(product, user: user, quantity: 1, ticking: false, into: &effects)
            effects.outcome = .promoted(.accepted, payment, then: self.payment(t), family: [])
        case .defer:
            state.storedPayments.append(payment)
            emit(.storePayment(.deferred, payment), into: &effects)
            effects.outcome = .promoted(.deferred, payment, then: nil, family: [])
        case .decline:
            // DYFStoreKit's delegate returns NO, and its demo app then buys the product itself,
            // unless the device cannot pay (it shows a tip instead).
            emit(.storePayment(.declined, payment), into: &effects)
            var then: Payment?
            if state.settings.paymentsAllowed {
                then = self.payment(pay(product, user: user, quantity: 1, ticking: false, into: &effects))
            }
            effects.outcome = .promoted(.declined, payment, then: then, family: [])
        }
    }

    /// RMStore's `acceptStoredStorePayments`: each stored payment joins the queue, oldest first.
    mutating func acceptStoredPayments(into effects: inout Effects) {
        let payments = state.storedPayments
        state.storedPayments = []
        var answers: [Payment] = []
        for payment in payments {
            emit(.storePayment(.acceptedLater, payment), into: &effects)
            // A store's catalog never changes, so the product is always found.
            guard let product = catalog[payment.productID] else { continue }
            answers.append(self.payment(pay(product, user: payment.userID, quantity: payment.quantity, into: &effects)))
        }
        effects.outcome = .storedPaymentsAccepted(answers)
    }
}
