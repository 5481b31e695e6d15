import IAPJSON
import Testing

@testable import IAPKit
@testable import IAPTime

/// `rfc3339` and `appendRFC3339(to:)` write dates digit by digit; they must give exactly the
/// text of the general (interpolating) form, which every stored output was written with.
@Suite("Time: RFC 3339 formatting")
struct TimeRFC3339FormatTests {
    /// Dates across the whole range a store's clock covers and beyond: each edge of a day, a
    /// month, a leap day, with and without milliseconds, and a deterministic spread between.
    static let samples: [Timestamp] = {
        var all: [Timestamp] = [
            Timestamp(milliseconds: 0), Timestamp(milliseconds: 1), Timestamp(milliseconds: 999),
            Timestamp(milliseconds: -1), Timestamp(milliseconds: -86_400_000), .defaultStart,
            CivilTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59, millisecond: 999).timestamp,
            CivilTime(year: 0, month: 1, day: 1).timestamp, CivilTime(year: 9999, month: 12, day: 31).timestamp,
            Machine.latestClock, Machine.latestClock.adding(milliseconds: 1),
            CivilTime(year: -1, month: 12, day: 31, hour: 12).timestamp, CivilTime(year: 12345, month: 6, day: 1).timestamp,
        ]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let ms = Int64(truncatingIfNeeded: x >> 20) % 253_402_300_800_000
            all.append(Timestamp(milliseconds: ms % 3 == 0 ? ms / 1000 * 1000 : ms))
        }
        return all
    }()

    @Test("the digit-by-digit text equals the general form for every sample")
    func sameText() {
        var mismatches: [String] = []
        for t in Self.samples {
            let general = Timestamp.paddedRFC3339(CivilTime(t))
            var bytes: [UInt8] = [0x20]
            t.appendRFC3339(to: &bytes)
            if t.rfc3339 != general || bytes != [0x20] + Array(general.utf8) { mismatches.append(general) }
        }
        #expect(mismatches == [])
        #expect(Timestamp.defaultStart.rfc3339 == "2026-01-01T00:00:00Z")
        #expect(Timestamp(milliseconds: 1_767_225_600_123).rfc3339 == "2026-01-01T00:00:00.123Z")
    }

    @Test("JSON writes a date as the string of its text, and reads back the same instant")
    func json() {
        var w = JSONWriter()
        w.beginArray()
        for t in Self.samples.prefix(200) { w.timestamp(t) }
        w.optionalTimestamp(nil)
        w.endArray()
        var expected = JSONWriter()
        expected.beginArray()
        for t in Self.samples.prefix(200) { expected.string(t.rfc3339) }
        expected.null()
        expected.endArray()
        #expect(w.bytes == expected.bytes)
        // A year of four digits reads back; others have no RFC 3339 form to read.
        #expect(
            Self.samples.prefix(200).allSatisfy {
                Timestamp(rfc3339: $0.rfc3339) == $0 || !(0...9999).contains(CivilTime($0).year)
            })
    }
}
