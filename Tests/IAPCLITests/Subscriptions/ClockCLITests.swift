import IAPKit
import Testing

@Suite("iapctl clock, end to end")
struct ClockCLITests {
    @Test(
        "clock advance takes ISO 8601 and short durations; months are calendar months",
        arguments: [
            ("P1M", "2026-02-28T00:00:00Z"), ("P1M1D", "2026-03-01T00:00:00Z"), ("P3DT4H", "2026-02-03T04:00:00Z"),
            ("90d", "2026-05-01T00:00:00Z"), ("36h", "2026-02-01T12:00:00Z"), ("PT90M", "2026-01-31T01:30:00Z"),
            ("P1Y", "2027-01-31T00:00:00Z"), ("P2W", "2026-02-14T00:00:00Z"), ("PT1.5S", "2026-01-31T00:00:01.500Z"),
            ("500ms", "2026-01-31T00:00:00.500Z"), ("p1y2m", "2027-03-31T00:00:00Z"), ("P0D", "2026-01-31T00:00:00Z"),
        ])
    func durations(duration: String, expected: String) {
        let h = CLIHarness()
        #expect(h.runInProcess(["init", "--start-date", "2026-01-31T00:00:00Z"]).code == 0)
        let r = h.runInProcess(["clock", "advance", duration, "--json"])
        #expect(r.code == 0, "\(r)")
        #expect(r.json?["clock"]?.stringValue == expected)
    }

    @Test(
        "bad clock input: one line naming the value and the fix, the documented exit code, no change",
        arguments: [
            (
                ["clock", "advance", "P1X"], 64,
                "error: bad duration 'P1X'; write ISO 8601 such as P1M, P3DT4H, P1Y, or a short form such as 90d, 36h, 500ms (see 'iapctl help clock advance')\n"
            ),
            (
                ["clock", "advance", "PT"], 64,
                "error: bad duration 'PT'; write ISO 8601 such as P1M, P3DT4H, P1Y, or a short form such as 90d, 36h, 500ms (see 'iapctl help clock advance')\n"
            ),
            (
                ["clock", "advance", "P1D2Y"], 64,
                "error: bad duration 'P1D2Y'; write ISO 8601 such as P1M, P3DT4H, P1Y, or a short form such as 90d, 36h, 500ms (see 'iapctl help clock advance')\n"
            ),
            (
                ["clock", "advance", "P20000Y"], 64,
                "error: bad duration 'P20000Y'; write ISO 8601 such as P1M, P3DT4H, P1Y, or a short form such as 90d, 36h, 500ms (see 'iapctl help clock advance')\n"
            ),
            (
                ["clock", "set", "2025-12-31"], 4,
                "error: cannot move the clock back from 2026-01-01T00:00:00Z to 2025-12-31T00:00:00Z; the simulated clock only moves forward\n"
            ),
            (
                ["clock", "set", "tomorrow"], 64,
                "error: bad date 'tomorrow'; write RFC 3339 such as 2026-03-01T12:00:00Z, or a date such as 2026-03-01 (see 'iapctl help clock set')\n"
            ),
            (
                ["clock", "advance", "P9000Y"], 64,
                "error: cannot move the clock past 9999-12-31T23:59:59.999Z, the last date iapctl writes (it is at 2026-01-01T00:00:00Z); give an earlier date or a shorter duration\n"
            ),
        ])
    func badInput(arguments: [String], code: Int32, stderr: String) {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let before = h.run(["events"]).stdout
        let r = h.run(arguments)
        #expect(r.code == code)
        #expect(r.stderr == stderr)
        #expect(r.stdout.isEmpty)
        #expect(h.run(["clock"]).stdout == "2026-01-01T00:00:00Z\n")
        #expect(h.run(["events"]).stdout == before)
    }

    @Test("clock shows the time and the next due date; advance reports what happened on the way")
    func showAndReport() {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.vip2"]).code == 0)
        #expect(h.run(["clock"]).stdout == "2026-01-01T00:00:01Z\nnext due: 2026-04-01T00:00:01Z\n")
        let show = h.run(["clock", "show", "--json"])
        #expect(
            show.stdout
                == #"{"clock":"2026-01-01T00:00:01Z","clockTimestamp":1767225601000,"nextDueDate":"2026-04-01T00:00:01Z","nextDueTimestamp":1775001601000}"#
                + "\n")
        let r = h.run(["clock", "advance", "P1Y"])
        #expect(
            r.stdout
                == "clock 2027-01-01T00:00:01Z (was 2026-01-01T00:00:01Z)\non the way: 4 subscriptionRenewed\nsee 'iapctl events --since 4'\n"
        )
        let set = h.run(["clock", "set", "2027-02-01", "--json"])
        #expect(
            set.stdout
                == #"{"from":"2027-01-01T00:00:01Z","fromTimestamp":1798761601000,"clock":"2027-02-01T00:00:00Z","clockTimestamp":1801440000000,"events":{},"firstEventSeq":10,"transactions":0}"#
                + "\n")
        let events = h.run(["events", "--since", "9"]).stdout
        #expect(
            events.hasPrefix(
                #"{"seq":10,"name":"clockAdvanced","date":"2027-02-01T00:00:00Z","timestamp":1801440000000,"clock":{"from":"2027-01-01T00:00:01Z","fromTimestamp":1798761601000,"to":"2027-02-01T00:00:00Z","toTimestamp":1801440000000}}"#
            ))
    }

    @Test("advancing in one step or many gives a byte-identical dump")
    func stepsDoNotMatter() {
        func store(_ steps: [String]) -> String {
            let h = CLIHarness()
            for id in ["com.x.vipmonthly", "com.x.weekly", "com.x.vip1", "com.x.noads"] { _ = h.runInProcess(["buy", id]) }
            _ = h.runInProcess(["buy", "com.x.vip2"])
            _ = h.runInProcess(["config", "set", "grace-period", "true"])
            for step in steps { #expect(h.runInProcess(["clock", "advance", step]).code == 0) }
            _ = h.runInProcess(["config", "set", "billing-issues", "true"])
            for step in steps { #expect(h.runInProcess(["clock", "advance", step]).code == 0) }
            return h.runInProcess(["dump"]).stdout
        }
        let once = store(["P1Y"])
        let monthly = store(Array(repeating: "P1M", count: 12))
        #expect(once == monthly)
        #expect(once.contains("\"transactionReason\":\"renewal\""))
    }
}
