/// A signed offer's nonce: "A one-time UUID value that your server generates. Generate a new
/// nonce for every signature. The string representation of the nonce you use in the signature
/// must be lowercase" (StoreKit, "Generating a signature for promotional offers").
///
/// Kept as the lowercase 8-4-4-4-12 hex form: StoreKit passes a `UUID`, whose value does not
/// depend on case, and signs its lowercase text, so `--nonce` is accepted in either case and
/// compared (for single use) in lowercase.
public struct OfferNonce: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let lowercased: String

    /// Parses a UUID in its 36-character text form, in either case.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (i, b) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard b == UInt8(ascii: "-") else { return nil }
            } else {
                let isHex =
                    (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"))
                    || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "F"))
                guard isHex else { return nil }
            }
        }
        lowercased = text.lowercased()
    }

    public var description: String { lowercased }

    public static func < (a: OfferNonce, b: OfferNonce) -> Bool { a.lowercased < b.lowercased }
}
