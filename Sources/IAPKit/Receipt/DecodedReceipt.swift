import IAPCrypto

/// A receipt read from outside: its DER (or BER) bytes, the PKCS#7 envelope, and the payload.
///
/// `decode` accepts what users hand over: the base64 text `receipt` prints (with or without line
/// breaks), or the raw bytes `receipt --der` and `appStoreReceiptURL` hold; Xcode's BER receipts
/// included. Malformed input is a `ReceiptError` naming the byte offset, never a crash.
public struct DecodedReceipt: Sendable {
    /// The receipt's bytes (base64-decoded when the input was text).
    public let der: [UInt8]
    public let envelope: PKCS7SignedData
    public let receipt: AppReceipt

    public init(der: [UInt8], envelope: PKCS7SignedData, receipt: AppReceipt) {
        self.der = der
        self.envelope = envelope
        self.receipt = receipt
    }

    /// Decodes base64 text or DER bytes.
    public static func decode(_ input: [UInt8]) throws(ReceiptError) -> DecodedReceipt {
        let der = try bytes(fromInput: input)
        let envelope = try PKCS7SignedData.parse(der)
        let receipt = try ReceiptPayload.decode(envelope.content, offsets: envelope.contentOffsets)
        return DecodedReceipt(der: der, envelope: envelope, receipt: receipt)
    }

    /// The receipt bytes of an input that is either DER (it starts with 0x30, a SEQUENCE) or
    /// base64 text, which is decoded. Offsets in errors about text are offsets in the text.
    public static func bytes(fromInput input: [UInt8]) throws(ReceiptError) -> [UInt8] {
        guard let first = input.first(where: { !isSpace($0) }) else {
            throw ReceiptError(offset: 0, expected: "a receipt (the input is empty)")
        }
        if input.first == 0x30 { return input }
        if let bad = input.firstIndex(where: { !isSpace($0) && !isBase64($0) }) {
            let shown =
                input[bad] >= 0x20 && input[bad] < 0x7F
                ? "'\(Character(Unicode.Scalar(input[bad])))'" : "byte 0x\(Hex.encode([input[bad]]))"
            throw ReceiptError(offset: bad, expected: "base64 text or DER bytes starting with 0x30 (found \(shown))")
        }
        guard let decoded = Base64.decode(input, url: false) else {
            throw ReceiptError(
                offset: input.count, expected: "complete base64 text (a multiple of 4 characters, '=' only at the end)")
        }
        guard decoded.first == 0x30 else {
            throw ReceiptError(
                offset: 0,
                expected: "base64 of a PKCS#7 receipt, which starts with 'MI' (found '\(Character(Unicode.Scalar(first)))...')")
        }
        return decoded
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    private static func isBase64(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2F || c == 0x3D
    }
}
