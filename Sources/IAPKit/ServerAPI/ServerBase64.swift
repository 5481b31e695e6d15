/// Base64 decoding for what clients send the server: JWT parts (base64url, RFC 7515 section 2)
/// and `receipt-data` (standard base64, RFC 4648 section 4).
///
/// One pass over the text's bytes through a 256-entry table, four sextets packed into three
/// bytes as they come (`receipt-data` is kilobytes on every verifyReceipt request; the earlier
/// sextet array and per-byte global lookup cost some 80 instructions a character).
/// `ServerBase64Tests` holds both decoders to that earlier definition.
enum ServerBase64 {
    /// What a byte means: a sextet (0...63), or one of these.
    private static let invalid: Int8 = -1
    private static let whitespace: Int8 = -2
    private static let padding: Int8 = -3

    private static func table(url: Bool) -> [Int8] {
        var t = [Int8](repeating: invalid, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() { t[Int(c)] = Int8(i) }
        if url {
            t[Int(UInt8(ascii: "-"))] = 62
            t[Int(UInt8(ascii: "_"))] = 63
        } else {
            t[Int(UInt8(ascii: "+"))] = 62
            t[Int(UInt8(ascii: "/"))] = 63
            for b in [0x20, 0x09, 0x0A, 0x0D] { t[b] = whitespace }
            t[Int(UInt8(ascii: "="))] = padding
        }
        return t
    }
    private static let urlTable = table(url: true)
    private static let standardTable = table(url: false)

    /// Decodes base64url without padding, as JWTs carry it; nil for any other byte.
    static func decodeURL(_ text: Substring) -> [UInt8]? {
        if let result = text.utf8.withContiguousStorageIfAvailable({ decode($0, table: urlTable) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { decode($0, table: urlTable) }
    }

    /// Decodes standard base64 with optional `=` padding, skipping line breaks and spaces (as
    /// `NSData` emits with line-length options); nil for any other byte or a bad length.
    static func decodeStandard(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0, table: standardTable) }
    }

    /// Decodes `input` by `table`: sextets packed as they come; padding only at the end, at most
    /// two, and then completing a group of four. A lone trailing sextet, or unused bits that are
    /// not zero, make the text non-canonical and are refused.
    private static func decode(_ input: UnsafeBufferPointer<UInt8>, table: [Int8]) -> [UInt8]? {
        table.withUnsafeBufferPointer { t -> [UInt8]? in
            var out: [UInt8] = []
            out.reserveCapacity(input.count / 4 * 3 + 3)
            var group: UInt32 = 0
            var inGroup = 0
            var sextets = 0
            var pads = 0
            for b in input {
                let v = t[Int(b)]
                if v >= 0 {
                    guard pads == 0 else { return nil }
                    group = group << 6 | UInt32(v)
                    inGroup += 1
                    sextets += 1
                    if inGroup == 4 {
                        out.append(UInt8(truncatingIfNeeded: group >> 16))
                        out.append(UInt8(truncatingIfNeeded: group >> 8))
                        out.append(UInt8(truncatingIfNeeded: group))
                        group = 0
                        inGroup = 0
                    }
                } else if v == whitespace {
                    continue
                } else if v == padding {
                    pads += 1
                } else {
                    return nil
                }
            }
            guard pads <= 2, pads == 0 || (sextets + pads) % 4 == 0 else { return nil }
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
