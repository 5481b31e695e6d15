/// A span of the simulated clock as people and Apple write it: an ISO 8601 duration
/// (`P1M`, `P1Y2M10DT2H30M`, `P3DT4H`, `PT36H`, `P2W`) or a short form (`90d`, `36h`, `15m`,
/// `500ms`, see `ClockDuration`).
///
/// Years and months are calendar units: advancing by them moves the date, not a fixed number of
/// seconds, and clamps the day to the month's length (Jan 31 + P1M = Feb 28, or 29 in a leap
/// year), as the App Store does for renewal dates. Weeks, days and time are exact (the clock is
/// UTC, so a day is always 24 hours). Negative durations, fractions other than of seconds, and
/// spans over 10,000 years are refused, so advancing never overflows.
public struct CalendarDuration: Hashable, Sendable, CustomStringConvertible {
    public let years: Int64
    public let months: Int64
    public let weeks: Int64
    public let days: Int64
    public let hours: Int64
    public let minutes: Int64
    public let seconds: Int64
    public let milliseconds: Int64

    /// The longest span accepted, in years: far beyond any simulated subscription, and short
    /// enough that month and millisecond arithmetic cannot overflow.
    public static let maximumYears: Int64 = 10_000
    private static let maximumMonths = maximumYears * 12
    private static let maximumMilliseconds = maximumYears * 366 * 86_400_000

    /// A duration from its parts; nil when a part is negative or the total is too long.
    public init?(
        years: Int64 = 0, months: Int64 = 0, weeks: Int64 = 0, days: Int64 = 0,
        hours: Int64 = 0, minutes: Int64 = 0, seconds: Int64 = 0, milliseconds: Int64 = 0
    ) {
        let parts = [years, months, weeks, days, hours, minutes, seconds, milliseconds]
        guard parts.allSatisfy({ $0 >= 0 && $0 <= CalendarDuration.maximumMilliseconds }) else { return nil }
        let (y, m, w, d, h, mi, s, ms) = (years, months, weeks, days, hours, minutes, seconds, milliseconds)
        guard y <= CalendarDuration.maximumYears, y * 12 + m <= CalendarDuration.maximumMonths else { return nil }
        var total: Int64 = 0
        for (count, scale) in [(w, Int64(604_800_000)), (d, 86_400_000), (h, 3_600_000), (mi, 60_000), (s, 1000), (ms, 1)] {
            let (product, overflow) = count.multipliedReportingOverflow(by: scale)
            guard !overflow, product <= CalendarDuration.maximumMilliseconds - total else { return nil }
            total += product
        }
        (self.years, self.months, self.weeks, self.days) = (y, m, w, d)
        (self.hours, self.minutes, self.seconds, self.milliseconds) = (h, mi, s, ms)
    }

    /// Parses an ISO 8601 duration or a short form; nil for anything else.
    ///
    /// ISO form: `P`, then any of `nY nM nW nD` in that order, then optionally `T` and any of
    /// `nH nM nS` in that order (seconds may have up to three decimals, `PT1.5S`). At least one
    /// part must follow `P` and `T`. Letters are case-insensitive.
    public init?(_ text: String) {
        if let parsed = CalendarDuration.shortForm(text) ?? CalendarDuration.iso8601(text) {
            self = parsed
        } else {
            return nil
        }
    }

    /// Whole calendar months to advance first (years count twelve).
    public var totalMonths: Int64 { years * 12 + months }

