/// A point on the store's simulated clock: milliseconds since 1970-01-01T00:00:00Z (UTC).
///
/// IAPKit never reads the wall clock; every date comes from the store's clock, so the same
/// commands give the same dates. Formatting and parsing are done here, by calendar arithmetic,
/// rather than with a locale-dependent `DateFormatter`.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public let milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public init(seconds: Int64) { self.milliseconds = seconds * 1000 }

    /// The default start of a new store's clock: 2026-01-01T00:00:00Z.
    public static let defaultStart = Timestamp(milliseconds: 1_767_225_600_000)

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public func adding(milliseconds delta: Int64) -> Timestamp { Timestamp(milliseconds: milliseconds + delta) }

    public var description: String { rfc3339 }

    /// RFC 3339 in UTC: `2026-01-01T00:00:00Z`, with `.123` only when there are milliseconds.
    public var rfc3339: String {
        let c = CivilTime(self)
        guard (0...9999).contains(c.year) else { return Self.paddedRFC3339(c) }
        let count = c.millisecond != 0 ? 24 : 20
        return String(unsafeUninitializedCapacity: count) { buffer in
            Self.writeRFC3339(c, into: buffer.baseAddress!)
            return count
        }
    }

    /// Appends `rfc3339`'s UTF-8 to `bytes`, without making a `String` (every date of a dump, a
    /// receipt's JSON and an event goes through here).
    public func appendRFC3339(to bytes: inout [UInt8]) {
        let c = CivilTime(self)
        guard (0...9999).contains(c.year) else { return bytes.append(contentsOf: Self.paddedRFC3339(c).utf8) }
        let count = c.millisecond != 0 ? 24 : 20
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            Self.writeRFC3339(c, into: buffer.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: count))
        }
    }

    /// Writes `YYYY-MM-DDTHH:MM:SS[.mmm]Z` (20 or 24 bytes) for a year of four digits, digit by
    /// digit: string interpolation cost some eight thousand instructions a date.
    private static func writeRFC3339(_ c: CivilTime, into p: UnsafeMutablePointer<UInt8>) {
        func digits(_ value: Int64, _ width: Int, at offset: Int) {
            var v = value
            for i in stride(from: offset + width - 1, through: offset, by: -1) {
                p[i] = 0x30 + UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            }
        }
        digits(c.year, 4, at: 0)
        p[4] = UInt8(ascii: "-")
        digits(c.month, 2, at: 5)
        p[7] = UInt8(ascii: "-")
        digits(c.day, 2, at: 8)
        p[10] = UInt8(ascii: "T")
        digits(c.hour, 2, at: 11)
        p[13] = UInt8(ascii: ":")
        digits(c.minute, 2, at: 14)
        p[16] = UInt8(ascii: ":")
        digits(c.second, 2, at: 17)
        if c.millisecond != 0 {
            p[19] = UInt8(ascii: ".")
            digits(c.millisecond, 3, at: 20)
            p[23] = UInt8(ascii: "Z")
        } else {
            p[19] = UInt8(ascii: "Z")
        }
    }

    /// The general form, for a year outside 0...9999 (never a store's clock, which ends with
    /// year 9999, but a parsed certificate or receipt date may be anything).
    static func paddedRFC3339(_ c: CivilTime) -> String {
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        var text =
            "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))"
        if c.millisecond != 0 { text += ".\(pad(c.millisecond, 3))" }
        return text + "Z"
    }

    /// Parses RFC 3339 (`2026-01-01T00:00:00Z`, `2026-01-01T08:00:00+08:00`, fractions up to
    /// milliseconds) or a bare date (`2026-01-01`, meaning midnight UTC).
    public init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= b.count else { return nil }
            var v: Int64 = 0
            for i in range {
                guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                v = v * 10 + Int64(b[i] - 0x30)
            }
            return v
        }
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), day >= 1, day <= CivilTime.daysIn(month: month, year: year)
        else { return nil }
        var hour: Int64 = 0
        var minute: Int64 = 0
        var second: Int64 = 0
        var millis: Int64 = 0
        var offset: Int64 = 0
        if b.count > 10 {
            guard b.count >= 20, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == 0x20,
                b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
                let h = number(11..<13), let m = number(14..<16), let s = number(17..<19),
                h < 24, m < 60, s < 60
            else { return nil }
            (hour, minute, second) = (h, m, s)
            var i = 19
            if b[i] == UInt8(ascii: ".") {
                i += 1
                var digits = 0
                while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                    if digits < 3 { millis = millis * 10 + Int64(b[i] - 0x30) }
                    digits += 1
                    i += 1
                }
                guard digits > 0 else { return nil }
                if digits < 3 { for _ in digits..<3 { millis *= 10 } }
            }
            guard i < b.count else { return nil }
            if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
                guard i + 1 == b.count else { return nil }
            } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                guard i + 6 == b.count, b[i + 3] == UInt8(ascii: ":"), let oh = number(i + 1..<i + 3),
                    let om = number(i + 4..<i + 6), oh < 24, om < 60
                else { return nil }
                offset = (oh * 60 + om) * 60_000 * (b[i] == UInt8(ascii: "+") ? 1 : -1)
            } else {
                return nil
            }
        }
        let days = CivilTime.daysFromCivil(year: year, month: month, day: day)
        milliseconds = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis - offset
    }

    /// Parses the ISO 8601 date-times Apple's and Xcode's receipts hold, which are wider than
    /// RFC 3339: the App Store writes `2020-10-30T10:54:04Z`; Xcode 12 wrote local time with a
    /// colon-less offset, `2020-07-22T18:33:15+0100` (and `4001-01-01T03:00:00+0300` for the
    /// expiration date); an offset may also be `+01:00` or `+01`, and seconds may carry a fraction
    /// of any length (cut to milliseconds). The result is the UTC instant.
    public init?(iso8601 text: String) {
        let b = Array(text.utf8)
        // Everything RFC 3339 takes, first.
        if let strict = Timestamp(rfc3339: text) {
            self = strict
            return
        }
        // Find the offset after the seconds (and fraction): +hhmm, -hhmm, +hh.
        guard b.count >= 20 else { return nil }
        var i = 19
        if b[i] == UInt8(ascii: ".") {
            i += 1
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
        }
        guard i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return nil }
        let sign = String(UnicodeScalar(b[i]))
        let digits = b[(i + 1)...]
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let offset: String
        switch digits.count {
        case 4:
            offset = String(decoding: digits.prefix(2), as: UTF8.self) + ":" + String(decoding: digits.suffix(2), as: UTF8.self)
        case 2: offset = String(decoding: digits, as: UTF8.self) + ":00"
        default: return nil
        }
        guard let t = Timestamp(rfc3339: String(decoding: b[..<i], as: UTF8.self) + sign + offset) else { return nil }
        self = t
    }
}

/// Calendar fields of a timestamp in UTC (proleptic Gregorian), by Howard Hinnant's algorithms.
public struct CivilTime: Equatable, Sendable {
    public var year: Int64
    public var month: Int64
    public var day: Int64
    public var hour: Int64
    public var minute: Int64
    public var second: Int64
    public var millisecond: Int64

    public init(_ t: Timestamp) {
        let ms = t.milliseconds
        var days = ms / 86_400_000
        var rest = ms % 86_400_000
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        (year, month, day) = CivilTime.civilFromDays(days)
        hour = rest / 3_600_000
        minute = rest / 60_000 % 60
        second = rest / 1000 % 60
        millisecond = rest % 1000
    }

    public init(
        year: Int64, month: Int64, day: Int64, hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, millisecond: Int64 = 0
    ) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second, self.millisecond) = (hour, minute, second, millisecond)
    }

    public var timestamp: Timestamp {
        let days = CivilTime.daysFromCivil(year: year, month: month, day: day)
        return Timestamp(milliseconds: ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond)
    }

    public static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func civilFromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
