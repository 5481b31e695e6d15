import IAPTime

/// Dates as verifyReceipt writes them: `"2026-01-01 00:00:00 Etc/GMT"`, the `_ms` twin in
/// milliseconds as a string, and the `_pst` twin in Cupertino's time,
/// `"2025-12-31 16:00:00 America/Los_Angeles"` (PST, or PDT under US daylight saving time).
enum VerifyReceiptDate {
    static func gmt(_ t: Timestamp) -> String { text(t) + " Etc/GMT" }

    static func pacific(_ t: Timestamp) -> String {
        text(t.adding(milliseconds: Int64(pacificOffsetHours(t)) * 3_600_000)) + " America/Los_Angeles"
    }

    static func milliseconds(_ t: Timestamp) -> String { String(t.milliseconds) }

    /// -7 under daylight saving time, else -8. US rules: since 2007 from the second Sunday of
    /// March, 2:00 PST, to the first Sunday of November, 2:00 PDT; 1987-2006 from the first
    /// Sunday of April to the last Sunday of October (earlier years use those too).
    static func pacificOffsetHours(_ t: Timestamp) -> Int {
        let year = CivilTime(t).year
        let start: Int64
        let end: Int64
        if year >= 2007 {
            start = sunday(year: year, month: 3, nth: 2)
            end = sunday(year: year, month: 11, nth: 1)
        } else {
            start = sunday(year: year, month: 4, nth: 1)
            end = lastSunday(year: year, month: 10)
        }
        // 2:00 local standard time is 10:00 UTC; 2:00 local daylight time is 09:00 UTC.
        let startMs = (start * 24 + 10) * 3_600_000
        let endMs = (end * 24 + 9) * 3_600_000
        return t.milliseconds >= startMs && t.milliseconds < endMs ? -7 : -8
    }

    /// Days since 1970 of the `nth` Sunday of a month.
    private static func sunday(year: Int64, month: Int64, nth: Int64) -> Int64 {
        let first = CivilTime.daysFromCivil(year: year, month: month, day: 1)
        let weekday = ((first + 4) % 7 + 7) % 7  // 0 = Sunday; 1970-01-01 was a Thursday
        return first + (7 - weekday) % 7 + (nth - 1) * 7
    }

    private static func lastSunday(year: Int64, month: Int64) -> Int64 {
        let last = CivilTime.daysFromCivil(year: year, month: month, day: CivilTime.daysIn(month: month, year: year))
        let weekday = ((last + 4) % 7 + 7) % 7
        return last - weekday
    }

    /// `yyyy-MM-dd HH:mm:ss` of `t` in UTC.
    private static func text(_ t: Timestamp) -> String {
        let c = CivilTime(t)
        func pad(_ v: Int64, _ n: Int) -> String {
            let s = String(v)
            return s.count >= n ? s : String(repeating: "0", count: n - s.count) + s
        }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2)) \(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))"
    }
}
