import Testing

@testable import IAPKit

/// Issue 12: every command's apply returns a typed outcome, and the exit code is decided from it
/// in one place (`ExitCode.init(_: Outcome)`).
@Suite("Typed outcomes and the one exit-code policy")
struct OutcomeTests {
    static let coin = ProductID("com.x.coin42")
    static let levelpack = ProductID("com.x.levelpack")

    @Test("buy: purchased, deferred, failed, interrupted; each with its exit code")
    func payments() throws {
        var h = MachineHarness()
        var e = try h.apply(.buy(Self.coin, user: nil, quantity: 1))
        guard case .payment(.purchased(let t)) = e.outcome else { Issue.record("\(e.outcome)"); return }
        #expect(t == e.transactions.last)
        #expect(ExitCode(e.outcome) == .success)

        h = MachineHarness { $0.askToBuy = true }
        e = try h.apply(.buy(Self.coin, user: nil, quantity: 1))
        guard case .payment(.deferred(let deferred)) = e.outcome else { Issue.record("\(e.outcome)"); return }
        #expect(ExitCode(e.outcome) == .pending)
        e = try h.apply(.decline(deferred.id, error: TransactionError(.paymentCancelled)))
        guard case .declined(let declined) = e.outcome else { Issue.record("\(e.outcome)"); return }
        #expect(declined.state.error == TransactionError(.paymentCancelled))
        #expect(ExitCode(e.outcome) == .success, "decline did as asked")

        h = MachineHarness { $0.paymentsAllowed = false }
        e = try h.apply(.buy(Self.coin, user: nil, quantity: 1))
        guard case .payment(.failed(_, let error)) = e.outcome else { Issue.record("\(e.outcome)"); return }
        #expect(error == TransactionError(.paymentNotAllowed))
        #expect(ExitCode(e.outcome) == .declined)

        h = MachineHarness { $0.interruptedPurchases = true }
        e = try h.apply(.buy(Self.coin, user: nil, quantity: 1))
        guard case .payment(.interrupted(let interrupted)) = e.outcome else { Issue.record("\(e.outcome)"); return }
        #expect(ExitCode(e.outcome) == .declined)
        e = try h.apply(.resolve(interrupted.id))
        guard case .resolved(interrupted.id, .purchased(let resolved), family: []) = e.outcome else {
            Issue.record("\(e.outcome)")
            return
        }
        #expect(resolved.id != interrupted.id)
        #expect(ExitCode(e.outcome) == .success)
    }

    @Test("a fault's firing is typed and recorded before the failure it causes; no side channel")
    func firedFaults() throws {
        var h = MachineHarness()
        try h.apply(.addFault(.purchase, TransactionError(.paymentCancelled), count: 1, product: nil))
        let e = try h.apply(.buy(Self.coin, user: nil, quantity: 1))
        #expect(e.firedFaults.map(\.point) == [.purchase])
        #expect(e.events.map(\.name) == ["transactionPurchasing", "faultFired", "transactionFailed"])
        guard case .payment(.failed) = e.outcome else { Issue.record("\(e.outcome)"); return }
    }

    @Test("finish: finished, postponed, delivery failed; cancelled downloads and their store effects")
    func finishes() throws {
        var h = MachineHarness()
        let pack = try h.buy(Self.levelpack.rawValue)
        let coin = try h.buy(Self.coin.rawValue)
        var e = try h.apply(.finish([pack.id, coin.id]))
        guard case .finish(let finish) = e.outcome else { Issue.record("\(e.outcome)"); return }
        #expect(finish.finished.map(\.id) == [pack.id, coin.id])
        #expect(finish.cancelledDownloads.map(\.transaction) == [pack.id])
        #expect(
            e.storeEffects == pack.downloads.map { .removeDownloadCopy(pack.id, content: $0.contentIdentifier) },
            "the session removes the copies of the downloads finishing cancelled")
        #expect(ExitCode(e.outcome) == .success)

