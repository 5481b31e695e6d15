import Testing

@testable import IAPKit

@Suite("Fault injection on the state machine")
struct FaultTests {
    static let cancelled = TransactionError(.paymentCancelled)
    static let network = TransactionError(.cloudServiceNetworkConnectionFailed)

    @Test("faults fire in the order added, count down, and are removed when spent; each firing is an event before the failure")
    func order() throws {
        var h = MachineHarness()
        try h.apply(.addFault(.purchase, Self.cancelled, count: 2, product: nil))
        try h.apply(.addFault(.purchase, Self.network, count: 1, product: nil))
        #expect(h.state.faults.map(\.id) == [1, 2] && h.state.nextFaultID == 3)
        var errors: [TransactionError?] = []
        var names: [[String]] = []
        for _ in 0..<4 {
            let before = h.events.count
            errors.append(try h.buy("com.x.coin42").state.error)
            names.append(h.events[before...].map(\.name))
        }
        #expect(errors == [Self.cancelled, Self.cancelled, Self.network, nil])
        #expect(names[0] == ["transactionPurchasing", "faultFired", "transactionFailed"])
        #expect(names[3] == ["transactionPurchasing", "transactionPurchased"])
        #expect(h.state.faults.isEmpty)
        let fired = h.events.compactMap { e -> Fault? in
            if case .faultFired(let f) = e.kind { return f }
            return nil
        }
        #expect(fired.map(\.remaining) == [1, 0, 0] && fired.map(\.id) == [1, 1, 2])
    }

    @Test("a fault for a product fires only for it")
    func productFilter() throws {
        var h = MachineHarness()
        try h.apply(.addFault(.purchase, Self.cancelled, count: 1, product: ProductID("com.x.noads")))
        #expect(try h.buy("com.x.coin42").state == .purchased)
        #expect(try h.buy("com.x.noads").state == .failed(Self.cancelled))
    }

    @Test("products faults fail the products request, for a whole-catalog request or a requested product")
    func products() throws {
        var h = MachineHarness()
        try h.apply(.addFault(.products, TransactionError.seedErrors[0], count: 1, product: ProductID("com.x.vip2")))
        var e = try h.apply(.requestProducts([ProductID("com.x.coin42")]))
        #expect(h.names(e) == ["productsRequestFinished"])
        e = try h.apply(.requestProducts([]))
        #expect(h.names(e) == ["faultFired", "productsRequestFailed"])
        #expect(e.events.last?.kind == .productsRequestFailed(TransactionError.seedErrors[0]))
    }

    @Test("restore faults: without a product nothing is restored; with one, the products before it are (partial success)")
    func restore() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.noads")
        _ = try h.buy("com.x.vip2")
        try h.apply(.finishAll)
        try h.apply(.addFault(.restore, Self.network, count: 1, product: nil))
        var e = try h.apply(.restore(user: nil))
        #expect(h.names(e) == ["faultFired", "restoreFailed"] && e.transactions.isEmpty)
        try h.apply(.addFault(.restore, Self.network, count: 1, product: ProductID("com.x.vip2")))
        e = try h.apply(.restore(user: nil))
        #expect(h.names(e) == ["transactionRestored", "faultFired", "restoreFailed"])
        #expect(e.transactions.map(\.productID.rawValue) == ["com.x.noads"])
    }

    @Test("refresh-receipt and verification points are consumed through takeFault by later commands")
    func laterPoints() throws {
        var h = MachineHarness()
        try h.apply(.addFault(.verification, TransactionError.unableToCompleteVerification, count: 1, product: nil))
        try h.apply(.addFault(.refreshReceipt, Self.network, count: 1, product: ProductID("com.x.noads")))
        _ = try h.buy("com.x.coin42")
        #expect(h.state.faults.count == 2, "purchases do not consume other points")
        var m = h.machine
        var effects = Effects()
        #expect(m.takeFault(.refreshReceipt, product: ProductID("com.x.coin42"), into: &effects) == nil)
        #expect(m.takeFault(.refreshReceipt, product: ProductID("com.x.noads"), into: &effects) == Self.network)
        #expect(m.takeFault(.verification, product: nil, into: &effects) == TransactionError.unableToCompleteVerification)
        #expect(m.state.faults.isEmpty)
        // Each firing is recorded as it happens: a faultFired event, and in the typed list.
        #expect(effects.events.map(\.name) == ["faultFired", "faultFired"])
        #expect(effects.firedFaults.map(\.point) == [.refreshReceipt, .verification])
    }

    @Test("clear disarms all; bad counts and unknown products are refused")
    func clearAndRefusals() throws {
        var h = MachineHarness()
        try h.apply(.addFault(.download, Self.network, count: 3, product: nil))
        let e = try h.apply(.clearFaults)
        #expect(e.events.map(\.kind) == [.faultsCleared(count: 1)])
        #expect(h.state.faults.isEmpty && h.state.nextFaultID == 2)
        h.expectRefusal(
            .addFault(.purchase, Self.network, count: 0, product: nil), .usage("fault count 0 is out of range; use 1 to 1000"))
        h.expectRefusal(
            .addFault(.purchase, Self.network, count: 1, product: ProductID("com.x.nope")),
            .unknownProduct(
                ProductID("com.x.nope"), closest: [ProductID("com.x.noads"), ProductID("com.x.vip1"), ProductID("com.x.vip2")]))
    }

    @Test(
        "error specifications: SKError names (any case) and codes, seed codes and names",
        arguments: [
            ("paymentCancelled", "SKErrorDomain", 2), ("PAYMENTCANCELLED", "SKErrorDomain", 2), ("2", "SKErrorDomain", 2),
            ("0", "SKErrorDomain", 0), ("20", "SKErrorDomain", 20), ("100", "net.robotmedia.store", 100),
            ("200", "net.robotmedia.store", 200), ("300", "net.robotmedia.store", 300),
            ("downloadCanceled", "net.robotmedia.store", 300),
            ("136", "SKErrorDomain.dyfstore", 136),
        ])
    func specs(text: String, domain: String, code: Int) throws {
        let error = try #require(TransactionError(spec: text))
        #expect(error.domain == domain && error.code == code)
    }

    @Test(
        "bad error specifications name the value, a near name and the accepted forms",
        arguments: ["21", "-1", "paymentCanceled", "", "101"])
    func badSpecs(text: String) {
        #expect(TransactionError(spec: text) == nil)
        let hint = text == "paymentCanceled" ? "did you mean 'paymentCancelled'? " : ""
        #expect(
            TransactionError.specProblem(text)
                == "unknown error '\(text)'; \(hint)give an SKError name or code 0-20 (paymentCancelled or 2) or a seed code 100, 136, 200, 300"
        )
    }
}
