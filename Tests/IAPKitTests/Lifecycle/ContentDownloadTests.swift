import IAPKit
import Testing

@Suite("Self-hosted content on the state machine")
struct ContentDownloadTests {
    @Test("a delivered self-hosted product gets a waiting record; other products and failures do not")
    func tracking() throws {
        var h = MachineHarness()
        let guide = try h.buy(MachineHarness.guide)
        _ = try h.buy("com.x.noads")
        #expect(
            h.state.contentDownloads == [ContentDownload(transactionID: guide.id, productID: ProductID(MachineHarness.guide))])
        var failing = MachineHarness { $0.paymentsAllowed = false }
        _ = try failing.buy(MachineHarness.guide)
        #expect(failing.state.contentDownloads.isEmpty)
        try h.apply(.finish([guide.id]))
        #expect(h.state.contentDownloads.isEmpty, "finishing drops the record")
        let restored = try h.apply(.restore(user: nil)).transactions.filter { $0.productID.rawValue == MachineHarness.guide }
        #expect(h.state.contentDownloads.map(\.transactionID) == restored.map(\.id))
    }

    @Test("started, progress, finished: one event each, progress kept in basis points")
    func lifecycle() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.guide)
        var names: [String] = []
        for step: ContentDownloadStep in [.started, .progress(basisPoints: 2500), .progress(basisPoints: 7500), .finished] {
            names += h.names(try h.apply(.recordContentDownload(t.id, step)))
        }
        #expect(
            names == ["contentDownloadStarted", "contentDownloadUpdated", "contentDownloadUpdated", "contentDownloadFinished"])
        #expect(
            h.machine.contentDownload(of: t.id)
                == ContentDownload(transactionID: t.id, productID: t.productID, phase: .finished, progressBasisPoints: 10_000))
    }

    @Test("steps out of order are refused and change nothing")
    func refused() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.guide)
        h.expectRefusal(
            .recordContentDownload(t.id, .finished),
            .notAllowed("cannot record the end for the self-hosted content of transaction \(t.id): it is waiting"))
        try h.apply(.recordContentDownload(t.id, .started))
        h.expectRefusal(
            .recordContentDownload(t.id, .progress(basisPoints: 10_001)),
            .usage("progress 10001 basis points is out of range; use 0 to 10000"))
        try h.apply(.recordContentDownload(t.id, .failed(TransactionError(.unknown))))
        h.expectRefusal(
            .recordContentDownload(t.id, .started),
            .notAllowed("cannot record a start for the self-hosted content of transaction \(t.id): it is failed"))
        let coin = try h.buy("com.x.coin42")
        h.expectRefusal(
            .recordContentDownload(coin.id, .started),
            .notAllowed(
                "transaction \(coin.id) has no self-hosted content to download: com.x.coin42 is not self-hosted or the transaction is purchased"
            ))
        h.expectRefusal(.recordContentDownload(TransactionID(9), .started), .unknownTransaction(TransactionID(9)))
    }

    @Test("a download fault fails the content at its start, before any process runs")
    func fault() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.guide)
        try h.apply(.addFault(.download, TransactionError(.cloudServiceRevoked), count: 1, product: t.productID))
        let e = try h.apply(.recordContentDownload(t.id, .started))
        #expect(h.names(e) == ["faultFired", "contentDownloadFailed"])
        #expect(h.machine.contentDownload(of: t.id)?.error == TransactionError(.cloudServiceRevoked))
    }

    @Test("finishing before the content ended cancels it (StoreKit); finish-after-downloads waits, then reports its failure")
    func finishing() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.guide)
        try h.apply(.recordContentDownload(t.id, .started))
        let e = try h.apply(.finish([t.id]))
        #expect(h.names(e) == ["contentDownloadCancelled", "transactionFinished"])

        var r = MachineHarness { $0.finishAfterDownloads = true }
        let u = try r.buy(MachineHarness.guide)
        #expect(r.names(try r.apply(.finish([u.id]))) == ["transactionFinishPostponed"])
        try r.apply(.recordContentDownload(u.id, .started))
        let failure = TransactionError(
            domain: "iapctl.downloader", code: 3, name: "downloaderFailed", message: "the downloader exited with status 3")
        let end = try r.apply(.recordContentDownload(u.id, .failed(failure)))
        #expect(r.names(end) == ["contentDownloadFailed", "transactionDeliveryFailed"])
        #expect(r.state.queue.isEmpty && r.state.contentDownloads.isEmpty && r.state.ledger.isEmpty)
    }
}
