/// Standard base64 (RFC 4648 section 4, `+` and `/`, `=` padding), as used by `receipt-data`,
/// PEM bodies and the `x5c` certificates in a JWS header.
///
/// Decoding skips ASCII whitespace (PEM and pasted receipts wrap lines) but is otherwise strict:
/// an unknown character, misplaced or missing padding, or non-zero bits in the last character
/// give nil, so two different strings never decode to the same bytes.
public enum Base64 {
    package static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
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
        text.withUnsafeBufferPointer { decode($0, table: url ? urlTable : standardTable, padding: url ? .optional : .required) }
    }

    /// Whether `=` padding must complete the last group of four (RFC 4648 section 3.2), or may
    /// be left out. A table without `=` (base64url) refuses it either way.
    package enum Padding: Sendable {
        case required
        case optional
    }

    /// What each byte means to a decoder: a sextet (0...63), `skip` (whitespace the text may
    /// wrap at), `pad` (`=`), or `invalid`. Built once per alphabet by `decodeTable`.
    package struct DecodeTable: Sendable {
        fileprivate static let invalid: Int8 = -1
        fileprivate static let skip: Int8 = -2
        fileprivate static let pad: Int8 = -3
        fileprivate let values: [Int8]
    }

    /// The table for `alphabet` (64 bytes), skipping `whitespace`, with `=` as padding or not.
    package static func decodeTable(alphabet: [UInt8], whitespace: [UInt8], padding: Bool) -> DecodeTable {
        var t = [Int8](repeating: DecodeTable.invalid, count: 256)
        for (i, c) in alphabet.enumerated() { t[Int(c)] = Int8(i) }
        for c in whitespace { t[Int(c)] = DecodeTable.skip }
        if padding { t[0x3D] = DecodeTable.pad }
        return DecodeTable(values: t)
    }

    /// Standard base64 skipping ASCII whitespace (PEM bodies, pasted receipts); base64url with
    /// neither whitespace nor padding (JWS).
    package static let standardTable = decodeTable(
        alphabet: alphabet, whitespace: [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C], padding: true)
    package static let urlTable = decodeTable(alphabet: urlAlphabet, whitespace: [], padding: false)

    /// Decodes `text` by `table` in one pass, packing each four sextets into three bytes as they
    /// come: padding only at the end (nothing but whitespace after it), a lone trailing sextet
    /// or non-zero unused bits refused, so two different strings never decode to the same bytes.
    /// Receipts are kilobytes on every verifyReceipt request; a sextet array filled first and a
    /// character class switch per byte cost several times as many instructions.
    package static func decode(_ text: UnsafeBufferPointer<UInt8>, table: DecodeTable, padding: Padding) -> [UInt8]? {
        table.values.withUnsafeBufferPointer { t -> [UInt8]? in
            var out: [UInt8] = []
            out.reserveCapacity(text.count / 4 * 3 + 3)
            var group: UInt32 = 0
            var inGroup = 0
            var pads = 0
            for c in text {
                let v = t[Int(c)]
                if v >= 0 {
                    guard pads == 0 else { return nil }
                    group = group << 6 | UInt32(v)
                    inGroup += 1
                    if inGroup == 4 {
                        out.append(UInt8(truncatingIfNeeded: group >> 16))
                        out.append(UInt8(truncatingIfNeeded: group >> 8))
                        out.append(UInt8(truncatingIfNeeded: group))
                        group = 0
                        inGroup = 0
                    }
                } else if v == DecodeTable.skip {
                    continue
                } else if v == DecodeTable.pad {
                    pads += 1
                } else {
                    return nil
                }
            }
            switch padding {
            case .required: guard pads == (inGroup == 0 ? 0 : 4 - inGroup) else { return nil }
            case .optional: guard pads == 0 || (pads <= 2 && (inGroup + pads) % 4 == 0) else { return nil }
            }
            switch inGroup {
            case 1: return nil
            case 2:
                guard group & 0x0F == 0 else { return nil }
                out.append(UInt8(truncatingIfNeeded: group >> 4))
            case 3:
                guard group & 0x03 == 0 else { return nil }
                out.append(UInt8(truncatingIfNeeded: group >> 10))
                out.append(UInt8(truncatingIfNeeded: group >> 2))
            default: break
            }
            return out
        }
    }
}
