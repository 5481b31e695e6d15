/// The digests certificates, receipts and JWS name by OID: SHA-1 (old Apple receipts and their
/// certificates), SHA-256 (receipts since 2016, ES256), SHA-384 (Apple Root CA - G3 and WWDR G6)
/// and SHA-512. Each maps to its `HashFunction`.
public enum DigestAlgorithm: Sendable, Equatable, Hashable, CaseIterable, CustomStringConvertible {
    case sha1
    case sha256
    case sha384
    case sha512

    /// The algorithm an AlgorithmIdentifier OID names (id-sha1, id-sha256, id-sha384, id-sha512).
    public init?(oid: OID) {
        switch oid {
        case .sha1: self = .sha1
        case .sha256: self = .sha256
        case .sha384: self = .sha384
        case .sha512: self = .sha512
        default: return nil
        }
    }

    public var oid: OID {
        switch self {
        case .sha1: return .sha1
        case .sha256: return .sha256
        case .sha384: return .sha384
        case .sha512: return .sha512
        }
    }

    /// The digest length in bytes.
    public var byteCount: Int { hashFunction.byteCount }

    /// The `HashFunction` that computes it.
    public var hashFunction: any HashFunction.Type {
        switch self {
        case .sha1: return SHA1.self
        case .sha256: return SHA256.self
        case .sha384: return SHA384.self
        case .sha512: return SHA512.self
        }
    }

    /// The digest of `message`.
    public func hash<C: Collection>(_ message: C) -> [UInt8] where C.Element == UInt8 {
        switch self {
        case .sha1: return SHA1.hash(message)
        case .sha256: return SHA256.hash(message)
        case .sha384: return SHA384.hash(message)
        case .sha512: return SHA512.hash(message)
        }
    }

    /// openssl's name: `sha1`, `sha256`, `sha384`, `sha512`.
    public var description: String {
        switch self {
        case .sha1: return "sha1"
        case .sha256: return "sha256"
        case .sha384: return "sha384"
        case .sha512: return "sha512"
        }
    }

    /// DER of `DigestInfo { AlgorithmIdentifier { oid, NULL }, OCTET STRING }` up to the digest
    /// itself (RFC 8017 section 9.2, note 1), what an RSA PKCS#1 v1.5 signature block ends with.
    var digestInfoPrefix: [UInt8] {
        let oidBytes = oid.derContent
        let algorithm = [0x06, UInt8(oidBytes.count)] + oidBytes + [0x05, 0x00]
        let inner = [0x30, UInt8(algorithm.count)] + algorithm
        let total = inner.count + 2 + byteCount
        return [0x30, UInt8(total)] + inner + [0x04, UInt8(byteCount)]
    }
}