        h = MachineHarness { $0.finishAfterDownloads = true }
        let waiting = try h.buy(Self.levelpack.rawValue)
        e = try h.apply(.finish([waiting.id]))
        guard case .finish(let postponed) = e.outcome, case .postponed = postponed.steps.first else {
            Issue.record("\(e.outcome)")
            return
        }
        #expect(ExitCode(e.outcome) == .pending)
        e = try h.apply(.download(.cancel, waiting.id, content: nil))
        #expect(e.finish.steps.count == 1)
        guard case .deliveryFailed(_, let error) = e.finish.steps.first else { Issue.record("\(e.finish)"); return }
        #expect(error == .downloadCanceled)
        #expect(ExitCode(.finish(e.finish)) == .declined)
    }

    @Test("restore, launch, refresh, faults: typed results")
    func others() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.noads")
        var e = try h.apply(.restore(user: nil))
        guard case .restore(let restored, nil) = e.outcome else { Issue.record("\(e.outcome)"); return }
        #expect(restored.map(\.state) == [.restored])
        e = try h.apply(.launch)
        guard case .launch(let redelivered) = e.outcome else { Issue.record("\(e.outcome)"); return }
        #expect(redelivered == h.state.queue)
        e = try h.apply(.addFault(.refreshReceipt, TransactionError(.unknown), count: 1, product: nil))
        guard case .faultAdded(let fault) = e.outcome else { Issue.record("\(e.outcome)"); return }
        e = try h.apply(.receipt(.refresh))
        #expect(e.outcome == .receiptRefresh(failure: fault.error))
        #expect(ExitCode(e.outcome) == .declined)
        e = try h.apply(.clearFaults)
        #expect(e.outcome == .faultsCleared(count: 0))
        e = try h.apply(.setSetting(key: "storefront", value: "JPN"))
        #expect(e.outcome == .done)
    }

    @Test("the quantity rule is declared once and the machine and messages use it")
    func quantity() throws {
        var h = MachineHarness()
        #expect(PurchaseQuantity.range == 1...10)
        #expect(throws: StoreError.quantityOutOfRange(11)) { try h.apply(.buy(Self.coin, user: nil, quantity: 11)) }
        #expect("\(StoreError.quantityOutOfRange(11))" == "quantity 11 is out of range; use 1 to 10")
        #expect(PurchaseQuantity.allowsMany(.consumable, settings: Settings()))
        #expect(!PurchaseQuantity.allowsMany(.nonRenewing, settings: Settings()))
        var on = Settings()
        on.nonRenewingQuantity = true
        #expect(PurchaseQuantity.allowsMany(.nonRenewing, settings: on))
        #expect(TransactionState.allNames == ["purchasing", "purchased", "failed", "restored", "deferred"])
    }

    @Test("products, delete and clock: the outcome is built where the events are made")
    func productsDeleteClock() throws {
        var h = MachineHarness()
        var e = try h.apply(.requestProducts([]))
        #expect(e.outcome == .productsRequest(failure: nil))
        try h.apply(.addFault(.products, TransactionError(.unknown), count: 1, product: nil))
        e = try h.apply(.requestProducts([Self.coin]))
        #expect(e.outcome == .productsRequest(failure: TransactionError(.unknown)))
        #expect(ExitCode(e.outcome) == .declined)

        var f = try FamilyRefundTests.harness()
        let unlock = try FamilyRefundTests.buy(&f, "shared.unlock")
        let copies = try #require(f.state.family?.shares.map(\.latest))
        e = try f.apply(.deleteTransaction(unlock.id))
        #expect(e.outcome == .deleted(unlock.deleted, familyCopies: copies.map(\.deleted)))
        #expect(ExitCode(e.outcome) == .success)

        let monthly = try FamilyRefundTests.buy(&f, "shared.monthly")
        let from = f.state.clock
        e = try f.advance("P1M")
        let latest = try #require(f.state.subscriptions[monthly.id]).latestID
        let renewal = try #require(f.transaction(latest))
        #expect(renewal.reason == .renewal)
        var move = ClockMove(from: from, to: f.state.clock, events: [])
        move.tally = [.init(name: "subscriptionRenewed", count: 1), .init(name: "familyTransactionShared", count: 2)]
        move.firstEventSeq = e.events.first?.seq
        #expect(e.outcome == .clockMoved(move))
        #expect(ExitCode(e.outcome) == .success)
    }

    @Test("renew, refund approve, download cancel: renewals, family lines and settled finishes travel in the outcome")
    func renewalsRefundsDownloads() throws {
        var f = try FamilyRefundTests.harness()
        let monthly = try FamilyRefundTests.buy(&f, "shared.monthly")
        var e = try f.apply(.renewSubscription(.originalTransaction(monthly.id)))
        let sub = try #require(f.state.subscriptions[monthly.id])
        let renewal = try #require(f.transaction(sub.latestID))
        let memberRenewals = try #require(f.state.family?.shares.map(\.latest))
        #expect(memberRenewals.count == 2 && memberRenewals.allSatisfy { $0.reason == .renewal })
        #expect(e.outcome == .subscriptionChanged(monthly.id, renewals: [renewal] + memberRenewals))

        let unlock = try FamilyRefundTests.buy(&f, "shared.unlock")
        let shared = try #require(f.state.family?.shares.filter { $0.purchaserOriginalID == unlock.id }.map(\.latest))
        e = try f.apply(.refundRequest(.request(unlock.id, reason: nil)))
        guard case .life(.refund(_, let q?, nil, nil, [])) = e.outcome else { Issue.record("\(e.outcome)"); return }
        e = try f.apply(.refundRequest(.approve(unlock.id, percent: 100)))
        let refunded = try #require(f.transaction(unlock.id))
        var approved = q
        approved.status = .approved(percent: 100)
        approved.decided = f.state.clock
        let revoked = shared.compactMap { f.transaction($0.id) }
        #expect(revoked.count == 2 && revoked.allSatisfy { $0.revocationDate == f.state.clock })
        #expect(
            e.outcome
                == .life(
                    .refund(
                        refunded, approved, nil, notification: ServerNotification("REFUND"),
                        family: revoked.map(FamilyChange.transactionRevoked))))

        var h = MachineHarness { $0.finishAfterDownloads = true }
        let waiting = try h.buy(Self.levelpack.rawValue)
        try h.apply(.finish([waiting.id]))
        e = try h.apply(.download(.cancel, waiting.id, content: nil))
        let finished = try #require(h.transaction(waiting.id))
        var finish = Finish()
        finish.steps = [.deliveryFailed(finished, .downloadCanceled)]
        #expect(e.outcome == .downloadsMoved(.cancel, waiting.id, finished.downloads, finish: finish))
        #expect(finished.downloads.allSatisfy { $0.state == .cancelled })
        #expect(ExitCode(e.outcome) == .success, "the cancel did as asked; the finish it settled says the rest")
    }
}
