import IAPCrypto

/// An app's subscription offer key: the App Store Connect in-app purchase key (a P-256 key
/// downloaded once as a `.p8` file) with which its server signs promotional offers and
/// introductory-offer eligibility, named by its key identifier ("keyIdentifier: A string that
/// identifies the private key you use to generate the signature", StoreKit, "Generating a
/// signature for promotional offers"; the JWS header's `kid`).
///
/// The store keeps only the public half: verifying needs nothing more, and a store directory is
/// not a place for a private key. Xcode's `.storekit` `subscriptionOffersKeyPair` holds the
/// private key as base64 PKCS#8 DER without PEM armor; `iapctl offer-key add` takes the `.p8`
/// (`BEGIN PRIVATE KEY`), a SEC1 `BEGIN EC PRIVATE KEY`, or the public half (`BEGIN PUBLIC KEY`).
public struct SubscriptionOfferKey: Sendable, Equatable {
    /// The key identifier (`keyIdentifier`, `kid`): printable ASCII without spaces.
    public let id: String
    public let publicKey: P256.PublicKey

    public init(id: String, publicKey: P256.PublicKey) {
        self.id = id
        self.publicKey = publicKey
    }

    /// Whether `id` can name a key: 1 to 64 printable ASCII characters, no spaces (App Store
    /// Connect's key ids are ten uppercase letters and digits; Xcode's are eight hex digits).
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// What kind of key text was read.
    public enum Source: String, Sendable, Equatable {
        case privateKey, publicKey
    }

    /// Reads a key from PEM text (`name`, the file, is quoted in the error): the `.p8`
    /// (`PRIVATE KEY`), `EC PRIVATE KEY`, or `PUBLIC KEY`.
    public static func read(pem text: String, id: String, name: String) throws(OfferKeyError) -> (
        key: SubscriptionOfferKey, source: Source
    ) {
        guard isValidID(id) else { throw .badID(id) }
        if let key = try? P256.PrivateKey(pemRepresentation: text) {
            return (SubscriptionOfferKey(id: id, publicKey: key.publicKey), .privateKey)
        }
        if let key = try? P256.PublicKey(pemRepresentation: text) {
            return (SubscriptionOfferKey(id: id, publicKey: key), .publicKey)
        }
        throw .notAKey(name)
    }

    /// Reads Xcode's `subscriptionOffersKeyPair.privateKey`: base64 of the PKCS#8 DER (what the
    /// `.p8` holds between its armor lines).
    public static func read(xcodePrivateKey base64: String, id: String) throws(OfferKeyError) -> SubscriptionOfferKey {
        guard isValidID(id) else { throw .badID(id) }
        let compact = String(base64.unicodeScalars.filter { !$0.properties.isWhitespace })
        guard let der = Base64.decode(compact), let key = try? P256.PrivateKey(pkcs8DER: der) else {
            throw .notAKey("subscriptionOffersKeyPair.privateKey")
        }
        return SubscriptionOfferKey(id: id, publicKey: key.publicKey)
    }
}

/// Why a subscription offer key could not be read.
public enum OfferKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    case badID(String)
    case notAKey(String)

    public var description: String {
        switch self {
        case .badID(let id):
            return
                "'\(id)' is not a key id; give the key's identifier from App Store Connect (1 to 64 printable characters, no spaces)"
        case .notAKey(let name):
            return
                "\(name): not a P-256 key; give the App Store Connect in-app purchase key (.p8, 'BEGIN PRIVATE KEY') or its public half ('BEGIN PUBLIC KEY')"
        }
    }
}
