import IAPCrypto

/// Base64 decoding for what clients send the server: JWT parts (base64url, RFC 7515 section 2)
/// and `receipt-data` (standard base64, RFC 4648 section 4), through IAPCrypto's one-pass decoder.
/// `receipt-data` is more lenient than a PEM body: its `=` padding may be left out.
/// `ServerBase64Tests` holds both to the definition the server has always had.
enum ServerBase64 {
    /// Standard base64 skipping line breaks and spaces (as `NSData` emits with line-length
    /// options), with `=` padding.
    private static let receiptTable = Base64.decodeTable(
        alphabet: Base64.alphabet, whitespace: [0x20, 0x09, 0x0A, 0x0D], padding: true)

    /// Decodes base64url without padding, as JWTs carry it; nil for any other byte.
    static func decodeURL(_ text: Substring) -> [UInt8]? {
        let decode = { (utf8: UnsafeBufferPointer<UInt8>) in Base64.decode(utf8, table: Base64.urlTable, padding: .optional) }
        if let result = text.utf8.withContiguousStorageIfAvailable(decode) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(decode)
    }

    /// Decodes standard base64 with optional `=` padding, skipping line breaks and spaces; nil
    /// for any other byte or a bad length.
    static func decodeStandard(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { Base64.decode($0, table: receiptTable, padding: .optional) }
    }
}
