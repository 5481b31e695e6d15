import IAPCrypto

/// The ES256 check of App Store Server API bearer tokens for `iapctl serve --api-key FILE`: the
/// token's signature (raw R||S over `header.payload`, RFC 7518 section 3.4) must verify with the
/// P-256 key of the caller's App Store Connect in-app purchase key ("Generating JSON Web Tokens
/// for API requests": tokens are signed with the private key, `.p8`, that App Store Connect lets
/// you download once).
///
/// The file is a public key (`-----BEGIN PUBLIC KEY-----`, `openssl pkey -pubout`) or the
/// private key itself (the `.p8`, PKCS#8, or a SEC1 `EC PRIVATE KEY`), of which only the public
/// half is kept.
///
/// The key is registered under its key id, the `kid` Apple's tokens carry: App Store Connect
/// names the download `AuthKey_<KEYID>.p8`, so `keyID(fromFileName:)` reads it from there, and
/// `iapctl serve --api-key-id KID` gives it for a file named otherwise. A token whose `kid` is
/// another key's is refused before its signature is checked, as Apple refuses a revoked or
/// unknown key. With no key id (nil) the one key is trusted whatever the `kid`.
public struct APIKeySignatureVerifier: JWTSignatureVerifier {
    public let publicKey: P256.PublicKey
    /// The key id tokens must name in `kid`; nil accepts any.
    public let keyID: String?

    public init(publicKey: P256.PublicKey, keyID: String? = nil) {
        self.publicKey = publicKey
        self.keyID = keyID
    }

    public var keyIDs: [String] { keyID.map { [$0] } ?? [] }

    /// The key id in App Store Connect's file name `AuthKey_<KEYID>.p8` (any directory), or nil.
    public static func keyID(fromFileName path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8") else { return nil }
        let id = name.dropFirst("AuthKey_".count).dropLast(".p8".count)
        guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        return String(id)
    }

    /// Reads the key from PEM text; `name` (the file) is quoted in the error.
    public init(pem text: String, name: String, keyID: String? = nil) throws(StoreError) {
        self.keyID = keyID
        if let key = try? P256.PublicKey(pemRepresentation: text) {
            publicKey = key
        } else if let key = try? P256.PrivateKey(pemRepresentation: text) {
            publicKey = key.publicKey
        } else {
            throw .badInput(.notAnAPIKey(file: name))
        }
    }

    public func isValid(signature: [UInt8], signingInput: [UInt8], keyID: String) -> Bool {
        publicKey.isValidSignature(raw: signature, for: signingInput)
    }
}
