/// Fault injection: armed faults make the next matching requests fail, deterministically, in the
/// order the faults were added. Each firing is recorded as a `faultFired` event.
extension Machine {
    /// The most faults a store keeps armed, and the most firings one fault may have: enough for
    /// any script, and a bound on the state's size.
    static let maximumFaults = 100
    static let maximumFaultCount = 1000

    mutating func addFault(
        _ point: FaultPoint, _ error: TransactionError, count: Int, product: ProductID?, into effects: inout Effects
    ) throws(StoreError) {
        guard (1...Machine.maximumFaultCount).contains(count) else {
            throw .badArgument(.faultCount(count, maximum: Machine.maximumFaultCount))
        }
        if let product, catalog[product] == nil {
            throw .unknownProduct(product, closest: catalog.closest(to: product))
        }
        guard state.faults.count < Machine.maximumFaults else {
            throw .refused(.tooManyFaults(Machine.maximumFaults))
        }
        let fault = Fault(id: state.nextFaultID, point: point, error: error, remaining: count, productID: product)
        state.nextFaultID += 1
        state.faults.append(fault)
        emit(.faultAdded(fault), into: &effects)
        effects.outcome = .faultAdded(fault)
    }

    mutating func clearFaults(into effects: inout Effects) {
        let count = state.faults.count
        state.faults = []
        emit(.faultsCleared(count: count), into: &effects)
        effects.outcome = .faultsCleared(count: count)
    }

    /// The error of the first armed fault at `point` that applies to `product`, firing it once;
    /// nil when none applies. A fault without a product applies to every request at its point;
    /// one with a product only to requests about that product. The firing is recorded at once as
    /// a `faultFired` event, so it precedes the failure it causes.
    ///
    /// Commands call this at the moment the simulated App Store would answer, after validating
    /// their input (a refused command must leave the state unchanged). The receipt-refresh and
    /// verification commands consume the `refresh-receipt` and `verification` points this way.
    mutating func takeFault(_ point: FaultPoint, product: ProductID?, into effects: inout Effects) -> TransactionError? {
        takeFault(point, where: { $0 == nil || $0 == product }, into: &effects)
    }

    /// The first armed fault at `point` whose product `matches`, fired once.
    mutating func takeFault(
        _ point: FaultPoint, where matches: (ProductID?) -> Bool, into effects: inout Effects
    ) -> TransactionError? {
        guard let i = state.faults.firstIndex(where: { $0.point == point && matches($0.productID) }) else { return nil }
        var fault = state.faults[i]
        fault.remaining -= 1
        if fault.remaining == 0 { state.faults.remove(at: i) } else { state.faults[i] = fault }
        emit(.faultFired(fault), into: &effects)
        effects.firedFaults.append(fault)
        return fault.error
    }

    /// `SKProductsRequest`: answered, or failed by a `products` fault that names no product or one
    /// of the requested products (any product, for a whole-catalog request).
    mutating func requestProducts(_ ids: [ProductID], into effects: inout Effects) {
        let wanted = Set(ids)
        if let error = takeFault(.products, where: { $0 == nil || wanted.isEmpty || wanted.contains($0!) }, into: &effects) {
            emit(.productsRequestFailed(error), into: &effects)
            effects.outcome = .productsRequest(failure: error)
            return
        }
        let (valid, invalid) = productsRequest(ids)
        emit(.productsRequestFinished(products: valid.map(\.id), invalid: invalid), into: &effects)
        effects.outcome = .productsRequest(failure: nil)
    }
}
