import IAPTime
import Testing

@testable import IAPKit

/// Issue 15, item 2: refund requests: request, approve (full or prorated), decline, reverse, with
/// whole-state assertions (everything else in the state is unchanged).
@Suite("Refund requests: request, approve, decline, reverse")
struct RefundRequestTests {
    static let coin = "com.x.coin42"

    @Test("a request of a consumable: CONSUMPTION_REQUEST, the request in the state, nothing else changed")
    func requestConsumable() throws {
        var h = MachineHarness()
        let coin = try h.buy(Self.coin)
        try h.apply(.finishAll)
        let before = h.state
        let effects = try h.apply(.refundRequest(.request(coin.id, reason: "never arrived")))
        let q = RefundRequest(transactionID: coin.id, requested: before.clock, reason: "never arrived")
        var expected = before
        expected.refundRequests = [coin.id: q]
        expected.nextEventSeq += 1
        #expect(h.state == expected)
        let stored = try #require(h.transaction(coin.id))
        #expect(effects.events.map(\.kind) == [.life(.refundRequested(stored, q))])
        #expect(effects.events[0].kind.serverNotification == ServerNotification("CONSUMPTION_REQUEST"))
        #expect(
            effects.outcome
                == .life(.refund(stored, q, nil, notification: ServerNotification("CONSUMPTION_REQUEST"), family: [])))
        #expect(ExitCode(effects.outcome) == .success)
    }

    @Test("a non-consumable's request notifies nothing (Apple asks consumption data only for consumables and subscriptions)")
    func requestNonConsumable() throws {
        var h = MachineHarness()
        let noads = try h.buy("com.x.noads")
        let effects = try h.apply(.refundRequest(.request(noads.id, reason: nil)))
        #expect(effects.events.map(\.name) == ["refundRequested"])
        #expect(effects.events[0].kind.serverNotification == nil)
        let sub = try h.buy("com.x.vippro")
        let s = try h.apply(.refundRequest(.request(sub.id, reason: nil)))
        #expect(s.events[0].kind.serverNotification == ServerNotification("CONSUMPTION_REQUEST"))
    }

    @Test("consumption information sent before or after the request is what the request shows")
    func consumptionAttached() throws {
        var h = MachineHarness()
        let coin = try h.buy(Self.coin)
        try h.apply(.serverAPI(.consumptionInformation(coin.id, version: 2, body: #"{"customerConsented":true}"#)))
        try h.apply(.refundRequest(.request(coin.id, reason: nil)))
        try h.apply(
            .serverAPI(
                .consumptionInformation(coin.id, version: 2, body: #"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#)))
        #expect(h.state.serverAPIRecords?[coin.id]?.consumption.count == 2)
        #expect(h.state.refundRequests?[coin.id]?.status == .open)
    }

    @Test("approve --percent 40: REFUND, revocationType REFUND_PRORATED, revocationPercentage 40000, entitlement gone")
    func approveProrated() throws {
        var h = MachineHarness()
        let noads = try h.buy("com.x.noads")
        try h.apply(.finishAll)
        try h.apply(.refundRequest(.request(noads.id, reason: nil)))
        let before = h.state
        let effects = try h.apply(.refundRequest(.approve(noads.id, percent: 40)))
        let t = try #require(h.transaction(noads.id))
        #expect(t.revocationDate == before.clock && t.revocationReason == 0)
        #expect(t.revocationType == .refundProrated && t.revocationPercentage == 40_000)
        var expected = before
        expected.ownership = [:]
        expected.refundRequests?[noads.id]?.status = .approved(percent: 40)
        expected.refundRequests?[noads.id]?.decided = before.clock
        expected.nextEventSeq += 1
        #expect(h.state == expected)
        #expect(effects.events.map(\.kind) == [.transactionRevoked(t, nil)])
        #expect(effects.events[0].kind.serverNotification == ServerNotification("REFUND"))
        // A full one is REFUND_FULL, 100000.
        var h2 = MachineHarness()
        let coin = try h2.buy(Self.coin)
        try h2.apply(.refundRequest(.request(coin.id, reason: nil)))
        try h2.apply(.refundRequest(.approve(coin.id, percent: 100)))
        #expect(
            h2.transaction(coin.id)?.revocationType == .refundFull && h2.transaction(coin.id)?.revocationPercentage == 100_000)
    }

    @Test("decline: REFUND_DECLINED, nothing revoked; the request is closed")
    func decline() throws {
        var h = MachineHarness()
        let noads = try h.buy("com.x.noads")
        try h.apply(.refundRequest(.request(noads.id, reason: nil)))
        let before = h.state
        let effects = try h.apply(.refundRequest(.decline(noads.id)))
        var expected = before
        expected.refundRequests?[noads.id]?.status = .declined
        expected.refundRequests?[noads.id]?.decided = before.clock
        expected.nextEventSeq += 1
        #expect(h.state == expected)
        #expect(h.transaction(noads.id)?.revocationDate == nil)
        #expect(effects.events[0].kind.serverNotification == ServerNotification("REFUND_DECLINED"))
        // A new request may follow a declined one.
        try h.apply(.refundRequest(.request(noads.id, reason: "again")))
        #expect(h.state.refundRequests?[noads.id]?.status == .open)
    }

    @Test("reverse: REFUND_REVERSED; the subscription is active again, renews, and is owned")
    func reverseSubscription() throws {
        var h = MachineHarness()
        let sub = try h.buy("com.x.vippro")
        try h.apply(.finishAll)
        let before = h.state
        try h.apply(.refundRequest(.request(sub.id, reason: nil)))
        try h.apply(.refundRequest(.approve(sub.id, percent: 100)))
        #expect(h.subscription("com.x.vippro")?.status.grantsAccess == false)
        let effects = try h.apply(.refundRequest(.reverse(sub.id)))
        let t = try #require(h.transaction(sub.id))
        #expect(t == sub.finishedCopy(in: h))
        var expected = before
        expected.refundRequests = [
            sub.id: RefundRequest(
                transactionID: sub.id, requested: before.clock, reason: nil, status: .reversed(percent: 100),
                decided: before.clock)
        ]
        expected.nextEventSeq += 3
        #expect(h.state == expected)
        #expect(effects.events.map(\.kind) == [.life(.refundReversed(t, h.subscription("com.x.vippro")))])
        #expect(effects.events[0].kind.serverNotification == ServerNotification("REFUND_REVERSED"))
        #expect(try h.advance("P1M").events.map(\.name).contains("subscriptionRenewed"))
    }

    @Test("reverse of Xcode's immediate refund of a non-consumable: owned again")
    func reverseImmediate() throws {
        var h = MachineHarness()
        let noads = try h.buy("com.x.noads")
        let before = h.state
        try h.apply(.refund(noads.id, reason: 1))
        try h.apply(.refundRequest(.reverse(noads.id)))
        var expected = before
        expected.nextEventSeq += 2
        #expect(h.state == expected)
        #expect(h.transaction(noads.id) == noads)
    }

    @Test("refused steps leave the state alone, with one-line errors")
    func refusals() throws {
        var h = MachineHarness()
        let noads = try h.buy("com.x.noads")
        let unknown = TransactionID(2_000_000_000_000_099)
        h.expectRefusal(.refundRequest(.request(unknown, reason: nil)), .unknownTransaction(unknown))
        h.expectRefusal(
            .refundRequest(.decline(noads.id)),
            .notAllowed(
                "transaction \(noads.id) has no refund request to decline; open one with 'iapctl refund request \(noads.id)'"))
        h.expectRefusal(
            .refundRequest(.approve(noads.id, percent: 100)),
            .notAllowed(
                "transaction \(noads.id) has no refund request to approve; open one with 'iapctl refund request \(noads.id)'"))
        h.expectRefusal(
            .refundRequest(.reverse(noads.id)),
            .notAllowed("transaction \(noads.id) was not refunded; only a refunded transaction's refund can be reversed"))
        try h.apply(.refundRequest(.request(noads.id, reason: nil)))
        h.expectRefusal(
            .refundRequest(.approve(noads.id, percent: 0)),
            .usage("bad --percent 0; give 1 to 100 (100, the default, refunds in full)"))
        h.expectRefusal(
            .refundRequest(.request(noads.id, reason: nil)),
            .notAllowed(
                "transaction \(noads.id) already has a refund request open since \(h.state.clock.rfc3339); answer it with 'iapctl refund approve \(noads.id)' or 'iapctl refund decline \(noads.id)'"
            ))
        try h.apply(.refundRequest(.decline(noads.id)))
        h.expectRefusal(
            .refundRequest(.decline(noads.id)),
            .notAllowed(
                "the refund request of transaction \(noads.id) is already declined; open a new one with 'iapctl refund request \(noads.id)'"
            ))
    }
}

extension Transaction {
    /// This transaction as the store holds it after `finish --all`.
    fileprivate func finishedCopy(in h: MachineHarness) -> Transaction {
        var t = self
        t.disposition = .finished
        return t
    }
}

@Suite("Issue 15 records")
struct LifeRecordTests {
    @Test("revocationType and revocationPercentage survive the transaction codec; requests, increases and consents theirs")
    func roundTrips() {
        for type in RevocationType.allCases {
            var t = RecordCodecTests.full
            t.revocationType = type
            t.revocationPercentage = 40_000
            #expect(RecordCodecTests.roundTrip(t) == t)
        }
        func again<T: BinaryRecord & Equatable>(_ value: T) -> T? {
            var w = ByteWriter()
            value.encode(into: &w)
            return w.bytes.withUnsafeBytes { raw in
                var r = ByteReader(raw)
                return T.decode(from: &r)
            }
        }
        let id = TransactionID(2_000_000_000_000_001)
        for status in [RefundRequest.Status.open, .approved(percent: 40), .declined, .reversed(percent: 100)] {
            let q = RefundRequest(
                transactionID: id, requested: Timestamp(milliseconds: 5), reason: status == .open ? "why" : nil, status: status,
                decided: status == .open ? nil : Timestamp(milliseconds: 9))
            #expect(again(q) == q)
        }
        let p = PriceIncrease(
            productID: ProductID("com.x.vippro"), storefront: "JPN", price: Price(milliunits: 1_500_000), consentRequired: false,
            date: Timestamp(milliseconds: 3))
        #expect(again(p) == p)
        for status in [PriceConsent.Status.pending, .accepted, .declined] {
            let c = PriceConsent(
                productID: ProductID("com.x.vippro"), price: Price(milliunits: 11_990), currency: "USD", status: status)
            #expect(again(c) == c)
        }
    }
}
