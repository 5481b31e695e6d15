/// Base64url without padding (RFC 4648 section 5, RFC 7515 section 2): the encoding of the three
/// parts of a compact JWS such as a StoreKit 2 signed transaction.
///
/// Decoding is strict: no whitespace, no `=`, no `+` or `/`, no non-zero trailing bits, since a JWS
/// with two spellings of the same bytes would let a signature be replayed under another string.
public enum Base64URL {
    /// Encodes with the URL-safe alphabet and no padding.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        Base64.encode(Array(bytes), alphabet: Base64.urlAlphabet, pad: false)
    }

    /// Decodes unpadded base64url; nil on any malformation.
    public static func decode(_ text: String) -> [UInt8]? {
        Base64.decode(Array(text.utf8), url: true)
    }
}
