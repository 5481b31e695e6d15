import IAPKit

/// A duration given to `iapctl clock advance`: calendar months (from years and months), then a
/// fixed length (weeks, days and time of day; UTC has no daylight saving, so a day is 24 hours).
///
/// The calendar part is applied first, as ISO 8601 orders its components: `P1M` from January 31
/// lands on February 28 (or 29), `P1M1D` on March 1.
struct ClockDurationArgument: Equatable, Sendable {
    var months: Int64 = 0
    var milliseconds: Int64 = 0

    /// The date this duration after `t`.
    func advance(_ t: Timestamp) -> Timestamp {
        var date = t
        if months != 0 { date = SubscriptionPeriod(value: Int(months), unit: .month).advance(date) }
        return date.adding(milliseconds: milliseconds)
    }
}

/// Parses what `clock advance` accepts: an ISO 8601 duration (`P1M`, `P3DT4H`, `P1Y2M`, `P2W`,
/// `PT90M`, `PT1.5S`) or the short form (`90d`, `36h`, `30m`, `10s`, `500ms`, `2w`). Nil when
/// `text` is neither, or too large to mean anything on a calendar (more than 10000 years).
///
/// This is the one function the clock commands parse durations with, kept apart so that it can
/// be pointed at IAPKit's `CalendarDuration` once that parser is available.
func parseClockDuration(_ text: String) -> ClockDurationArgument? {
    if let ms = ClockDuration.parseShortForm(text) {
        guard ms <= 10_000 * 366 * 86_400_000 else { return nil }
        return ClockDurationArgument(milliseconds: ms)
    }
    return parseISO8601Duration(text)
}

/// `P[nY][nM][nW][nD][T[nH][nM][n[.fff]S]]`, at least one component, case-insensitive.
private func parseISO8601Duration(_ text: String) -> ClockDurationArgument? {
    let chars = Array(text.uppercased().utf8)
    guard chars.count >= 3, chars[0] == UInt8(ascii: "P") else { return nil }
    var result = ClockDurationArgument()
    var i = 1
    var inTime = false
    var sawComponent = false
    var sawTimeComponent = false
    // Each unit may appear once, in order: the index of the last one seen.
    var lastRank = -1
    let day: Int64 = 86_400_000
    while i < chars.count {
        if chars[i] == UInt8(ascii: "T") {
            guard !inTime, i + 1 < chars.count else { return nil }
            inTime = true
            i += 1
            continue
        }
        var whole: Int64 = 0
        var digits = 0
        while i < chars.count, chars[i] >= 0x30, chars[i] <= 0x39 {
            guard digits < 9 else { return nil }
            whole = whole * 10 + Int64(chars[i] - 0x30)
            digits += 1
            i += 1
        }
        var fractionMillis: Int64 = 0
        var hasFraction = false
        if i < chars.count, chars[i] == UInt8(ascii: ".") || chars[i] == UInt8(ascii: ",") {
            hasFraction = true
            i += 1
            var scale: Int64 = 100
            var fractionDigits = 0
            while i < chars.count, chars[i] >= 0x30, chars[i] <= 0x39 {
                guard fractionDigits < 3 else { return nil }
                fractionMillis += Int64(chars[i] - 0x30) * scale
                scale /= 10
                fractionDigits += 1
                i += 1
            }
            guard fractionDigits > 0 else { return nil }
        }
        guard digits > 0, i < chars.count else { return nil }
        let unit = chars[i]
        i += 1
        let rank: Int
        switch (inTime, unit) {
        case (false, UInt8(ascii: "Y")):
            rank = 0
            result.months += whole * 12
        case (false, UInt8(ascii: "M")):
            rank = 1
            result.months += whole
        case (false, UInt8(ascii: "W")):
            rank = 2
            result.milliseconds += whole * 7 * day
        case (false, UInt8(ascii: "D")):
            rank = 3
            result.milliseconds += whole * day
        case (true, UInt8(ascii: "H")):
            rank = 4
            result.milliseconds += whole * 3_600_000
        case (true, UInt8(ascii: "M")):
            rank = 5
            result.milliseconds += whole * 60_000
        case (true, UInt8(ascii: "S")):
            rank = 6
            result.milliseconds += whole * 1000 + fractionMillis
        default:
            return nil
        }
        // Only seconds may have a fraction here; units appear once, in order.
        guard !hasFraction || rank == 6, rank > lastRank else { return nil }
        lastRank = rank
        sawComponent = true
        if inTime { sawTimeComponent = true }
    }
    guard sawComponent, !inTime || sawTimeComponent else { return nil }
    guard result.months <= 10_000 * 12, result.milliseconds <= 10_000 * 366 * day else { return nil }
    return result
}
