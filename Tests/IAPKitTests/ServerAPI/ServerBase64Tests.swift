import Foundation
import IAPCrypto
import Testing

@testable import IAPKit

/// The server's base64 decoders against the definition they replaced (a sextet array, then
/// packed), over every short text of interesting bytes and random longer ones, and against
/// Foundation's decoder for canonical standard base64.
@Suite("Server API: base64 of JWT parts and receipt-data")
struct ServerBase64Tests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// The earlier decoders, verbatim in behaviour.
    static func reference(_ text: [UInt8], url: Bool) -> [UInt8]? {
        var sextets: [UInt8] = []
        var padding = 0
        for b in text {
            if let i = alphabet.firstIndex(of: b) {
                guard url || padding == 0 else { return nil }
                sextets.append(UInt8(i))
                continue
            }
            switch (b, url) {
            case (UInt8(ascii: "-"), true): sextets.append(62)
            case (UInt8(ascii: "_"), true): sextets.append(63)
            case (0x20, false), (0x09, false), (0x0A, false), (0x0D, false): continue
            case (UInt8(ascii: "="), false): padding += 1
            case (UInt8(ascii: "+"), false), (UInt8(ascii: "/"), false):
                guard padding == 0 else { return nil }
                sextets.append(b == UInt8(ascii: "+") ? 62 : 63)
            default: return nil
            }
        }
        if !url { guard padding <= 2, padding == 0 || (sextets.count + padding) % 4 == 0 else { return nil } }
        let s = sextets
        guard s.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i + 4 <= s.count {
            out.append(s[i] << 2 | s[i + 1] >> 4)
            out.append(s[i + 1] << 4 | s[i + 2] >> 2)
            out.append(s[i + 2] << 6 | s[i + 3])
            i += 4
        }
        switch s.count - i {
        case 2:
            guard s[i + 1] & 0x0F == 0 else { return nil }
            out.append(s[i] << 2 | s[i + 1] >> 4)
        case 3:
            guard s[i + 2] & 0x03 == 0 else { return nil }
            out.append(s[i] << 2 | s[i + 1] >> 4)
            out.append(s[i + 1] << 4 | s[i + 2] >> 2)
        default: break
        }
        return out
    }

    static func decode(_ text: [UInt8], url: Bool) -> [UInt8]? {
        let string = String(decoding: text, as: UTF8.self)
        return url ? ServerBase64.decodeURL(Substring(string)) : ServerBase64.decodeStandard(string)
    }

    @Test("every text of up to five bytes from a mixed alphabet decodes as the reference does")
    func exhaustiveShort() {
        let bytes = Array("AQg/+_-= \n\r\t*".utf8) + [0xC3]
        var texts: [[UInt8]] = [[]]
        var frontier: [[UInt8]] = [[]]
        for _ in 0..<5 {
            frontier = frontier.flatMap { t in bytes.map { t + [$0] } }
            texts += frontier
        }
        var mismatches: [String] = []
        for t in texts {
            for url in [false, true] where Self.decode(t, url: url) != Self.reference(t, url: url) {
                mismatches.append("\(url ? "url" : "std") \(t)")
            }
        }
        #expect(mismatches.prefix(5) == [])
    }

    @Test("random receipt-sized texts decode as the reference and as Foundation does", arguments: [1, 2, 3])
    func randomLong(seed: UInt64) {
        var x = seed &* 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return x >> 33
        }
        for length in [0, 1, 2, 3, 4, 57, 3000, 4099] {
            let data = (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
            let standard = Array(Data(data).base64EncodedString(options: .lineLength64Characters).utf8)
            #expect(Self.decode(standard, url: false) == data)
            #expect(Self.decode(standard, url: false) == Self.reference(standard, url: false))
            let url = Array(Base64URL.encode(data).utf8)
            #expect(Self.decode(url, url: true) == data)
            // One byte changed anywhere: still the reference's answer.
            if !standard.isEmpty {
                var damaged = standard
                damaged[Int(next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: next())
                #expect(Self.decode(damaged, url: false) == Self.reference(damaged, url: false))
                var damagedURL = url
                if !damagedURL.isEmpty {
                    damagedURL[Int(next() % UInt64(damagedURL.count))] = UInt8(truncatingIfNeeded: next())
                    #expect(Self.decode(damagedURL, url: true) == Self.reference(damagedURL, url: true))
                }
            }
        }
    }
}
