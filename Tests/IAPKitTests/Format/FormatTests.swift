import IAPKit
import Testing

@testable import IAPCrypto
@testable import IAPJSON
@testable import IAPTime

@Suite("JSON, dates, prices and records")
struct FormatTests {
    @Test("the JSON parser keeps member order and exact number text")
    func parserOrder() throws {
        let v = try JSONParser.parse(#"{"b": 1, "a": [true, null, "x\u00e9\ud83e\ude99"], "c": 0.990, "d": -1e3}"#)
        #expect(v.objectValue?.map(\.key) == ["b", "a", "c", "d"])
        #expect(v["c"] == .number("0.990"))
        #expect(v["a"]?.arrayValue?[2] == .string("xé🪙"))
        #expect(v.serialized() == #"{"b":1,"a":[true,null,"xé🪙"],"c":0.990,"d":-1e3}"#)
    }

    @Test(
        "malformed JSON fails with the byte offset",
        arguments: [
            ("", 0, "a value"), ("{", 1, "a string key"), (#"{"a" 1}"#, 5, "':'"), ("[1,]", 3, "a value"),
            (#"{"a":1,"a":2}"#, 7, "a key other than the duplicate 'a'"), ("01", 1, "end of input"),
            ("\"\u{01}\"", 1, "an escaped control character"),
            (#""\ud800""#, 7, "a low surrogate escape"), ("tru", 0, "'true'"), ("1.", 2, "a digit after '.'"),
            ("[1] x", 4, "end of input"),
        ])
    func parserErrors(text: String, offset: Int, expected: String) {
        #expect(throws: JSONParseError(offset: offset, expected: expected)) { try JSONParser.parse(text) }
    }

    @Test("deep nesting is refused, not a stack overflow")
    func depth() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
    }

    @Test("the writer escapes and separates correctly")
    func writer() {
        var w = JSONWriter()
        w.beginObject()
        w.key("s")
        w.string("q\"b\\n\n\t\u{01}é")
        w.key("a")
        w.beginArray()
        w.int(-5)
        w.decimalString(2_000_000_000_000_001)
        w.beginObject()
        w.endObject()
        w.null()
        w.endArray()
        w.key("t")
        w.bool(true)
        w.endObject()
        #expect(w.string == #"{"s":"q\"b\\n\n\t\u0001é","a":[-5,"2000000000000001",{},null],"t":true}"#)
    }

    @Test(
        "RFC 3339 round trips and rejects garbage",
        arguments: [
            ("2026-01-01T00:00:00Z", 1_767_225_600_000 as Int64), ("2026-01-01", 1_767_225_600_000),
            ("2024-02-29T23:59:59.5Z", 1_709_251_199_500),
            ("2026-01-01T08:00:00+08:00", 1_767_225_600_000), ("1970-01-01T00:00:00Z", 0),
            ("2099-12-31T23:59:59Z", 4_102_444_799_000),
        ])
    func rfc3339(text: String, ms: Int64) throws {
        let t = try #require(Timestamp(rfc3339: text))
        #expect(t.milliseconds == ms)
        #expect(Timestamp(rfc3339: t.rfc3339) == t)
    }

    @Test(
        "bad dates",
        arguments: [
            "", "2026-13-01", "2025-02-29", "2026-01-01T24:00:00Z", "2026-01-01T00:00:00", "2026-01-01T00:00:00+8", "x026-01-01",
            "2026-01-01T00:00:00.Z",
        ])
    func badDates(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    @Test(
        "calendar months clamp the day",
        arguments: [
            ("2026-01-31T00:00:00Z", "P1M", "2026-02-28T00:00:00Z"), ("2024-01-31T00:00:00Z", "P1M", "2024-02-29T00:00:00Z"),
            ("2026-11-30T10:00:00Z", "P3M", "2027-02-28T10:00:00Z"), ("2024-02-29T00:00:00Z", "P1Y", "2025-02-28T00:00:00Z"),
            ("2026-01-01T00:00:00Z", "P1W", "2026-01-08T00:00:00Z"),
        ])
    func periods(start: String, period: String, end: String) throws {
        let p = try #require(SubscriptionPeriod(iso8601: period))
        #expect(p.advance(Timestamp(rfc3339: start)!).rfc3339 == end)
    }

    @Test(
        "prices are exact and localized per storefront",
        arguments: [
            ("0.99", "USA", "$0.99"), ("6", "CHN", "¥6.00"), ("120", "JPN", "¥120"), ("1299.99", "USA", "$1,299.99"),
            ("13800", "JPN", "¥13,800"), ("0", "GBR", "£0.00"), ("1000000", "KOR", "₩1,000,000"),
        ])
    func prices(text: String, storefront: String, shown: String) throws {
        let price = try #require(Price(decimal: text))
        #expect(Storefront.named(storefront)!.localizedPrice(price) == shown)
    }

    @Test("bad prices", arguments: ["", "-1", "1.2345", "abc", "1,00", ".5", "1.", "9999999999999"])
    func badPrices(text: String) {
        #expect(Price(decimal: text) == nil)
    }

    @Test(
        "short durations",
        arguments: [
            ("0", 0 as Int64), ("500ms", 500), ("1s", 1000), ("5m", 300_000), ("36h", 129_600_000), ("90d", 7_776_000_000),
            ("2w", 1_209_600_000),
        ])
    func durations(text: String, ms: Int64) {
        #expect(ClockDuration.parseShortForm(text) == ms)
        #expect(ClockDuration.parseShortForm(ClockDuration.shortForm(milliseconds: ms)) == ms)
    }

    @Test("CRC-32C matches the published check value")
    func crc() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        // RFC 3720 B.4's iSCSI test vectors: 32 zero bytes and 32 bytes of 0xFF.
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    }

    /// CRC-32C by its definition, a bit at a time: what the sliced tables must reproduce.
    static func referenceCRC32C(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = ~0
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
        }
        return ~c
    }

    @Test("the written-out slicing tables are the polynomial's")
    func crcTables() {
        var expected = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            expected[i] = c
        }
        for k in 1..<8 {
            for i in 0..<256 {
                let previous = expected[(k - 1) * 256 + i]
                expected[k * 256 + i] = (previous >> 8) ^ expected[Int(previous & 0xFF)]
            }
        }
        #expect(CRC32C.tables == expected)
    }

    @Test("the sliced CRC-32C equals the bit-at-a-time definition at every length, alignment and chaining")
    func crcSliced() {
        var seed: UInt64 = 0x1234_5678_9ABC_DEF0
        func next() -> UInt8 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 56)
        }
        let bytes = (0..<300).map { _ in next() }
        for start in 0..<9 {
            for end in stride(from: start, through: bytes.count, by: 7) {
                let slice = Array(bytes[start..<end])
                #expect(CRC32C.checksum(slice) == Self.referenceCRC32C(slice), "bytes \(start)..<\(end)")
                let half = slice.count / 2
                let chained = CRC32C.checksum(Array(slice[half...]), continuing: CRC32C.checksum(Array(slice[..<half])))
                #expect(chained == Self.referenceCRC32C(slice))
                #expect(CRC32C.checksum(bytes[start..<end]) == Self.referenceCRC32C(slice))
            }
        }
    }
}
