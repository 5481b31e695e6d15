import IAPTime

/// UTCTime and GeneralizedTime text, in the restricted forms RFC 5280 section 4.1.2.5 allows
/// (always `Z`, seconds present; GeneralizedTime may carry a fraction). Certificate validity is
/// compared on the simulated clock, so these map straight to `Timestamp`.
enum ASN1Time {
    static func parse(_ text: [UInt8], utc: Bool, offset: Int) throws(ASN1Error) -> Timestamp {
        var i = 0
        func digits(_ n: Int, _ what: String) throws(ASN1Error) -> Int64 {
            var value: Int64 = 0
            for _ in 0..<n {
                guard i < text.count, text[i] >= 0x30, text[i] <= 0x39 else {
                    throw ASN1Error(offset: offset + i, expected: what)
                }
                value = value * 10 + Int64(text[i] - 0x30)
                i += 1
            }
            return value
        }
        var year: Int64
        if utc {
            let yy = try digits(2, "a two-digit year")
            year = yy < 50 ? 2000 + yy : 1900 + yy
        } else {
            year = try digits(4, "a four-digit year")
        }
        let month = try digits(2, "a two-digit month")
        guard (1...12).contains(month) else { throw ASN1Error(offset: offset + i - 2, expected: "a month from 01 to 12") }
        let day = try digits(2, "a two-digit day")
        guard day >= 1, day <= CivilTime.daysIn(month: month, year: year) else {
            throw ASN1Error(offset: offset + i - 2, expected: "a day that exists in that month")
        }
        let hour = try digits(2, "a two-digit hour")
        guard hour < 24 else { throw ASN1Error(offset: offset + i - 2, expected: "an hour from 00 to 23") }
        let minute = try digits(2, "two-digit minutes")
        guard minute < 60 else { throw ASN1Error(offset: offset + i - 2, expected: "minutes from 00 to 59") }
        let second = try digits(2, "two-digit seconds")
        guard second < 60 else { throw ASN1Error(offset: offset + i - 2, expected: "seconds from 00 to 59") }
        var millisecond: Int64 = 0
        if !utc, i < text.count, text[i] == UInt8(ascii: ".") {
            i += 1
            var count = 0
            while i < text.count, text[i] >= 0x30, text[i] <= 0x39 {
                if count < 3 { millisecond = millisecond * 10 + Int64(text[i] - 0x30) }
                count += 1
                i += 1
            }
            guard count > 0 else { throw ASN1Error(offset: offset + i, expected: "a digit after the decimal point") }
            for _ in min(count, 3)..<3 { millisecond *= 10 }
        }
        guard i < text.count, text[i] == UInt8(ascii: "Z") else { throw ASN1Error(offset: offset + i, expected: "'Z'") }
        guard i + 1 == text.count else { throw ASN1Error(offset: offset + i + 1, expected: "the end of the time after 'Z'") }
        return CivilTime(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond
        ).timestamp
    }

    /// `YYMMDDHHMMSSZ`, or nil outside 1950...2049.
    static func utcText(_ time: Timestamp) -> [UInt8]? {
        let c = CivilTime(time)
        guard (1950...2049).contains(c.year) else { return nil }
        return Array(
            (pad(c.year % 100, 2) + pad(c.month, 2) + pad(c.day, 2) + pad(c.hour, 2) + pad(c.minute, 2) + pad(c.second, 2) + "Z")
                .utf8)
    }

    /// `YYYYMMDDHHMMSS[.fff]Z` (DER: no trailing zeros in the fraction), or nil outside 0...9999.
    static func generalizedText(_ time: Timestamp) -> [UInt8]? {
        let c = CivilTime(time)
        guard (0...9999).contains(c.year) else { return nil }
        var text = pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2) + pad(c.hour, 2) + pad(c.minute, 2) + pad(c.second, 2)
        if c.millisecond != 0 {
            var fraction = pad(c.millisecond, 3)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return Array((text + "Z").utf8)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
