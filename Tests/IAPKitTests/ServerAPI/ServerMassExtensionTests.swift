import IAPKit
import Testing

/// Extend Subscription Renewal Dates for All Active Subscribers, in the machine: a
/// RENEWAL_EXTENSION FAILURE per subscription it cannot extend, then the SUMMARY; and a
/// requestIdentifier already processed is not processed again.
@Suite struct ServerMassExtensionTests {
    static func mass(_ request: String) -> Command {
        .serverAPI(
            .massExtendRenewalDate(ProductID("com.x.vip2"), days: 3, reason: 3, requestIdentifier: request, storefronts: nil))
    }

    @Test("a subscription past two extensions a year gets RENEWAL_EXTENSION FAILURE, before the SUMMARY")
    func failurePerSubscription() throws {
        let h = try APIHarness()
        let t = try #require(try h.buy("com.x.vip2").first)
        for n in 1...2 {
            try h.apply([
                .serverAPI(.extendRenewalDate(original: t.originalID, days: 1, reason: 0, requestIdentifier: "single-\(n)"))
            ])
        }
        let expires = try h.store.read { s throws(StoreError) in s.state.subscriptions[t.originalID]?.expiresDate }
        let effects = try h.apply([Self.mass("mass-1")])
        let names = effects.events.map { $0.kind.name }
        #expect(names == ["massExtensionFailed", "massExtensionCompleted"])
        #expect(
            effects.events.map { $0.kind.serverNotification }
                == [ServerNotification("RENEWAL_EXTENSION", "FAILURE"), ServerNotification("RENEWAL_EXTENSION", "SUMMARY")])
        guard case .serverAPI(.massExtensionFailed(let latest, let sub, let request)) = effects.events.first?.kind else {
            Issue.record("no massExtensionFailed: \(names)")
            return
        }
        #expect(latest.originalID == t.originalID && sub.originalID == t.originalID && request == "mass-1")
        let after = try h.store.read { s throws(StoreError) in s.state }
        #expect(after.subscriptions[t.originalID]?.expiresDate == expires, "not extended")
        #expect(after.massExtensions?.last?.failed == 1 && after.massExtensions?.last?.succeeded == 0)
    }

    @Test("the same requestIdentifier again changes nothing and emits nothing")
    func resendIsNotProcessed() throws {
        let h = try APIHarness()
        let t = try #require(try h.buy("com.x.vip2").first)
        let first = try h.apply([Self.mass("mass-2")])
        #expect(first.events.map { $0.kind.name } == ["renewalExtended", "massExtensionCompleted"])
        let before = try h.store.read { s throws(StoreError) in s.state }
        let again = try h.apply([Self.mass("mass-2")])
        #expect(again.events.isEmpty)
        let after = try h.store.read { s throws(StoreError) in s.state }
        #expect(after == before, "the whole state is unchanged")
        #expect(after.subscriptions[t.originalID]?.expiresDate != nil)
    }
}
