import IAPHTTP
import Testing

@testable import IAPJSON
@testable import IAPKit

#if canImport(Glibc)
    import Glibc
#endif

/// The App Store Server API endpoints that change the store (Finish Transaction, Set App Account
/// Token, Send Consumption Information) and the record lookups added with them (Look Up Order ID,
/// Refund History, History v1), with whole-state checks: what the store holds after, which
/// events were left, and Apple's error codes for what is refused.
@Suite("App Store Server API: changes and record lookups")
struct ServerAPIWriteTests {
    static func harness() throws -> APIHarness {
        let h = try APIHarness()
        h.api.writer = TestWriter(h.store.path)
        return h
    }

    static func code(_ h: APIHarness, _ r: HTTPResponse) -> String? { h.json(r)?["errorCode"].map { $0.serialized() } }

    @Test("Finish Transaction finishes as 'iapctl finish' does; again is 200 and changes nothing")
    func finish() throws {
        let h = try Self.harness()
        let t = try h.buy("com.x.noads")[0]
        #expect(h.get("/inApps/v1/transactions/\(t.id)/finish", method: "POST").status == .ok)
        let after = try h.store.read { s throws(StoreError) in
            (try s.transaction(t.id), s.state.queue.count, s.state.nextEventSeq)
        }
        #expect(after.0?.finished == true)
        #expect(after.1 == 0)
        #expect(h.get("/inApps/v1/transactions/\(t.id)/finish", method: "POST").status == .ok)
        #expect(try h.store.read { s throws(StoreError) in s.state.nextEventSeq } == after.2, "the second finish left no event")
        #expect(Self.code(h, h.get("/inApps/v1/transactions/2000000000000999/finish", method: "POST")) == "4040010")
    }

