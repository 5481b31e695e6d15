/// A certificate's or receipt's signature algorithm: the scheme and the digest an OID names.
/// Apple's chains use all of these: ecdsa-with-SHA384 (Root CA - G3 -> WWDR G6 -> App Store leaf),
/// ecdsa-with-SHA256 (Apple's test chains, the store's own chain), sha256WithRSAEncryption (Apple
/// Inc. Root -> WWDR G5 -> receipt signer) and sha1WithRSAEncryption (the 2013 WWDR and older
/// receipt signers).
public enum SignatureAlgorithm: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// ECDSA (X9.62 / RFC 5758), the signature a DER `SEQUENCE { r, s }`.
    case ecdsa(DigestAlgorithm)
    /// RSASSA-PKCS1-v1_5 (RFC 8017 section 8.2).
    case rsaPKCS1(DigestAlgorithm)

    /// The algorithm an AlgorithmIdentifier OID names, or nil for one iapctl cannot check.
    public init?(oid: OID) {
        switch oid {
        case .ecdsaWithSHA256: self = .ecdsa(.sha256)
        case .ecdsaWithSHA384: self = .ecdsa(.sha384)
        case .ecdsaWithSHA512: self = .ecdsa(.sha512)
        case .sha1WithRSAEncryption: self = .rsaPKCS1(.sha1)
        case .sha256WithRSAEncryption: self = .rsaPKCS1(.sha256)
        case .sha384WithRSAEncryption: self = .rsaPKCS1(.sha384)
        case .sha512WithRSAEncryption: self = .rsaPKCS1(.sha512)
        default: return nil
        }
    }

    public var oid: OID {
        switch self {
        case .ecdsa(.sha1): return OID(validated: [1, 2, 840, 10045, 4, 1])
        case .ecdsa(.sha256): return .ecdsaWithSHA256
        case .ecdsa(.sha384): return .ecdsaWithSHA384
        case .ecdsa(.sha512): return .ecdsaWithSHA512
        case .rsaPKCS1(.sha1): return .sha1WithRSAEncryption
        case .rsaPKCS1(.sha256): return .sha256WithRSAEncryption
        case .rsaPKCS1(.sha384): return .sha384WithRSAEncryption
        case .rsaPKCS1(.sha512): return .sha512WithRSAEncryption
        }
    }

    public var digest: DigestAlgorithm {
        switch self {
        case .ecdsa(let d), .rsaPKCS1(let d): return d
        }
    }

    /// openssl's name, e.g. `ecdsa-with-SHA384`, `sha256WithRSAEncryption`.
    public var description: String { Self.name(oid) }

    /// A readable name for a signature, digest or key algorithm OID (the dotted OID when unknown).
    public static func name(_ oid: OID) -> String {
        switch oid {
        case OID(validated: [1, 2, 840, 10045, 4, 1]): return "ecdsa-with-SHA1"
        case .ecdsaWithSHA256: return "ecdsa-with-SHA256"
        case .ecdsaWithSHA384: return "ecdsa-with-SHA384"
        case .ecdsaWithSHA512: return "ecdsa-with-SHA512"
        case .sha1WithRSAEncryption: return "sha1WithRSAEncryption"
        case .sha256WithRSAEncryption: return "sha256WithRSAEncryption"
        case .sha384WithRSAEncryption: return "sha384WithRSAEncryption"
        case .sha512WithRSAEncryption: return "sha512WithRSAEncryption"
        case .rsaEncryption: return "rsaEncryption"
        case .ecPublicKey: return "id-ecPublicKey"
        case .sha1: return "sha1"
        case .sha256: return "sha256"
        case .sha384: return "sha384"
        case .sha512: return "sha512"
        default: return oid.description
        }
    }
}
