import Testing

@testable import IAPTime

/// The date shapes Apple's and Xcode's receipts hold, all read as the same UTC instant.
@Suite("Time: receipt date shapes (ISO 8601)")
struct TimeISO8601Tests {
    static let shapes: [(String, String)] = [
        ("2020-07-22T17:33:15Z", "2020-07-22T17:33:15Z"),  // the App Store
        ("2020-07-22T18:33:15+0100", "2020-07-22T17:33:15Z"),  // Xcode 12
        ("2020-07-22T18:33:15+01:00", "2020-07-22T17:33:15Z"),
        ("2020-07-22T18:33:15+01", "2020-07-22T17:33:15Z"),
        ("2021-04-03T22:38:45+0300", "2021-04-03T19:38:45Z"),
        ("2020-07-22T12:03:15-0530", "2020-07-22T17:33:15Z"),
        ("4001-01-01T03:00:00+0300", "4001-01-01T00:00:00Z"),  // Xcode's "never expires"
        ("4001-01-01T00:00:00+0000", "4001-01-01T00:00:00Z"),
        ("2020-07-22T17:33:15.123Z", "2020-07-22T17:33:15.123Z"),
        ("2020-07-22T18:33:15.5+0100", "2020-07-22T17:33:15.500Z"),
        ("2020-07-22T18:33:15.123456+01:00", "2020-07-22T17:33:15.123Z"),
    ]

    @Test(arguments: shapes)
    func shape(_ text: String, _ utc: String) {
        #expect(Timestamp(iso8601: text)?.rfc3339 == utc)
    }

    @Test(arguments: [
        "", "2020-07-22", "2020-07-22T18:33:15", "2020-07-22T18:33:15+1", "2020-07-22T18:33:15+01000",
        "2020-07-22T18:33:15+01:0", "2020-07-22T18:33:15+ab00", "2020-07-22T18:33:15 +0100", "2020-13-22T18:33:15Z",
    ])
    func refused(_ text: String) {
        // A bare date is RFC 3339's midnight; anything else here is not a date-time.
        if text == "2020-07-22" {
            #expect(Timestamp(iso8601: text)?.rfc3339 == "2020-07-22T00:00:00Z")
        } else {
            #expect(Timestamp(iso8601: text) == nil, "\(text)")
        }
    }

    /// RFC 3339 itself stays strict: the colon-less offset is a receipt form only.
    @Test func rfc3339StaysStrict() {
        #expect(Timestamp(rfc3339: "2020-07-22T18:33:15+0100") == nil)
    }
}