    @Test("Set App Account Token: stored on the original transaction, an event, later signed data carries it")
    func appAccountToken() throws {
        let h = try Self.harness()
        let t = try h.buy("com.x.vip2")[0]
        let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        let path = "/inApps/v1/transactions/\(t.id)/appAccountToken"
        #expect(h.get(path, method: "PUT", body: #"{"appAccountToken":"\#(token)"}"#).status == .ok)
        let (record, events) = try h.store.read { s throws(StoreError) in
            var names: [String] = []
            try s.forEachEvent(since: 0) { e throws(StoreError) in if case .event(let ev) = e { names.append(ev.name) } }
            return (s.state.serverAPIRecords, names)
        }
        #expect(record == [t.id: ServerAPIRecord(appAccountToken: token.lowercased())])
        #expect(events.last == "appAccountTokenSet")
        let context = try h.store.read { s throws(StoreError) in SignedDataContext(state: s.state) }
        let payload = try JSONParser.parse(SignedTransactionPayload.bytes(t, context: context))
        #expect(payload["appAccountToken"] == .string(token.lowercased()))
        #expect(Self.code(h, h.get(path, method: "PUT", body: #"{"appAccountToken":"nope"}"#)) == "4000183")
        #expect(Self.code(h, h.get(path, method: "PUT", body: "[]")) == "4000000")
        #expect(
            Self.code(
                h, h.get("/inApps/v1/transactions/x/appAccountToken", method: "PUT", body: #"{"appAccountToken":"\#(token)"}"#))
                == "4000008")
        try h.apply([.advanceClock(to: t.expiresDate!.adding(milliseconds: 1000))])
        let renewal = try h.store.read { s throws(StoreError) in try s.transaction(TransactionID(t.id.rawValue + 1)) }
        #expect(renewal?.reason == .renewal)
        #expect(
            Self.code(
                h,
                h.get(
                    "/inApps/v1/transactions/\(renewal!.id)/appAccountToken", method: "PUT",
                    body: #"{"appAccountToken":"\#(token)"}"#))
                == "4000187")
    }

    @Test("Send Consumption Information: v1 and v2 stored as sent (202), consent required, v1 types only")
    func consumption() throws {
        let h = try Self.harness()
        let coin = try h.buy("com.x.coin42")[0]
        let noads = try h.buy("com.x.noads")[0]
        let v1 = #"{"customerConsented":true,"consumptionStatus":2,"platform":1,"deliveryStatus":0}"#
        #expect(h.get("/inApps/v1/transactions/consumption/\(coin.id)", method: "PUT", body: v1).status == .accepted)
        let v2 =
            #"{"customerConsented":true,"deliveryStatus":"DELIVERED","consumptionPercentage":25000,"refundPreference":"GRANT_PRORATED"}"#
        #expect(h.get("/inApps/v2/transactions/consumption/\(noads.id)", method: "PUT", body: v2).status == .accepted)
        let records = try h.store.read { s throws(StoreError) in s.state.serverAPIRecords }
        #expect(records?[coin.id]?.consumption.map(\.body) == [v1])
        #expect(records?[coin.id]?.consumption.map(\.version) == [1])
        #expect(records?[noads.id]?.consumption.map(\.body) == [v2])
        let cases: [(String, String, String)] = [
            ("v1", #"{"customerConsented":false}"#, "4000035"), ("v1", #"{"customerConsented":true,"platform":7}"#, "4000039"),
            ("v1", #"{"customerConsented":true,"playTime":8}"#, "4000040"),
            ("v2", #"{"customerConsented":true,"deliveryStatus":"LOST"}"#, "4000036"),
            ("v2", #"{"customerConsented":true,"consumptionPercentage":0,"refundPreference":"GRANT_PRORATED"}"#, "4000000"),
        ]
        for (version, body, code) in cases {
            #expect(
                Self.code(h, h.get("/inApps/\(version)/transactions/consumption/\(coin.id)", method: "PUT", body: body)) == code,
                "\(body)")
        }
        #expect(Self.code(h, h.get("/inApps/v1/transactions/consumption/\(noads.id)", method: "PUT", body: v1)) == "4000047")
        #expect(Self.code(h, h.get("/inApps/v2/transactions/consumption/abc", method: "PUT", body: v2)) == "4000006")
        // The records survive a reload from the journal and from a checkpoint alike.
        let reloaded = try Store(path: h.store.path, lockTimeout: 1).read { s throws(StoreError) in s.state.serverAPIRecords }
        #expect(reloaded == records)
    }

    @Test("Look Up Order ID: every purchase's order id finds it; an unknown one is status 1 with no transactions")
    func orderLookup() throws {
        let h = try Self.harness()
        let t = try h.buy("com.x.coin42")[0]
        let order = try #require(OrderIdentifier.of(t))
        #expect(order.utf8.count == 10 && order.allSatisfy { $0.isNumber || ($0.isUppercase && $0.isLetter) })
        #expect(OrderIdentifier.transactionID(of: order) == t.id)
        let found = h.json(h.get("/inApps/v1/lookup/\(order)"))
        #expect(found?["status"] == .number("0"))
        #expect(found?["signedTransactions"] == .array([.string("signed.\(t.id).com.x.coin42")]))
        for unknown in ["ZZZZZZZZZZ", "abc", OrderIdentifier.text(for: TransactionID(t.id.rawValue + 5))] {
            #expect(
                h.json(h.get("/inApps/v1/lookup/\(unknown)")) == (try JSONParser.parse(#"{"status":1,"signedTransactions":[]}"#)))
        }
    }

    @Test("Refund History: refunds by revocation date; the last revision later gives only new ones")
    func refunds() throws {
        let h = try Self.harness()
        let coins = try h.buy("com.x.coin42", times: 3)
        // Refunds an hour apart: the history orders by revocationDate, then id.
        let start = coins[2].date
        try h.apply([
            .finish(coins.map(\.id)), .refund(coins[2].id, reason: 1), .advanceClock(to: start.adding(milliseconds: 3_600_000)),
            .refund(coins[0].id, reason: 0), .advanceClock(to: start.adding(milliseconds: 7_200_000)),
        ])
        let first = try #require(h.json(h.get("/inApps/v2/refund/lookup/\(coins[1].id)")))
        #expect(
            first["signedTransactions"]
                == .array([.string("signed.\(coins[2].id).com.x.coin42"), .string("signed.\(coins[0].id).com.x.coin42")]))
        #expect(first["hasMore"] == .bool(false))
        let revision = try #require(first["revision"]?.stringValue)
        #expect(
            h.json(h.get("/inApps/v2/refund/lookup/\(coins[1].id)?revision=\(revision)"))?["signedTransactions"] == .array([]))
        try h.apply([.refund(coins[1].id, reason: 0)])
        #expect(
            h.json(h.get("/inApps/v2/refund/lookup/\(coins[1].id)?revision=\(revision)"))?["signedTransactions"]
                == .array([.string("signed.\(coins[1].id).com.x.coin42")]))
        #expect(Self.code(h, h.get("/inApps/v2/refund/lookup/\(coins[1].id)?revision=00")) == "4000005")
    }

    @Test(
        "Refund History follows refund requests (issue 15): an approved one is listed, a declined one never, a reversed one no longer"
    )
    func refundHistoryOfRequests() throws {
        let h = try Self.harness()
        let coins = try h.buy("com.x.coin42", times: 2)
        try h.apply([
            .finish(coins.map(\.id)), .refundRequest(.request(coins[0].id, reason: nil)),
            .refundRequest(.request(coins[1].id, reason: nil)), .refundRequest(.decline(coins[1].id)),
        ])
        func listed() -> JSONValue? { h.json(h.get("/inApps/v2/refund/lookup/\(coins[0].id)"))?["signedTransactions"] }
        #expect(listed() == .array([]), "open and declined requests refund nothing")
        try h.apply([.refundRequest(.approve(coins[0].id, percent: 50))])
        #expect(listed() == .array([.string("signed.\(coins[0].id).com.x.coin42")]))
        try h.apply([.refundRequest(.reverse(coins[0].id))])
        #expect(listed() == .array([]), "a reversed refund leaves the history")
    }

    @Test(
        "Send Consumption Information again and again: the state keeps the latest ten, the event log every one, and frames stop growing"
    )
    func consumptionWindow() throws {
        let h = try Self.harness()
        let coin = try h.buy("com.x.coin42")[0]
        var frameSizes: [Int] = []
        for n in 1...25 {
            let body = #"{"customerConsented":true,"deliveryStatus":"DELIVERED","consumptionPercentage":\#(n * 1000)}"#
            let before = Self.fileSize(h.store.path + "/journal")
            #expect(h.get("/inApps/v2/transactions/consumption/\(coin.id)", method: "PUT", body: body).status == .accepted)
            frameSizes.append(Self.fileSize(h.store.path + "/journal") - before)
        }
        let kept = try h.store.read { s throws(StoreError) in s.state.serverAPIRecords?[coin.id]?.consumption ?? [] }
        #expect(kept.count == ServerAPIRecord.consumptionKept)
        #expect(
            kept.map(\.body)
                == (16...25).map {
                    #"{"customerConsented":true,"deliveryStatus":"DELIVERED","consumptionPercentage":\#($0 * 1000)}"#
                })
        var received = 0
        try h.store.read { s throws(StoreError) in
            try s.forEachEvent(since: 0) { e throws(StoreError) in
                if case .event(let ev) = e, ev.name == "consumptionInformationReceived" { received += 1 }
            }
        }
        #expect(received == 25, "every request is an event")
        // Once the window is full, a request's frame no longer grows with the requests before it.
        let full = frameSizes[12...]
        #expect(full.max()! - full.min()! < 64, "\(frameSizes)")
    }

    static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    @Test("consumption information sent through the API is what a refund request shows (LifeJSON), in the order received")
    func consumptionShownWithTheRequest() throws {
        let h = try Self.harness()
        let coin = try h.buy("com.x.coin42")[0]
        try h.apply([.refundRequest(.request(coin.id, reason: "FULFILLMENT_ISSUE"))])
        let v2 = #"{"customerConsented":true,"deliveryStatus":"DELIVERED","consumptionPercentage":25000}"#
        #expect(h.get("/inApps/v2/transactions/consumption/\(coin.id)", method: "PUT", body: v2).status == .accepted)
        let json = try h.store.read { s throws(StoreError) -> String in
            guard let q = s.state.refundRequests?[coin.id] else { return "no request" }
            var w = JSONWriter()
            LifeJSON.write(q, consumption: s.state.serverAPIRecords?[coin.id]?.consumption ?? [], into: &w)
            return String(decoding: w.bytes, as: UTF8.self)
        }
        let shown = try JSONParser.parse(json)
        #expect(shown["status"] == .string("open") && shown["reason"] == .string("FULFILLMENT_ISSUE"))
        let info = try #require(shown["consumptionInformation"]?.arrayValue)
        #expect(info.count == 1)
        #expect(info.first?["version"] == .string("v2") && info.first?["consumptionPercentage"] == .number("25000"))
        #expect(info.first?["deliveryStatus"] == .string("DELIVERED"))
    }

    @Test("History v1 leaves out finished consumables unless refunded; v2 lists them; revoked=True as Python sends it")
    func historyV1() throws {
        let h = try Self.harness()
        let coins = try h.buy("com.x.coin42", times: 3)
        try h.apply([.finish([coins[0].id, coins[1].id]), .refund(coins[1].id, reason: 0)])
        func ids(_ path: String) -> [JSONValue] { h.json(h.get(path))?["signedTransactions"]?.arrayValue ?? [] }
        #expect(ids("/inApps/v1/history/\(coins[0].id)") == [coins[1], coins[2]].map { .string("signed.\($0.id).com.x.coin42") })
        #expect(ids("/inApps/v2/history/\(coins[0].id)").count == 3)
        #expect(ids("/inApps/v2/history/\(coins[0].id)?revoked=True") == [.string("signed.\(coins[1].id).com.x.coin42")])
        #expect(ids("/inApps/v2/history/\(coins[0].id)?revoked=False").count == 2)
    }
}
