import Testing

@testable import IAPKit
@testable import IAPTime

/// Refreshes and verifications on the state machine: faults, events, and what a verdict does to
/// a transaction, with whole-state assertions.
@Suite("Receipts: refresh and verification on the state machine")
struct ReceiptMachineTests {
    @Test("refresh-receipt: finished, or failed by a refresh-receipt fault (faultFired first)")
    func refresh() throws {
        var h = MachineHarness()
        try h.apply(.receipt(.refresh))
        #expect(h.eventNames == ["refreshReceiptFinished"])
        try h.apply(.addFault(.refreshReceipt, TransactionError(.cloudServiceNetworkConnectionFailed), count: 1, product: nil))
        let before = h.state
        let effects = try h.apply(.receipt(.refresh))
        #expect(effects.events.map(\.name) == ["faultFired", "refreshReceiptFailed"])
        #expect(effects.events.last?.kind == .receipt(.refreshFailed(TransactionError(.cloudServiceNetworkConnectionFailed))))
        var expected = before
        expected.faults = []
        expected.nextEventSeq += 2
        #expect(h.state == expected)
    }

    @Test("a verified transaction is finished and counted in the ledger")
    func verifiedFinishes() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.coin42", quantity: 2)
        let before = h.state
        let effects = try h.apply(.receipt(.verifyTransaction(t.id, failure: nil, thenFinish: true)))
        #expect(effects.events.map(\.name) == ["receiptVerified", "transactionFinished"])
        var expected = before
        var finished = t
        finished.disposition = .finished
        expected.upsert(finished)
        expected.ledger[ProductID("com.x.coin42")] = LedgerEntry(purchases: 1, units: 2, consumed: 0)
        expected.nextEventSeq += 2
        #expect(h.state == expected)
    }

    @Test("verified without thenFinish: only the verification is recorded (auto-finish downloads next)")
    func verifiedOnly() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.coin42")
        let before = h.state
        try h.apply(.receipt(.verifyTransaction(t.id, failure: nil, thenFinish: false)))
        var expected = before
        expected.nextEventSeq += 1
        #expect(h.state == expected)
    }

    @Test("a rejected transaction is finished without delivery and reported failed; not counted")
    func rejected() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.levelpack")
        let error = ReceiptVerificationRecord.invalidReceipt("The app receipt is invalid")
        let before = h.state
        let effects = try h.apply(.receipt(.verifyTransaction(t.id, failure: error, thenFinish: true)))
        #expect(
            effects.events.map(\.name) == [
                "receiptVerificationFailed", "downloadCancelled", "downloadCancelled", "transactionVerificationFailed",
            ])
        var failed = t
        failed.disposition = .finished
        failed.downloads = t.downloads.map {
            var d = $0; d.phase = .cancelled; return d
        }
        guard case .receipt(.transactionVerificationFailed(let reported, let reportedError)) = effects.events.last?.kind else {
            Issue.record("no transactionVerificationFailed")
            return
        }
        #expect(reported == failed && reportedError == error)
        var expected = before
        expected.upsert(failed)
        expected.nextEventSeq += 4
        #expect(h.state == expected)
        #expect(h.state.ledger.isEmpty)
    }

    @Test(
        "unable to complete (RMStore's error 200, or a retryable verifyReceipt status) keeps it in the queue",
        arguments: [
            TransactionError.unableToCompleteVerification, VerifyReceiptStatus.error(21005)!, VerifyReceiptStatus.error(21120)!,
        ])
    func unableToComplete(_ error: TransactionError) throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.coin42")
        try h.apply(.addFault(.verification, error, count: 1, product: nil))
        let before = h.state
        let effects = try h.apply(.receipt(.verifyTransaction(t.id, failure: nil, thenFinish: true)))
        #expect(effects.events.map(\.name) == ["faultFired", "receiptVerificationFailed", "transactionVerificationFailed"])
        var expected = before
        expected.faults = []
        expected.nextEventSeq += 3
        #expect(h.state == expected)
        #expect(h.state.queue == [t])
        let launch = try h.apply(.launch)
        #expect(launch.events.map(\.name) == ["appLaunched", "transactionRedelivered"])
    }

    @Test("a non-retryable injected status fails and finishes", arguments: [21003, 21150, 21199])
    func injectedFailure(_ status: Int) throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.coin42")
        try h.apply(.addFault(.verification, VerifyReceiptStatus.error(status)!, count: 1, product: nil))
        try h.apply(.receipt(.verifyTransaction(t.id, failure: nil, thenFinish: true)))
        #expect(h.state.queue.isEmpty)
        #expect(h.state.ledger.isEmpty)
    }

    @Test("finish rules still apply: unknown, already finished, purchasing")
    func finishRules() throws {
        var h = MachineHarness()
        let t = try h.buy("com.x.coin42")
        try h.apply(.finish([t.id]))
        #expect(throws: StoreError.alreadyFinished(t.id)) {
            try h.apply(.receipt(.verifyTransaction(t.id, failure: nil, thenFinish: true)))
        }
        #expect(throws: StoreError.unknownTransaction(TransactionID(9))) {
            try h.apply(.receipt(.verifyTransaction(TransactionID(9), failure: nil, thenFinish: true)))
        }
    }

    @Test("a recorded verifyReceipt verification takes the fault's status; other errors answer 21005")
    func recordedStatus() throws {
        var h = MachineHarness()
        try h.apply(.addFault(.verification, VerifyReceiptStatus.error(21101)!, count: 1, product: nil))
        try h.apply(.addFault(.verification, TransactionError(.cloudServiceNetworkConnectionFailed), count: 1, product: nil))
        let record = ReceiptVerificationRecord(method: .verifyReceipt(.sandbox), status: 0)
        for expected in [21101, 21005, 0] {
            let effects = try h.apply(.receipt(.recordVerification(record)))
            let last = try #require(effects.events.last)
            switch last.kind {
            case .receipt(.verified(let r)), .receipt(.verificationFailed(let r)): #expect(r.status == expected)
            default: Issue.record("unexpected \(last.name)")
            }
        }
        #expect(VerifyReceiptStatus.isRetryable(21101) == true)
        #expect(VerifyReceiptStatus.isRetryable(21160) == false)
        #expect(VerifyReceiptStatus.isRetryable(21007) == nil)
    }

    @Test(
        "Pacific dates follow US daylight saving time",
        arguments: [
            ("2026-01-01T00:00:00Z", "2025-12-31 16:00:00 America/Los_Angeles"),
            ("2026-03-08T09:59:59Z", "2026-03-08 01:59:59 America/Los_Angeles"),
            ("2026-03-08T10:00:00Z", "2026-03-08 03:00:00 America/Los_Angeles"),
            ("2026-07-04T12:00:00Z", "2026-07-04 05:00:00 America/Los_Angeles"),
            ("2026-11-01T08:59:59Z", "2026-11-01 01:59:59 America/Los_Angeles"),
            ("2026-11-01T09:00:00Z", "2026-11-01 01:00:00 America/Los_Angeles"),
            ("2005-10-30T08:59:59Z", "2005-10-30 01:59:59 America/Los_Angeles"),
        ])
    func pacific(_ utc: String, _ pst: String) {
        let t = Timestamp(rfc3339: utc)!
        #expect(VerifyReceiptDate.pacific(t) == pst)
        #expect(VerifyReceiptDate.gmt(Timestamp(rfc3339: "2026-01-01T00:00:00Z")!) == "2026-01-01 00:00:00 Etc/GMT")
    }
}
