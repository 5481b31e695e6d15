import IAPKit
import Testing

@Suite("Hosted downloads on the state machine")
struct DownloadTests {
    static let levels = Download(contentIdentifier: "levels", contentVersion: "1.0", contentLength: 9591)
    static let soundtrack = Download(contentIdentifier: "soundtrack", contentVersion: "1.2", contentLength: 2096)

    @Test("a purchased product with hosted content carries its downloads, waiting; a restored one too")
    func downloadsArriveWaiting() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.levelpack)
        #expect(t.downloads == [Self.levels, Self.soundtrack])
        try h.apply(.finishAll)
        let restored = try h.apply(.restore(user: nil)).transactions
        #expect(restored.map(\.downloads) == [[Self.levels, Self.soundtrack]])
        #expect(try h.buy("com.x.noads").downloads.isEmpty)
    }

    @Test("start, pause, resume and cancel follow REFERENCE section 2, one event each")
    func moves() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.levelpack)
        var e = try h.apply(.download(.start, t.id, content: "levels"))
        #expect(h.names(e) == ["downloadStarted"])
        #expect(h.state.queued(t.id)?.downloads.map(\.state) == [.active, .waiting])
        e = try h.apply(.download(.pause, t.id, content: nil))
        #expect(h.names(e) == ["downloadPaused"])
        e = try h.apply(.download(.resume, t.id, content: "levels"))
        #expect(h.names(e) == ["downloadResumed"])
        e = try h.apply(.download(.cancel, t.id, content: nil))
        #expect(h.names(e) == ["downloadCancelled", "downloadCancelled"])
        #expect(h.state.queued(t.id)?.downloads.map(\.state) == [.cancelled, .cancelled])
        #expect(
            e.events.first?.kind
                == .download(
                    .cancelled, transaction: t.id, product: t.productID,
                    {
                        var d = Self.levels
                        d.phase = .cancelled
                        return d
                    }()))
    }

    /// Every move from every state: allowed ones move, forbidden ones are refused with exit 4 and
    /// change nothing.
    @Test("forbidden moves are refused and change nothing", arguments: DownloadMove.allCases)
    func forbiddenMoves(move: DownloadMove) throws {
        for from in DownloadState.allCases {
            var h = MachineHarness()
            let t = try h.buy(MachineHarness.levelpack)
            try h.drive(t.id, "levels", to: from)
            let error = Printed.notAllowed(
                "cannot \(move.rawValue) download 'levels' of transaction \(t.id): it is \(from.rawValue); \(move.rawValue) moves a \(move.from) download"
            )
            if move.applies(to: from) {
                try h.apply(.download(move, t.id, content: "levels"))
                #expect(h.state.queued(t.id)?.downloads[0].phase == move.target)
            } else {
                h.expectRefusal(.download(move, t.id, content: "levels"), error)
                #expect(error.exitCode == .notAllowed)
            }
        }
    }

    @Test("a move without --content applies to every download it can move, and is refused when none")
    func allDownloads() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.levelpack)
        try h.apply(.download(.start, t.id, content: nil))
        h.expectRefusal(
            .download(.start, t.id, content: nil),
            .notAllowed(
                "cannot start any download of transaction \(t.id): 'levels' is active, 'soundtrack' is active; start moves waiting downloads"
            ))
    }

    @Test("unknown, finished, download-less transactions and unknown contents are refused")
    func lookups() throws {
        var h = MachineHarness()
        let coin = try h.buy("com.x.coin42")
        let pack = try h.buy(MachineHarness.levelpack)
        let unknown = TransactionID(7)
        h.expectRefusal(.download(.start, unknown, content: nil), .unknownTransaction(unknown))
        h.expectRefusal(
            .download(.start, coin.id, content: nil),
            .notFound(
                "transaction \(coin.id) (com.x.coin42, purchased) has no downloads; only purchased or restored products with hosted content have them"
            ))
        h.expectRefusal(
            .download(.start, pack.id, content: "maps"),
            .notFound("transaction \(pack.id) has no download 'maps'; its downloads: levels, soundtrack"))
        try h.apply(.finish([pack.id]))
        h.expectRefusal(
            .download(.start, pack.id, content: nil),
            .notAllowed("transaction \(pack.id) is finished; downloads exist only until their transaction is finished"))
    }

    @Test("progress steps: downloadUpdated per step, downloadFinished at the end")
    func progress() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.levelpack)
        try h.apply(.download(.start, t.id, content: "levels"))
        var names: [String] = []
        for bytes: Int64 in [4096, 8192, 9591] {
            names += h.names(try h.apply(.recordDownloadProgress(t.id, content: "levels", downloadedBytes: bytes)))
        }
        #expect(names == ["downloadUpdated", "downloadUpdated", "downloadUpdated", "downloadFinished"])
        var finished = Self.levels
        finished.phase = .finished
        finished.downloadedBytes = 9591
        #expect(h.state.queued(t.id)?.downloads == [finished, Self.soundtrack])
        #expect(finished.progress == 1)
    }

    @Test("progress is refused for inactive downloads and impossible byte counts")
    func progressRefused() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.levelpack)
        h.expectRefusal(
            .recordDownloadProgress(t.id, content: "levels", downloadedBytes: 10),
            .notAllowed(
                "download 'levels' of transaction \(t.id) is waiting; only an active download makes progress (start or resume it first)"
            ))
        try h.apply(.download(.start, t.id, content: "levels"))
        try h.apply(.recordDownloadProgress(t.id, content: "levels", downloadedBytes: 100))
        for bytes: Int64 in [100, 50, 9592] {
            h.expectRefusal(
                .recordDownloadProgress(t.id, content: "levels", downloadedBytes: bytes),
                .usage("progress \(bytes) for download 'levels' of transaction \(t.id) must be above 100 and at most 9591 bytes"))
        }
    }

    @Test("finishing cancels downloads that have not ended (StoreKit), then finishes")
    func finishCancels() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.levelpack)
        try h.apply(.download(.start, t.id, content: "levels"))
        try h.apply(.recordDownloadProgress(t.id, content: "levels", downloadedBytes: 9591))
        let e = try h.apply(.finish([t.id]))
        #expect(h.names(e) == ["downloadCancelled", "transactionFinished"])
        let done = try #require(h.transaction(t.id))
        #expect(done.finished && done.downloads.map(\.state) == [.finished, .cancelled])
        #expect(h.state.queue.isEmpty && h.state.postponedFinishes.isEmpty)
        #expect(h.state.ledger[ProductID(MachineHarness.levelpack)] == LedgerEntry(purchases: 1, units: 1, consumed: 0))
    }

    @Test("finish-after-downloads postpones the finish until the last download finished (RMStore)")
    func finishAfterDownloads() throws {
        var h = MachineHarness { $0.finishAfterDownloads = true }
        let t = try h.buy(MachineHarness.levelpack)
        var e = try h.apply(.finish([t.id]))
        #expect(h.names(e) == ["transactionFinishPostponed"])
        #expect(h.state.postponedFinishes == [t.id])
        #expect(h.state.queued(t.id)?.finished == false)
        e = try h.apply(.finish([t.id]))
        #expect(e.events.isEmpty, "a second finish while postponed records nothing")
        try h.apply(.download(.start, t.id, content: nil))
        e = try h.apply(.recordDownloadProgress(t.id, content: "levels", downloadedBytes: 9591))
        #expect(h.names(e) == ["downloadUpdated", "downloadFinished"])
        e = try h.apply(.recordDownloadProgress(t.id, content: "soundtrack", downloadedBytes: 2096))
        #expect(h.names(e) == ["downloadUpdated", "downloadFinished", "transactionFinished"])
        #expect(h.state.queue.isEmpty && h.state.postponedFinishes.isEmpty)
        #expect(h.state.ledger[ProductID(MachineHarness.levelpack)]?.purchases == 1)
    }

    @Test("finish-after-downloads: a cancelled download reports the transaction failed with error 300, uncounted")
    func finishAfterCancel() throws {
        var h = MachineHarness { $0.finishAfterDownloads = true }
        let t = try h.buy(MachineHarness.levelpack)
        try h.apply(.download(.start, t.id, content: nil))
        try h.apply(.recordDownloadProgress(t.id, content: "levels", downloadedBytes: 9591))
        try h.apply(.finish([t.id]))
        let e = try h.apply(.download(.cancel, t.id, content: "soundtrack"))
        #expect(h.names(e) == ["downloadCancelled", "transactionDeliveryFailed"])
        guard case .transactionDeliveryFailed(let reported, let error) = e.events.last?.kind else {
            Issue.record("expected transactionDeliveryFailed")
            return
        }
        #expect(
            error
                == TransactionError(
                    domain: "net.robotmedia.store", code: 300, name: "downloadCanceled", message: "Download canceled"))
        #expect(reported.finished && reported.state == .purchased)
        #expect(h.state.queue.isEmpty)
        #expect(h.state.ledger.isEmpty)
    }

    @Test("finish-after-downloads: finishing after a download failed reports its error at once")
    func finishAfterFailure() throws {
        var h = MachineHarness { $0.finishAfterDownloads = true }
        let t = try h.buy(MachineHarness.levelpack)
        try h.apply(.addFault(.download, TransactionError(.cloudServiceNetworkConnectionFailed), count: 1, product: nil))
        try h.apply(.download(.start, t.id, content: nil))
        var e = try h.apply(.recordDownloadProgress(t.id, content: "levels", downloadedBytes: 10))
        #expect(h.names(e) == ["faultFired", "downloadFailed"])
        #expect(h.state.queued(t.id)?.downloads[0].error == TransactionError(.cloudServiceNetworkConnectionFailed))
        try h.apply(.recordDownloadProgress(t.id, content: "soundtrack", downloadedBytes: 2096))
        e = try h.apply(.finish([t.id]))
        #expect(
            e.events.map(\.kind) == [
                .transactionDeliveryFailed(h.transaction(t.id)!, TransactionError(.cloudServiceNetworkConnectionFailed))
            ])
    }

    @Test("activeDownloads names what download run would drive, or why nothing")
    func activeDownloads() throws {
        var h = MachineHarness()
        let t = try h.buy(MachineHarness.levelpack)
        expectThrows(
            Printed.notAllowed(
                "no active download of transaction \(t.id): 'levels' is waiting, 'soundtrack' is waiting; start or resume them with 'iapctl download start|resume \(t.id)'"
            )
        ) { try h.machine.activeDownloads(of: t.id, content: nil, archive: h.archive) }
        expectThrows(
            Printed.notAllowed(
                "download 'levels' of transaction \(t.id) is waiting, not active; start it with 'iapctl download start \(t.id) --content levels'"
            )
        ) { try h.machine.activeDownloads(of: t.id, content: "levels", archive: h.archive) }
        try h.apply(.download(.start, t.id, content: "soundtrack"))
        #expect(
            try h.machine.activeDownloads(of: t.id, content: nil, archive: h.archive).1.map(\.contentIdentifier) == ["soundtrack"]
        )
    }
}

extension MachineHarness {
    /// Moves download `content` of `id` from waiting into `state`.
    mutating func drive(_ id: TransactionID, _ content: String, to state: DownloadState) throws {
        switch state {
        case .waiting: return
        case .active: try apply(.download(.start, id, content: content))
        case .paused:
            try apply(.download(.start, id, content: content))
            try apply(.download(.pause, id, content: content))
        case .finished:
            try apply(.download(.start, id, content: content))
            let length = self.state.queued(id)!.downloads.first { $0.contentIdentifier == content }!.contentLength
            try apply(.recordDownloadProgress(id, content: content, downloadedBytes: length))
        case .failed:
            try apply(.addFault(.download, TransactionError(.unknown), count: 1, product: nil))
            try apply(.download(.start, id, content: content))
            try apply(.recordDownloadProgress(id, content: content, downloadedBytes: 1))
        case .cancelled: try apply(.download(.cancel, id, content: content))
        }
    }
}