    /// The exact part after the calendar months, in milliseconds.
    public var exactMilliseconds: Int64 {
        ((((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + milliseconds
    }

    /// Whether the duration has no calendar part, so it is the same length from any date.
    public var isExact: Bool { totalMonths == 0 }

    /// `t` moved forward: years and months by the calendar (day clamped to the month's last
    /// day), then weeks, days and time exactly; the time of day is kept by the calendar step.
    public func advance(_ t: Timestamp) -> Timestamp {
        var moved = t
        if totalMonths != 0 {
            var c = CivilTime(t)
            let index = c.year * 12 + (c.month - 1) + totalMonths
            c.year = index >= 0 ? index / 12 : (index - 11) / 12
            c.month = index - c.year * 12 + 1
            c.day = min(c.day, CivilTime.daysIn(month: c.month, year: c.year))
            moved = c.timestamp
        }
        return moved.adding(milliseconds: exactMilliseconds)
    }

    /// The ISO 8601 form, parts as given (`P2W` stays `P2W`, `90d` becomes `P90D`, `500ms`
    /// becomes `PT0.5S`); the zero duration is `PT0S`.
    public var description: String {
        var text = "P"
        for (count, letter) in [(years, "Y"), (months, "M"), (weeks, "W"), (days, "D")] where count != 0 {
            text += "\(count)\(letter)"
        }
        var time = ""
        for (count, letter) in [(hours, "H"), (minutes, "M")] where count != 0 {
            time += "\(count)\(letter)"
        }
        if seconds != 0 || milliseconds != 0 {
            let whole = seconds + milliseconds / 1000
            let fraction = milliseconds % 1000
            if fraction == 0 {
                time += "\(whole)S"
            } else {
                var digits = String(fraction)
                digits = String(repeating: "0", count: 3 - digits.count) + digits
                while digits.hasSuffix("0") { digits.removeLast() }
                time += "\(whole).\(digits)S"
            }
        }
        if !time.isEmpty { text += "T" + time }
        return text == "P" ? "PT0S" : text
    }

    // MARK: Parsing

    private static func shortForm(_ text: String) -> CalendarDuration? {
        guard let ms = ClockDuration.parseShortForm(text) else { return nil }
        if ms == 0 { return CalendarDuration() }
        let units: [(suffix: String, scale: Int64)] = [
            ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000), ("w", 604_800_000),
        ]
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
        let n = ms / unit.scale
        switch unit.suffix {
        case "ms": return CalendarDuration(milliseconds: n)
        case "s": return CalendarDuration(seconds: n)
        case "m": return CalendarDuration(minutes: n)
        case "h": return CalendarDuration(hours: n)
        case "d": return CalendarDuration(days: n)
        default: return CalendarDuration(weeks: n)
        }
    }

    private static func iso8601(_ text: String) -> CalendarDuration? {
        let chars = Array(text.uppercased().utf8)
        guard chars.first == UInt8(ascii: "P"), chars.count >= 3 else { return nil }
        var parts: [UInt8: Int64] = [:]
        var millis: Int64 = 0
        var inTime = false
        var order = Array("YMWD".utf8)
        var i = 1
        var sawDatePart = false
        var sawTimePart = false
        while i < chars.count {
            if chars[i] == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                order = Array("HMS".utf8)
                i += 1
                continue
            }
            var number: Int64 = 0
            var digits = 0
            while i < chars.count, chars[i] >= 0x30, chars[i] <= 0x39 {
                guard digits < 12 else { return nil }
                number = number * 10 + Int64(chars[i] - 0x30)
                digits += 1
                i += 1
            }
            guard digits > 0, i < chars.count else { return nil }
            var fraction: Int64 = 0
            var hasFraction = false
            if chars[i] == UInt8(ascii: ".") || chars[i] == UInt8(ascii: ",") {
                hasFraction = true
                i += 1
                var fractionDigits = 0
                while i < chars.count, chars[i] >= 0x30, chars[i] <= 0x39 {
                    guard fractionDigits < 3 else { return nil }
                    fraction = fraction * 10 + Int64(chars[i] - 0x30)
                    fractionDigits += 1
                    i += 1
                }
                guard fractionDigits > 0, i < chars.count else { return nil }
                for _ in fractionDigits..<3 { fraction *= 10 }
            }
            let letter = chars[i]
            i += 1
            // Units appear once each, largest first; only seconds may have a fraction.
            guard let position = order.firstIndex(of: letter) else { return nil }
            order.removeFirst(position + 1)
            guard !hasFraction || (inTime && letter == UInt8(ascii: "S")) else { return nil }
            let key = inTime && letter == UInt8(ascii: "M") ? UInt8(ascii: "m") : letter
            parts[key] = number
            if hasFraction { millis = fraction }
            if inTime { sawTimePart = true } else { sawDatePart = true }
        }
        guard sawDatePart || sawTimePart, !inTime || sawTimePart else { return nil }
        return CalendarDuration(
            years: parts[UInt8(ascii: "Y")] ?? 0, months: parts[UInt8(ascii: "M")] ?? 0,
            weeks: parts[UInt8(ascii: "W")] ?? 0, days: parts[UInt8(ascii: "D")] ?? 0,
            hours: parts[UInt8(ascii: "H")] ?? 0, minutes: parts[UInt8(ascii: "m")] ?? 0,
            seconds: parts[UInt8(ascii: "S")] ?? 0, milliseconds: millis)
    }
}
