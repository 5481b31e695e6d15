/// Standard base64 (RFC 4648 section 4, `+` and `/`, `=` padding), as used by `receipt-data`,
/// PEM bodies and the `x5c` certificates in a JWS header.
///
/// Decoding skips ASCII whitespace (PEM and pasted receipts wrap lines) but is otherwise strict:
/// an unknown character, misplaced or missing padding, or non-zero bits in the last character
/// give nil, so two different strings never decode to the same bytes.
public enum Base64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let urlAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes with `=` padding and no line breaks.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        encode(Array(bytes), alphabet: alphabet, pad: true)
    }

    /// Decodes standard base64, ignoring whitespace; nil on any other malformation.
    public static func decode(_ text: String) -> [UInt8]? {
        decode(Array(text.utf8), url: false)
    }

    static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out.append(alphabet[Int(n >> 18)])
            out.append(alphabet[Int(n >> 12 & 63)])
            if pad { out.append(contentsOf: [0x3D, 0x3D]) }
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out.append(alphabet[Int(n >> 18)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            if pad { out.append(0x3D) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Shared decoder: `url` selects the `-_` alphabet with no padding and no whitespace.
    package static func decode(_ text: [UInt8], url: Bool) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.count)
        var padding = 0
        for c in text {
            if !url, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0B || c == 0x0C { continue }
            if !url, c == 0x3D {
                padding += 1
                continue
            }
            guard padding == 0, let v = value(c, url: url) else { return nil }
            values.append(v)
        }
        let rest = values.count % 4
        if rest == 1 { return nil }
        if url {
            guard padding == 0 else { return nil }
        } else {
            guard (values.count + padding) % 4 == 0, padding == (rest == 0 ? 0 : 4 - rest) else { return nil }
        }
        var out: [UInt8] = []
        out.reserveCapacity(values.count / 4 * 3 + 2)
        var i = 0
        while i + 4 <= values.count {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | UInt32(values[i + 2]) << 6 | UInt32(values[i + 3])
            out.append(UInt8(truncatingIfNeeded: n >> 16))
            out.append(UInt8(truncatingIfNeeded: n >> 8))
            out.append(UInt8(truncatingIfNeeded: n))
            i += 4
        }
        if rest == 2 {
            guard values[i + 1] & 0x0F == 0 else { return nil }
            out.append(values[i] << 2 | values[i + 1] >> 4)
        } else if rest == 3 {
            guard values[i + 2] & 0x03 == 0 else { return nil }
            out.append(values[i] << 2 | values[i + 1] >> 4)
            out.append(values[i + 1] << 4 | values[i + 2] >> 2)
        }
        return out
    }

    private static func value(_ c: UInt8, url: Bool) -> UInt8? {
        switch c {
        case 0x41...0x5A: return c - 0x41
        case 0x61...0x7A: return c - 0x61 + 26
        case 0x30...0x39: return c - 0x30 + 52
        case 0x2B where !url: return 62
        case 0x2F where !url: return 63
        case 0x2D where url: return 62
        case 0x5F where url: return 63
        default: return nil
        }
    }
}
