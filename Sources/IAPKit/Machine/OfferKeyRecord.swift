import IAPCrypto

/// A subscription offer key the store holds (`iapctl offer-key`): its id and public half, and
/// where it came from. The store verifies signed offers with these.
public struct OfferKeyRecord: Hashable, Sendable, Codable {
    /// Where a key came from.
    public enum Origin: String, Hashable, Sendable, Codable {
        /// The catalog the store was created with (Xcode's `subscriptionOffersKeyPair`, the
        /// project format's `subscriptionOfferKeys`).
        case catalog
        /// `iapctl offer-key add` from the `.p8` private key (only its public half is kept).
        case privateKeyFile
        /// `iapctl offer-key add` from a public key.
        case publicKeyFile
    }

    public let id: String
    /// The P-256 public key, X9.63 uncompressed (65 bytes).
    public let publicKeyX963: [UInt8]
    public let origin: Origin

    public init(id: String, publicKeyX963: [UInt8], origin: Origin) {
        self.id = id
        self.publicKeyX963 = publicKeyX963
        self.origin = origin
    }

    public init(_ key: SubscriptionOfferKey, origin: Origin) {
        self.init(id: key.id, publicKeyX963: key.publicKey.x963Representation, origin: origin)
    }

    /// The key to verify with; nil only for a damaged record.
    public var key: SubscriptionOfferKey? {
        (try? P256.PublicKey(x963Representation: publicKeyX963)).map { SubscriptionOfferKey(id: id, publicKey: $0) }
    }

    /// SHA-256 of the public key's SubjectPublicKeyInfo DER, lowercase hex: what `offer-key list`
    /// prints so a key can be told apart from another with the same id (`openssl pkey -pubout
    /// -outform DER | sha256sum` gives the same).
    public var fingerprint: String {
        guard let key else { return "?" }
        return SHA256.hexDigest(key.publicKey.subjectPublicKeyInfoDER)
    }
}
