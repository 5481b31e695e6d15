/// A cryptographic hash, in the shape of swift-crypto's `HashFunction`: make one, `update` it any
/// number of times, `finalize` once; or `hash` a whole message at once. SHA-1, SHA-256, SHA-384
/// and SHA-512 conform, so signature code picks a digest by type (`DigestAlgorithm` picks it by
/// OID) instead of switching over hand-written cases.
public protocol HashFunction: Sendable {
    /// The digest length in bytes.
    static var byteCount: Int { get }
    /// The block length in bytes (HMAC pads keys to this).
    static var blockByteCount: Int { get }

    init()

    /// Feeds more message bytes; may be called any number of times before `finalize()`.
    mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8

    /// Pads the message and returns the digest. The hasher must not be used afterwards.
    mutating func finalize() -> [UInt8]
}

extension HashFunction {
    /// The digest of `bytes`.
    public static func hash<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest as lowercase hex, two characters a byte.
    public static func hexDigest<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        Hex.encode(hash(bytes))
    }
}
