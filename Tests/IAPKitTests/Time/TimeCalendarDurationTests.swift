import Testing

@testable import IAPKit
@testable import IAPTime

@Suite("Time: calendar durations")
struct TimeCalendarDurationTests {
    @Test(
        "parses ISO 8601 and short forms; prints ISO",
        arguments: [
            ("P1M", 1, 0, "P1M"),
            ("P1Y", 12, 0, "P1Y"),
            ("P1Y2M10DT2H30M", 14, ((10 * 24 + 2) * 60 + 30) * 60_000, "P1Y2M10DT2H30M"),
            ("P3DT4H", 0, (3 * 24 + 4) * 3_600_000, "P3DT4H"),
            ("PT36H", 0, 36 * 3_600_000, "PT36H"),
            ("P2W", 0, 14 * 86_400_000, "P2W"),
            ("PT15M", 0, 15 * 60_000, "PT15M"),
            ("PT1.5S", 0, 1500, "PT1.5S"),
            ("PT0.25S", 0, 250, "PT0.25S"),
            ("pt36h", 0, 36 * 3_600_000, "PT36H"),
            ("PT0S", 0, 0, "PT0S"),
            ("P0D", 0, 0, "PT0S"),
            ("90d", 0, 90 * 86_400_000, "P90D"),
            ("36h", 0, 36 * 3_600_000, "PT36H"),
            ("15m", 0, 15 * 60_000, "PT15M"),
            ("30s", 0, 30_000, "PT30S"),
            ("500ms", 0, 500, "PT0.5S"),
            ("1500ms", 0, 1500, "PT1.5S"),
            ("2w", 0, 14 * 86_400_000, "P2W"),
            ("0", 0, 0, "PT0S"),
            ("P10000Y", 120_000, 0, "P10000Y"),
        ] as [(String, Int64, Int64, String)])
    func parse(_ text: String, _ months: Int64, _ exact: Int64, _ iso: String) throws {
        let d = try #require(CalendarDuration(text))
        #expect(d.totalMonths == months)
        #expect(d.exactMilliseconds == exact)
        #expect(d.description == iso)
        let again = try #require(CalendarDuration(iso))
        #expect(again.totalMonths == months)
        #expect(again.exactMilliseconds == exact)
    }

    @Test(
        "rejects garbage",
        arguments: [
            "", "P", "PT", "T1H", "1M", "P1", "P1.5M", "P1,5Y", "PT1.5H", "PT1.2345S", "P-1M", "-P1M", "-5d", "P1MT",
            "P1M1Y", "P1D1W", "PT1S1M", "P1Y1Y", "P1H", "PT1D", "P1TT1H", "P 1M", "P1M ", "1.5d", "5x", "ms", "P10001Y",
            "P120001M", "P9999999999999D", "PT999999999999H", "P10000Y1M", "P1Y2M3W4DT5H6M7.8S9",
        ])
    func rejects(_ text: String) {
        #expect(CalendarDuration(text) == nil)
    }

    @Test("components are kept as written")
    func components() throws {
        let d = try #require(CalendarDuration("P1Y2M3W4DT5H6M7.008S"))
        #expect(d == CalendarDuration(years: 1, months: 2, weeks: 3, days: 4, hours: 5, minutes: 6, seconds: 7, milliseconds: 8))
        #expect(d.description == "P1Y2M3W4DT5H6M7.008S")
        #expect(!d.isExact)
        #expect(CalendarDuration("P3DT4H")?.isExact == true)
        #expect(CalendarDuration(months: -1) == nil)
    }

    @Test(
        "advances by the calendar, clamping to the month's last day, then exactly",
        arguments: [
            ("2026-01-31T10:00:00Z", "P1M", "2026-02-28T10:00:00Z"),
            ("2028-01-31T10:00:00Z", "P1M", "2028-02-29T10:00:00Z"),
            ("2026-03-31T00:00:00Z", "P1M", "2026-04-30T00:00:00Z"),
            ("2026-01-31T00:00:00Z", "P2M", "2026-03-31T00:00:00Z"),
            ("2028-02-29T12:00:00Z", "P1Y", "2029-02-28T12:00:00Z"),
            ("2028-02-29T12:00:00Z", "P4Y", "2032-02-29T12:00:00Z"),
            ("2100-01-29T00:00:00Z", "P1M", "2100-02-28T00:00:00Z"),
            ("2000-01-30T00:00:00Z", "P1M", "2000-02-29T00:00:00Z"),
            ("2026-11-30T00:00:00Z", "P3M", "2027-02-28T00:00:00Z"),
            ("2026-01-31T00:00:00Z", "P1M1D", "2026-03-01T00:00:00Z"),
            ("2026-01-01T00:00:00Z", "P1Y2M10DT2H30M", "2027-03-11T02:30:00Z"),
            ("2026-01-01T00:00:00Z", "P3DT4H", "2026-01-04T04:00:00Z"),
            ("2026-02-28T23:00:00Z", "PT36H", "2026-03-02T11:00:00Z"),
            ("2026-01-01T00:00:00Z", "P2W", "2026-01-15T00:00:00Z"),
            ("2026-01-01T00:00:00Z", "90d", "2026-04-01T00:00:00Z"),
            ("2026-01-01T00:00:00Z", "500ms", "2026-01-01T00:00:00.500Z"),
            ("2026-12-31T23:59:59Z", "PT1S", "2027-01-01T00:00:00Z"),
            ("1969-12-31T00:00:00Z", "P1M", "1970-01-31T00:00:00Z"),
            ("2026-05-31T08:15:00.250Z", "P1M", "2026-06-30T08:15:00.250Z"),
        ])
    func advance(_ start: String, _ duration: String, _ end: String) throws {
        let t = try #require(Timestamp(rfc3339: start))
        let d = try #require(CalendarDuration(duration))
        #expect(d.advance(t).rfc3339 == end)
    }

    @Test("a month from the 31st matches SubscriptionPeriod's renewal dates")
    func matchesSubscriptionPeriod() throws {
        var t = try #require(Timestamp(rfc3339: "2026-01-31T00:00:00Z"))
        let month = try #require(CalendarDuration("P1M"))
        let start = t
        for n in 1...24 {
            t = month.advance(t)
            // Step by step clamps for good (Feb 28 stays the 28th); from the start it does not.
            #expect(t.milliseconds <= SubscriptionPeriod(value: 1, unit: .month).advance(start, times: n).milliseconds)
        }
        #expect(t.rfc3339 == "2028-01-28T00:00:00Z")
    }
}
