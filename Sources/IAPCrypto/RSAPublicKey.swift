/// An RSA public key and PKCS#1 v1.5 signature verification (RFC 8017 section 8.2.2). Receipts
/// signed by Xcode's StoreKit test certificate and Apple's older chains use
/// sha256WithRSAEncryption or sha1WithRSAEncryption (and sha384/sha512 ones exist), so the verifier
/// has to check them; IAPKit never signs with RSA.
public struct RSAPublicKey: Sendable, Equatable {
    /// The digest inside the signature's DigestInfo.
    public typealias HashAlgorithm = DigestAlgorithm

    /// Big-endian modulus without leading zeros.
    public let modulus: [UInt8]
    /// Big-endian public exponent without leading zeros.
    public let exponent: [UInt8]

    /// The modulus size in bits (2048 for Apple's and Xcode's certificates).
    public var bitCount: Int { BigUInt(bigEndian: modulus).bitWidth }

    /// Validates an odd modulus of 512 to 16384 bits and an odd exponent from 3 up, smaller
    /// than the modulus; anything else cannot be a real RSA key.
    public init(modulus: [UInt8], exponent: [UInt8]) throws(ASN1Error) {
        let n = BigUInt(bigEndian: modulus)
        let e = BigUInt(bigEndian: exponent)
        guard n.bitWidth >= 512, n.bitWidth <= 16384, n.limbs[0] & 1 == 1 else {
            throw ASN1Error(offset: 0, expected: "an odd RSA modulus of 512 to 16384 bits")
        }
        guard e.limbs.first.map({ $0 & 1 == 1 }) == true, e.bitWidth >= 2, e < n else {
            throw ASN1Error(offset: 0, expected: "an odd RSA exponent of at least 3, below the modulus")
        }
        self.modulus = Array(modulus.drop { $0 == 0 })
        self.exponent = Array(exponent.drop { $0 == 0 })
    }

    /// From PKCS#1 `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`.
    public init(pkcs1DER bytes: [UInt8]) throws(ASN1Error) {
        let sequence = try ASN1Element(der: bytes).expect(.sequence, "an RSAPublicKey SEQUENCE")
        guard sequence.children.count == 2 else {
            throw ASN1Error(offset: sequence.contentOffset, expected: "exactly two INTEGERs, modulus and exponent")
        }
        let modulus = try sequence.children[0].unsignedIntegerBytes()
        let exponent = try sequence.children[1].unsignedIntegerBytes()
        do {
            try self.init(modulus: modulus, exponent: exponent)
        } catch {
            throw ASN1Error(offset: sequence.children[0].offset, expected: error.expected)
        }
    }

    /// PKCS#1 `RSAPublicKey` DER.
    public var pkcs1DER: [UInt8] {
        DER.sequence([DER.integer(bigEndian: modulus), DER.integer(bigEndian: exponent)])
    }

    /// Whether `signature` is a PKCS#1 v1.5 signature of `message` hashed with `hash`.
    public func isValidSignature<M: Collection>(_ signature: [UInt8], for message: M, hash: HashAlgorithm) -> Bool
    where M.Element == UInt8 {
        isValidSignature(signature, forDigest: hash.hash(Array(message)), hash: hash)
    }

    /// Whether `signature` is a PKCS#1 v1.5 signature over an already computed digest. The
    /// whole encoded message is rebuilt and compared, so no parsing of attacker bytes happens
    /// (the Bleichenbacher-style forgeries against lenient parsers do not apply).
    public func isValidSignature(_ signature: [UInt8], forDigest digest: [UInt8], hash: HashAlgorithm) -> Bool {
        let k = modulus.count
        guard signature.count == k else { return false }
        let n = BigUInt(bigEndian: modulus)
        let s = BigUInt(bigEndian: signature)
        guard s < n else { return false }
        let m = s.power(BigUInt(bigEndian: exponent), modulus: n).bigEndianBytes(count: k)
        let t = hash.digestInfoPrefix + digest
        guard k >= t.count + 11 else { return false }
        let expected = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: k - t.count - 3) + [0x00] + t
        return m == expected
    }
}
