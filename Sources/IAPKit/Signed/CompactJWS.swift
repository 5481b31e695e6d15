import IAPCrypto
import IAPJSON
import IAPTime

/// A JSON Web Signature in compact serialization (RFC 7515 section 7.1): three base64url parts,
/// `header.payload.signature`, the form of every piece of StoreKit 2 signed data
/// (`JWSTransaction`, `JWSRenewalInfo`, the notification `signedPayload`).
///
/// Apple: "The `JWSTransaction` type is a string of three Base64URL-encoded components separated
/// by a period ... a header, a payload, and a signature, in that order" (App Store Server API,
/// JWSTransaction). Parsing is strict (RFC 7515 base64url, no padding, no whitespace inside) and
/// checks only the shape; `JWSVerifier` checks what the header claims.
public struct CompactJWS: Sendable, Equatable {
    /// The decoded JOSE header, a JSON object.
    public let header: JSONValue
    /// The decoded payload bytes and their JSON value (an object for Apple's signed data).
    public let payloadBytes: [UInt8]
    public let payload: JSONValue
    /// The raw signature bytes (64 bytes R||S for ES256).
    public let signature: [UInt8]
    /// The ASCII bytes the signature covers: `base64url(header) + "." + base64url(payload)`.
    public let signingInput: [UInt8]

    /// Parses a compact JWS; surrounding whitespace (a trailing newline in a file) is ignored.
    public init(parsing text: String) throws(JWSError) {
        let trimmed = Self.trimmed(text)
        guard !trimmed.isEmpty else { throw .empty }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .notCompact(parts: parts.count) }
        let names = ["header", "payload", "signature"]
        var decoded: [[UInt8]] = []
        for (index, part) in parts.enumerated() {
            guard !part.isEmpty || index == 1 else { throw .emptyPart(names[index]) }
            guard let bytes = Base64URL.decode(String(part)) else { throw .notBase64URL(names[index]) }
            decoded.append(bytes)
        }
        let header: JSONValue
        do {
            header = try JSONParser.parse(decoded[0])
        } catch {
            throw .notJSON("header", "\(error)")
        }
        guard header.objectValue != nil else { throw .notObject("header", header.kindName) }
        let payload: JSONValue
        do {
            payload = try JSONParser.parse(decoded[1])
        } catch {
            throw .notJSON("payload", "\(error)")
        }
        guard payload.objectValue != nil else { throw .notObject("payload", payload.kindName) }
        self.header = header
        self.payloadBytes = decoded[1]
        self.payload = payload
        self.signature = decoded[2]
        self.signingInput = Array(trimmed.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    }

    /// The header's `alg`, if it is a string.
    public var algorithm: String? { header["alg"]?.stringValue }

    /// The header's `x5c` entries (standard base64 DER, RFC 7515 section 4.1.6), or nil when the
    /// header has none or it is not an array of strings.
    public var certificateChainBase64: [String]? {
        guard let items = header["x5c"]?.arrayValue else { return nil }
        var out: [String] = []
        for item in items {
            guard let s = item.stringValue else { return nil }
            out.append(s)
        }
        return out
    }

    /// The signing date Apple's verifier checks certificates at: the payload's `signedDate`
    /// (or an app transaction's `receiptCreationDate`), milliseconds since 1970. Xcode writes
    /// fractional milliseconds (`1697679936056.485`); the fraction is dropped.
    public var signedDate: Timestamp? { signingDate?.date }

    /// The signing date and the member that holds it (`signedDate` or `receiptCreationDate`).
    public var signingDate: (date: Timestamp, field: String)? {
        for key in ["signedDate", "receiptCreationDate"] {
            if case .number(let text)? = payload[key], let ms = Self.milliseconds(text) {
                return (Timestamp(milliseconds: ms), key)
            }
        }
        return nil
    }

    /// The integer part of a JSON number, if it fits in 64 bits.
    static func milliseconds(_ text: String) -> Int64? {
        if let whole = Int64(text) { return whole }
        let integerPart = text.prefix { $0 != "." && $0 != "e" && $0 != "E" }
        if integerPart.count == text.count { return nil }
        if let whole = Int64(integerPart), !text.contains("e"), !text.contains("E") { return whole }
        guard let value = Double(text), value.isFinite, abs(value) < 9.2e18 else { return nil }
        return Int64(value.rounded(.towardZero))
    }

    private static func trimmed(_ text: String) -> Substring {
        var s = Substring(text)
        while let first = s.first, first.isWhitespace { s = s.dropFirst() }
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return s
    }
}
