/// Deterministic ECDSA nonces (RFC 6979 section 3.2) for P-256 with HMAC-SHA256. The project
/// forbids randomness in IAPKit; this makes signatures reproducible and still never reuses a
/// nonce across different messages or keys.
package struct RFC6979 {
    private var k: HMACSHA256Key
    private var v: [UInt8]
    private var first = true

    init(privateKey x: U256, digest: [UInt8]) {
        let h = P256Scalar(reducing: U256(bigEndian: digest.prefix(32))!).value.bigEndianBytes
        let xBytes = x.bigEndianBytes
        v = [UInt8](repeating: 0x01, count: 32)
        k = HMACSHA256Key([UInt8](repeating: 0x00, count: 32))
        k = HMACSHA256Key(k.authenticate(v, [0x00], xBytes, h))
        v = k.authenticate(v)
        k = HMACSHA256Key(k.authenticate(v, [0x01], xBytes, h))
        v = k.authenticate(v)
    }

    /// The next candidate k in [1, n - 1].
    mutating func next() -> U256 {
        while true {
            if !first {
                k = HMACSHA256Key(k.authenticate(v, [0x00]))
                v = k.authenticate(v)
            }
            first = false
            v = k.authenticate(v)
            let candidate = U256(bigEndian: v)!
            if !candidate.isZero && candidate.lessThan(P256Scalar.n) { return candidate }
        }
    }

    /// A secret, deterministic blinding factor in [1, n - 1] for inverting the nonce: derived from
    /// the generator's state under a separate domain byte, so it never equals a nonce.
    func blindingFactor() -> U256 {
        let value = P256Scalar(reducing: U256(bigEndian: k.authenticate(v, [0x02]))!).value
        return value.isZero ? U256(1, 0, 0, 0) : value
    }
}
