import Testing

@testable import IAPKit

@Suite("The simulated clock")
struct ClockTests {
    @Test("advancing moves the clock and records one clockAdvanced event; the same time is a no-op")
    func advance() throws {
        var h = MachineHarness()
        let effects = try h.advance(to: "2026-03-01T00:00:00Z")
        #expect(h.state.clock == date("2026-03-01T00:00:00Z"))
        #expect(effects.events.map(\.kind) == [.clockAdvanced(from: .defaultStart, to: date("2026-03-01T00:00:00Z"))])
        #expect(effects.events.first?.date == date("2026-03-01T00:00:00Z"))
        let before = h.state
        #expect(try h.advance(to: "2026-03-01T00:00:00Z").events.isEmpty)
        #expect(h.state == before)
    }

    @Test("the clock never moves back (exit 4) nor past year 9999 (exit 64); the state stays as it was")
    func errors() throws {
        var h = MachineHarness()
        try h.advance(to: "2026-03-01T00:00:00Z")
        let before = h.state
        let back = Printed.notAllowed(
            "cannot move the clock back from 2026-03-01T00:00:00Z to 2026-02-01T00:00:00Z; the simulated clock only moves forward"
        )
        expectThrows(back) { try h.advance(to: "2026-02-01T00:00:00Z") }
        #expect(back.exitCode == .notAllowed)
        let far = Machine.latestClock.adding(milliseconds: 1)
        expectThrows(
            Printed.usage(
                "cannot move the clock past 9999-12-31T23:59:59.999Z, the last date iapctl writes (it is at 2026-03-01T00:00:00Z); give an earlier date or a shorter duration"
            )
        ) {
            try h.apply(.advanceClock(to: far))
        }
        #expect(h.state == before)
    }

    @Test(
        "what falls due at the same instant happens in original transaction id order",
        arguments: [
            ["c.one", "m.paygo", "d.daily"], ["d.daily", "m.paygo", "c.one"],
        ])
    func sameInstant(order: [String]) throws {
        var h = MachineHarness(catalog: TestCatalogs.offers) { $0.clockStepMilliseconds = 0 }
        let bought = try order.map { id throws(StoreError) in try h.buy(id) }
        let effects = try h.advance("P1M")
        let monthly = bought.filter { $0.productID != ProductID("d.daily") }.map(\.id)
        // 31 daily renewals; at the last one, February 1, the monthly ones renew too, by original id.
        let lastDay = effects.transactions.suffix(3)
        #expect(lastDay.allSatisfy { $0.date == date("2026-02-01T00:00:00Z") })
        let daily = bought.first { $0.productID == ProductID("d.daily") }!.id
        #expect(lastDay.map(\.originalID) == (monthly + [daily]).sorted())
        #expect(effects.transactions.count == 31 + 2)
    }

    /// A mix of everything that falls due: renewals of several periods, an offer, a downgrade,
    /// billing retry with grace, an expiry.
    static func busyStore() throws -> MachineHarness {
        var h = MachineHarness { $0.gracePeriod = true }
        _ = try h.buy("com.x.vipmonthly")
        _ = try h.buy("com.x.vip2")  // a change in the vip group: waits for the renewal
        _ = try h.buy("com.x.weekly")
        _ = try h.buy("com.x.vip1")
        return h
    }

    @Test("a long advance is deterministic, and one step gives the same transactions as many steps")
    func determinism() throws {
        var one = try Self.busyStore()
        try one.advance("P2Y")
        var again = try Self.busyStore()
        try again.advance("P2Y")
        #expect(one.state == again.state)
        #expect(one.events == again.events)
        #expect(one.events.map { EventJSON.bytes($0) } == again.events.map { EventJSON.bytes($0) })

        var steps = try Self.busyStore()
        for _ in 0..<24 { try steps.advance("P1M") }
        #expect(steps.state.clock == one.state.clock)
        #expect(steps.transactions == one.transactions)
        #expect(steps.state.queue == one.state.queue)
        #expect(steps.state.subscriptions == one.state.subscriptions)
        let notClock = { (h: MachineHarness) in h.events.filter { $0.name != "clockAdvanced" }.map(\.kind) }
        #expect(notClock(steps) == notClock(one))
        // Two years of weekly and monthly renewals.
        #expect(one.transactions.filter { $0.reason == .renewal }.count > 100)
    }

    @Test("billing issues switched on and off along the way give the same history in one step or many")
    func determinismWithBillingIssues() throws {
        func run(steps: Int) throws -> MachineHarness {
            var h = try Self.busyStore()
            try h.apply(.advanceClock(to: date("2026-03-15T00:00:00Z")))
            try h.apply(.setSetting(key: "billing-issues", value: "true"))
            let target = date("2027-03-15T00:00:00Z")
            let span = (target.milliseconds - h.state.clock.milliseconds) / Int64(steps)
            for i in 1...steps {
                try h.apply(.advanceClock(to: i == steps ? target : h.state.clock.adding(milliseconds: span)))
            }
            return h
        }
        let a = try run(steps: 1)
        let b = try run(steps: 37)
        #expect(a.transactions == b.transactions)
        #expect(a.state.subscriptions == b.state.subscriptions)
        #expect(
            a.state.subscriptions.values.allSatisfy { $0.status == .expired(.billingError) || $0.status == .expired(.cancelled) })
    }
}
