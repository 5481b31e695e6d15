/// Base64 decoding for what clients send the server: JWT parts (base64url, RFC 7515 section 2)
/// and `receipt-data` (standard base64, RFC 4648 section 4).
enum ServerBase64 {
    private static let table: [Int8] = {
        var t = [Int8](repeating: -1, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    /// Decodes base64url without padding, as JWTs carry it; nil for any other byte.
    static func decodeURL(_ text: Substring) -> [UInt8]? {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "-"): sextets.append(62)
            case UInt8(ascii: "_"): sextets.append(63)
            default:
                let v = table[Int(b)]
                guard v >= 0 else { return nil }
                sextets.append(UInt8(v))
            }
        }
        return pack(sextets)
    }

    /// Decodes standard base64 with optional `=` padding, skipping line breaks and spaces (as
    /// `NSData` emits with line-length options); nil for any other byte or a bad length.
    static func decodeStandard(_ text: String) -> [UInt8]? {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        var padding = 0
        for b in text.utf8 {
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "="): padding += 1
            case UInt8(ascii: "+"):
                guard padding == 0 else { return nil }
                sextets.append(62)
            case UInt8(ascii: "/"):
                guard padding == 0 else { return nil }
                sextets.append(63)
            default:
                let v = table[Int(b)]
                guard v >= 0, padding == 0 else { return nil }
                sextets.append(UInt8(v))
            }
        }
        guard padding <= 2, padding == 0 || (sextets.count + padding) % 4 == 0 else { return nil }
        return pack(sextets)
    }

    /// Packs 6-bit values into bytes; a lone trailing sextet, or unused bits that are not zero,
    /// make the text non-canonical and are refused.
    private static func pack(_ s: [UInt8]) -> [UInt8]? {
        guard s.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(s.count * 3 / 4)
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
}
