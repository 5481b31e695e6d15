import IAPKit
import Testing

@testable import IAPTime

@Suite("Transaction history, subscription statuses and verifyReceipt routes")
struct HistoryAndStatusTests {
    /// The ids of a history page's signed stand-ins, and its revision and hasMore.
    static func page(_ h: APIHarness, _ target: String) throws -> (ids: [String], revision: String, hasMore: Bool) {
        let r = h.get(target)
        try #require(r.status == .ok, "\(APIHarness.text(r))")
        let json = try #require(h.json(r))
        let ids = try #require(json["signedTransactions"]?.arrayValue).map { String($0.stringValue!.split(separator: ".")[1]) }
        return (ids, json["revision"]!.stringValue!, json["hasMore"]!.boolValue!)
    }

    static func id(_ n: Int) -> String { String(TransactionID.first.rawValue + UInt64(n - 1)) }

    @Test("history pages 20 at a time in ascending id order; revision tokens are deterministic and chain the pages")
    func paging() throws {
        let h = try APIHarness()
        _ = try h.buy("com.x.coin42", times: 45)
        let first = try Self.page(h, "/inApps/v2/history/\(Self.id(3))")
        #expect(first.ids == (1...20).map(Self.id))
        #expect(first.hasMore)
        #expect(first.revision == HistoryRevision(boundary: TransactionID.first.rawValue + 19).token)
        #expect(first.revision == "00071afd498d001444c38d0e", "the example in docs/serve.md")
        #expect(HistoryRevision(token: first.revision) == HistoryRevision(boundary: TransactionID.first.rawValue + 19))
        let second = try Self.page(h, "/inApps/v2/history/\(Self.id(3))?revision=\(first.revision)")
        #expect(second.ids == (21...40).map(Self.id))
        #expect(second.hasMore)
        let third = try Self.page(h, "/inApps/v2/history/\(Self.id(3))?revision=\(second.revision)")
        #expect(third.ids == (41...45).map(Self.id))
        #expect(!third.hasMore)
        // The last revision fetches what is new since, and stays put while nothing is.
        let none = try Self.page(h, "/inApps/v2/history/\(Self.id(3))?revision=\(third.revision)")
        #expect(none.ids.isEmpty && !none.hasMore && none.revision == third.revision)
        _ = try h.buy("com.x.coin210")
        #expect(try Self.page(h, "/inApps/v2/history/\(Self.id(3))?revision=\(third.revision)").ids == [Self.id(46)])
        // The whole first response, byte for byte.
        let body = APIHarness.text(h.get("/inApps/v2/history/\(Self.id(1))?productId=com.x.coin210"))
        #expect(
            body
                == #"{"revision":"\#(HistoryRevision(boundary: TransactionID.first.rawValue + 45).token)","hasMore":false,"bundleId":"com.x.demo","environment":"Sandbox","signedTransactions":["signed.\#(Self.id(46)).com.x.coin210"]}"#
        )
    }

    @Test("DESCENDING pages from the newest; filters by productId, productType, revoked, dates combine")
    func sortAndFilters() throws {
        let h = try APIHarness()
        _ = try h.buy("com.x.coin42", times: 25)
        _ = try h.buy("com.x.vip2")  // 26
        _ = try h.buy("com.x.noads")  // 27
        let down = try Self.page(h, "/inApps/v2/history/\(Self.id(1))?sort=DESCENDING")
        #expect(down.ids == (8...27).reversed().map(Self.id))
        #expect(down.hasMore)
        let rest = try Self.page(h, "/inApps/v2/history/\(Self.id(1))?sort=DESCENDING&revision=\(down.revision)")
        #expect(rest.ids == (1...7).reversed().map(Self.id))
        #expect(!rest.hasMore)
        #expect(
            try Self.page(h, "/inApps/v2/history/\(Self.id(1))?productType=AUTO_RENEWABLE&productType=NON_CONSUMABLE").ids == [
                Self.id(26), Self.id(27),
            ])
        #expect(
            try Self.page(h, "/inApps/v2/history/\(Self.id(1))?productId=com.x.noads&productId=com.x.vip2&sort=DESCENDING").ids
                == [Self.id(27), Self.id(26)])
        #expect(try Self.page(h, "/inApps/v2/history/\(Self.id(1))?subscriptionGroupIdentifier=vip").ids == [Self.id(26)])
        #expect(try Self.page(h, "/inApps/v2/history/\(Self.id(1))?revoked=true").ids.isEmpty)
        #expect(
            try Self.page(h, "/inApps/v2/history/\(Self.id(1))?revoked=false&productType=NON_CONSUMABLE").ids == [Self.id(27)])
        #expect(try Self.page(h, "/inApps/v2/history/\(Self.id(1))?inAppOwnershipType=FAMILY_SHARED").ids.isEmpty)
        // The clock steps 1 s per purchase from 2026-01-01T00:00:00Z: purchase n is at start + n s.
        let start = Timestamp.defaultStart.milliseconds
        #expect(
            try Self.page(h, "/inApps/v2/history/\(Self.id(1))?startDate=\(start + 26_000)&endDate=\(start + 27_000)").ids == [
                Self.id(26)
            ])
    }

    @Test("the history lists the App Store's records: not failed, restored, or free re-deliveries of owned items")
    func whatHistoryHolds() throws {
        let h = try APIHarness()
        let noads = try h.buy("com.x.noads")[0]
        let restored = try h.apply([.restore(user: nil)]).transactions[0]
        let again = try h.buy("com.x.noads")[0]
        #expect(again.originalID == noads.id && !again.charged)
        try h.apply([.setSetting(key: "payments-allowed", value: "false")])
        _ = try h.buy("com.x.coin42")
        #expect(try Self.page(h, "/inApps/v2/history/\(restored.id)").ids == [noads.id.description])
        // The single-transaction route still answers for the copies the device saw.
        #expect(h.get("/inApps/v1/transactions/\(again.id)").status == .ok)
    }

    /// Each bad history query and the Apple error it gets.
    static let badQueries: [(query: String, code: Int)] = [
        ("sort=UP", 4000021), ("productType=SUBSCRIPTION", 4000022), ("productId=", 4000023), ("revision=abc", 4000005),
        ("revision=\(String(HistoryRevision(boundary: 7).token.dropLast()))0", 4000005),
        ("revision=\(HistoryRevision(boundary: 7).token.uppercased())", 4000005),
        ("startDate=yesterday", 4000015), ("endDate=-5", 4000016), ("startDate=10&endDate=10", 4000013),
        ("revoked=maybe", 4000030),
        ("inAppOwnershipType=GIFTED", 4000026), ("subscriptionGroupIdentifier=", 4000024), ("a=%zz", 4000000),
    ]

    @Test("bad history parameters get Apple's 400 error codes", arguments: badQueries.indices)
    func badQuery(index: Int) throws {
        let h = try APIHarness()
        let t = try h.buy("com.x.coin42")[0]
        let c = Self.badQueries[index]
        let r = h.get("/inApps/v2/history/\(t.id)?\(c.query)")
        #expect(r.status == .badRequest, "\(c.query)")
        #expect(h.json(r)?["errorCode"] == .number(String(c.code)), "\(c.query): \(APIHarness.text(r))")
    }

    @Test("subscription statuses: grouped by subscription group, latest transaction per original, signed renewal info")
    func statuses() throws {
        let h = try APIHarness()
        let coin = try h.buy("com.x.coin42")[0]
        let vip2 = try h.buy("com.x.vip2")[0]
        // In the same group as vip2 and of another duration: a crossgrade at the next renewal,
        // not a second subscription (one subscription per group).
        _ = try h.buy("com.x.vipmonthly")
        let weekly = try h.buy("com.x.weekly")[0]
        let r = h.get("/inApps/v1/subscriptions/\(coin.id)")
        #expect(r.status == .ok)
        let expected = """
            {"environment":"Sandbox","bundleId":"com.x.demo","data":[\
            {"subscriptionGroupIdentifier":"tips","lastTransactions":[\
            {"status":1,"originalTransactionId":"\(weekly.id)","signedTransactionInfo":"signed.\(weekly.id).com.x.weekly","signedRenewalInfo":"renewal.\(weekly.id)"}]},\
            {"subscriptionGroupIdentifier":"vip","lastTransactions":[\
            {"status":1,"originalTransactionId":"\(vip2.id)","signedTransactionInfo":"signed.\(vip2.id).com.x.vip2","signedRenewalInfo":"renewal.\(vip2.id)"}]}]}
            """
        #expect(APIHarness.text(r) == expected)
        #expect(
            APIHarness.text(h.get("/inApps/v1/subscriptions/\(coin.id)?status=2&status=5"))
                == #"{"environment":"Sandbox","bundleId":"com.x.demo","data":[]}"#)
        #expect(h.json(h.get("/inApps/v1/subscriptions/\(coin.id)?status=1"))?["data"]?.arrayValue?.count == 2)
        let bad = h.get("/inApps/v1/subscriptions/\(coin.id)?status=6")
        #expect(bad.status == .badRequest)
        #expect(
            APIHarness.text(bad)
                == #"{"errorCode":4000031,"errorMessage":"Invalid request. The status parameter is invalid. '6'; use 1 to 5"}"#)
        #expect(h.get("/inApps/v1/subscriptions/2000000000000999").status == .notFound)
    }

    @Test("statuses from the transaction: active before expiresDate, expired from it, revoked when refunded")
    func statusRules() throws {
        let h = try APIHarness()
        let t = try h.buy("com.x.vip2")[0]
        try h.store.read { s throws(StoreError) in
            let resolver = StoreSubscriptionStatus()
            var x = t
            #expect(resolver.status(of: x, session: s) == .active)
            x.expiresDate = s.state.clock.adding(milliseconds: 1)
            #expect(resolver.status(of: x, session: s) == .active)
            x.expiresDate = s.state.clock
            #expect(resolver.status(of: x, session: s) == .expired)
            x.revocationDate = s.state.clock
            #expect(resolver.status(of: x, session: s) == .revoked)
        }
    }

    @Test("appAppleId appears when configured")
    func appAppleID() throws {
        let h = try APIHarness()
        h.api.appAppleID = 1_234_567_890
        let t = try h.buy("com.x.vip2")[0]
        #expect(h.json(h.get("/inApps/v2/history/\(t.id)"))?["appAppleId"] == .number("1234567890"))
        #expect(h.json(h.get("/inApps/v1/subscriptions/\(t.id)"))?["appAppleId"] == .number("1234567890"))
    }

    /// verifyReceipt request shapes and the status each gets.
    static let receiptShapes: [(method: String, body: String, status: Int, reason: String)] = [
        ("GET", "", 21000, "verifyReceipt takes a POST with a JSON body"),
        ("POST", "", 21000, "empty body; POST a JSON object with receipt-data"),
        ("POST", "receipt-data=abc", 21000, "the body is not a JSON object"),
        ("POST", "[1]", 21000, "the body is not a JSON object"),
        ("POST", #"{"receipt-data":"aGk=","password":5}"#, 21000, "password is not a string"),
        (
            "POST", #"{"receipt-data":"aGk=","exclude-old-transactions":"yes"}"#, 21000,
            "exclude-old-transactions is not true or false"
        ),
        ("POST", "{}", 21002, "receipt-data is missing"),
        ("POST", #"{"receipt-data":42}"#, 21002, "receipt-data is a number, not a base64 string"),
        ("POST", #"{"receipt-data":"not base64!"}"#, 21002, "receipt-data is not base64 (RFC 4648) or is empty"),
        ("POST", #"{"receipt-data":"aGk=x"}"#, 21002, "receipt-data is not base64 (RFC 4648) or is empty"),
        ("POST", #"{"receipt-data":""}"#, 21002, "receipt-data is not base64 (RFC 4648) or is empty"),
    ]

    @Test(
        "verifyReceipt: 21000 for what is not a JSON POST, 21002 for bad receipt-data, HTTP 200 as Apple answers",
        arguments: receiptShapes.indices)
    func receiptShape(index: Int) throws {
        let h = try APIHarness(receiptVerifier: EchoReceiptVerifier())
        let c = Self.receiptShapes[index]
        for path in ["/verifyReceipt", "/sandbox/verifyReceipt"] {
            let r = h.get(path, authorization: nil, method: c.method, body: c.body)
            #expect(r.status == .ok)
            #expect(APIHarness.text(r) == #"{"status":\#(c.status)}"#, "\(c.body)")
            #expect(r.headers["Iapctl-Reason"] == c.reason)
        }
    }

    @Test("verifyReceipt hands a well-formed request to the receipt engine, with which URL it came to; 501 without one")
    func receiptEngine() throws {
        let h = try APIHarness(receiptVerifier: EchoReceiptVerifier())
        let body = #"{"receipt-data":"aGVs\r\nbG8=","password":"s3cret","exclude-old-transactions":true}"#
        #expect(
            APIHarness.text(h.get("/verifyReceipt", authorization: nil, method: "POST", body: body))
                == #"{"status":0,"bytes":5,"sandbox":false,"exclude":true,"password":"s3cret","bundle":"com.x.demo"}"#)
        #expect(
            h.json(h.get("/sandbox/verifyReceipt", authorization: nil, method: "POST", body: body))?["sandbox"] == .bool(true))
        let none = try APIHarness()
        let r = none.get("/verifyReceipt", authorization: nil, method: "POST", body: body)
        #expect(r.status == .notImplemented)
        #expect(none.get("/verifyReceipt", authorization: nil, method: "PUT", body: body).headers["Allow"] == "POST, GET, HEAD")
    }

    @Test("a snapshot reader reuses its session until a commit, then sees the commit")
    func snapshotReuse() throws {
        let h = try APIHarness()
        let reader = StoreSnapshotReader(store: h.store)
        let a = try reader.read { $0 }
        let b = try reader.read { $0 }
        #expect(a === b)
        let t = try h.buy("com.x.coin42")[0]
        let c = try reader.read { $0 }
        #expect(c !== a)
        #expect(try c.transaction(t.id) == t)
        #expect(try a.transaction(t.id) == nil, "the old snapshot is the old committed store")
    }

    @Test("the event notification source yields each event line after `since`, with its seq")
    func eventSource() throws {
        let h = try APIHarness()
        _ = try h.buy("com.x.coin42")
        let all = try TestReader(h.store.path).read { s in try StoreEventNotificationSource().notifications(since: 0, in: s) }
        // Event 1 is the store's creation (storeCreated), then the purchase's two.
        #expect(all.map(\.seq) == [1, 2, 3])
        let lines = try h.store.read { s throws(StoreError) in
            var sink = BufferSink()
            try s.events(since: 2, into: &sink)
            return sink.bytes
        }
        let later = try TestReader(h.store.path).read { s in try StoreEventNotificationSource().notifications(since: 2, in: s) }
        #expect(later.map(\.seq) == [3])
        #expect(later[0].body + [0x0A] == lines)
    }
}
