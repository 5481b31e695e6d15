/// HMAC (RFC 2104) over any `HashFunction`. IAPKit needs HMAC-SHA256 for RFC 6979 deterministic
/// ECDSA nonces, and callers use it for keyed checksums; HMAC-SHA1 is here for old receipt tooling.
public enum HMAC {
    /// HMAC-H of `message` under `key` (any length; keys longer than a block are hashed first).
    public static func authenticate<H: HashFunction, K: Collection, M: Collection>(
        _ hash: H.Type, key: K, message: M
    ) -> [UInt8] where K.Element == UInt8, M.Element == UInt8 {
        var keyBlock = key.count > H.blockByteCount ? H.hash(key) : Array(key)
        keyBlock += [UInt8](repeating: 0, count: H.blockByteCount - keyBlock.count)
        var inner = H()
        inner.update(keyBlock.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = H()
        outer.update(keyBlock.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// HMAC-SHA256 of `message` under `key` (any length; long keys are hashed first).
    public static func sha256<K: Collection, M: Collection>(key: K, message: M) -> [UInt8]
    where K.Element == UInt8, M.Element == UInt8 {
        HMACSHA256Key(key).authenticate(Array(message))
    }

    /// HMAC-SHA1 of `message` under `key`.
    public static func sha1<K: Collection, M: Collection>(key: K, message: M) -> [UInt8]
    where K.Element == UInt8, M.Element == UInt8 {
        authenticate(SHA1.self, key: key, message: message)
    }
}
