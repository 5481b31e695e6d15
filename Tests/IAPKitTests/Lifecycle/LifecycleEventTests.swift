import IAPKit
import Testing

@Suite("Lifecycle event names and JSON")
struct LifecycleEventTests {
    static let t = TransactionID.first
    static let p = ProductID("com.x.levelpack")
    static let d = Download(contentIdentifier: "levels", contentVersion: "1.0", contentLength: 10)
    static let c = ContentDownload(transactionID: t, productID: ProductID("com.x.guide"))
    static let payment = StoredPayment(productID: p, userID: nil, quantity: 1, date: .defaultStart)
    static let fault = Fault(id: 1, point: .purchase, error: TransactionError(.unknown), remaining: 0, productID: nil)

    @Test("every new kind has its documented name")
    func names() {
        let (t, p, d, c, payment, fault) = (Self.t, Self.p, Self.d, Self.c, Self.payment, Self.fault)
        let kinds: [(EventKind, String)] = [
            (.download(.started, transaction: t, product: p, d), "downloadStarted"),
            (.download(.paused, transaction: t, product: p, d), "downloadPaused"),
            (.download(.resumed, transaction: t, product: p, d), "downloadResumed"),
            (.download(.updated, transaction: t, product: p, d), "downloadUpdated"),
            (.download(.finished, transaction: t, product: p, d), "downloadFinished"),
            (.download(.failed, transaction: t, product: p, d), "downloadFailed"),
            (.download(.cancelled, transaction: t, product: p, d), "downloadCancelled"),
            (.contentDownload(.started, c), "contentDownloadStarted"),
            (.contentDownload(.updated, c), "contentDownloadUpdated"),
            (.contentDownload(.finished, c), "contentDownloadFinished"),
            (.contentDownload(.failed, c), "contentDownloadFailed"),
            (.contentDownload(.cancelled, c), "contentDownloadCancelled"),
            (.storePayment(.accepted, payment), "storePaymentAccepted"),
            (.storePayment(.deferred, payment), "storePaymentDeferred"),
            (.storePayment(.declined, payment), "storePaymentDeclined"),
            (.storePayment(.acceptedLater, payment), "storedPaymentAccepted"),
            (.interruptedPurchaseResolved(original: t, resolved: t.next), "interruptedPurchaseResolved"),
            (.faultAdded(fault), "faultAdded"),
            (.faultFired(fault), "faultFired"), (.faultsCleared(count: 2), "faultsCleared"),
            (.productConsumed(p, count: 1, balance: 0), "productConsumed"),
        ]
        for (kind, name) in kinds { #expect(kind.name == name) }
    }

    @Test("every event name appears in docs/events.md")
    func documented() throws {
        let docs = try String(
            contentsOfFile: #filePath.components(separatedBy: "/Tests/")[0] + "/docs/events.md", encoding: .utf8)
        let names =
            [
                "transactionPurchasing", "transactionPurchased", "transactionFailed", "transactionRestored",
                "transactionDeferred",
                "transactionFinished", "transactionRedelivered", "transactionFinishPostponed", "transactionDeliveryFailed",
                "interruptedPurchaseResolved", "productsRequestFinished", "productsRequestFailed", "restoreFinished",
                "restoreFailed",
                "appLaunched", "settingChanged", "storePaymentAccepted", "storePaymentDeferred", "storePaymentDeclined",
                "storedPaymentAccepted", "faultAdded", "faultFired", "faultsCleared", "productConsumed",
            ] + DownloadChange.allCases.map { "download" + $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() }
            + [DownloadChange.started, .updated, .finished, .failed, .cancelled].map {
                "contentDownload" + $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst()
            }
        for name in names { #expect(docs.contains("| `\(name)` |"), "\(name) is not in docs/events.md") }
    }

    @Test("download events carry the download row")
    func downloadJSON() {
        let e = Event(seq: 4, date: .defaultStart, kind: .download(.updated, transaction: Self.t, product: Self.p, Self.d))
        #expect(
            String(decoding: EventJSON.bytes(e), as: UTF8.self) == """
                {"seq":4,"name":"downloadUpdated","date":"2026-01-01T00:00:00Z","timestamp":1767225600000,"download":{"transactionIdentifier":"2000000000000001","productIdentifier":"com.x.levelpack","selfHosted":false,"contentIdentifier":"levels","contentVersion":"1.0","state":"waiting","progress":0,"downloadedBytes":0,"contentLength":10,"error":null,"contentPath":null}}
                """)
    }

    @Test("fault, store payment and ledger events carry their objects")
    func otherJSON() {
        func json(_ kind: EventKind) -> String {
            String(decoding: EventJSON.bytes(Event(seq: 1, date: .defaultStart, kind: kind)), as: UTF8.self)
        }
        let head = #"{"seq":1,"name":"#
        #expect(
            json(.faultFired(Self.fault)) == head
                + #""faultFired","date":"2026-01-01T00:00:00Z","timestamp":1767225600000,"fault":{"id":1,"point":"purchase","productIdentifier":null,"error":{"domain":"SKErrorDomain","code":0,"name":"unknown","message":"An unknown error occurred."},"remaining":0}}"#
        )
        #expect(
            json(.storePayment(.deferred, Self.payment)) == head
                + #""storePaymentDeferred","date":"2026-01-01T00:00:00Z","timestamp":1767225600000,"storePayment":{"productIdentifier":"com.x.levelpack","userIdentifier":null,"quantity":1,"date":"2026-01-01T00:00:00Z","timestamp":1767225600000}}"#
        )
        #expect(
            json(.productConsumed(Self.p, count: 2, balance: 1)) == head
                + #""productConsumed","date":"2026-01-01T00:00:00Z","timestamp":1767225600000,"ledger":{"productIdentifier":"com.x.levelpack","consumed":2,"balance":1}}"#
        )
        #expect(
            json(.faultsCleared(count: 3)) == head
                + #""faultsCleared","date":"2026-01-01T00:00:00Z","timestamp":1767225600000,"request":{"kind":"faultClear","count":3}}"#
        )
    }

    @Test("a lifecycle script gives the same state and events every time (determinism)")
    func determinism() throws {
        func script() throws -> (StoreState, [Event]) {
            var h = MachineHarness {
                $0.storePayments = .defer
                $0.finishAfterDownloads = true
            }
            try h.apply(.addFault(.purchase, TransactionError(.paymentCancelled), count: 1, product: nil))
            _ = try h.buy("com.x.coin42")
            let pack = try h.buy(MachineHarness.levelpack)
            try h.apply(.promote(ProductID("com.x.noads"), user: nil))
            try h.apply(.acceptStoredPayments)
            try h.apply(.finish([pack.id]))
            try h.apply(.download(.start, pack.id, content: nil))
            try h.apply(.recordDownloadProgress(pack.id, content: "levels", downloadedBytes: 9591))
            try h.apply(.download(.cancel, pack.id, content: nil))
            try h.apply(.finishAll)
            return (h.state, h.events)
        }
        let (s1, e1) = try script()
        let (s2, e2) = try script()
        #expect(s1 == s2 && e1 == e2)
        #expect(e1.map { EventJSON.bytes($0) } == e2.map { EventJSON.bytes($0) })
    }
}
