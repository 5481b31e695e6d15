import IAPCrypto

/// The ES256 check of App Store Server API bearer tokens for `iapctl serve --api-key FILE`: the
/// token's signature (raw R||S over `header.payload`, RFC 7518 section 3.4) must verify with the
/// P-256 key of the caller's App Store Connect in-app purchase key ("Generating JSON Web Tokens
/// for API requests": tokens are signed with the private key, `.p8`, that App Store Connect lets
/// you download once).
///
/// The file is a public key (`-----BEGIN PUBLIC KEY-----`, `openssl pkey -pubout`) or the
/// private key itself (the `.p8`, PKCS#8, or a SEC1 `EC PRIVATE KEY`), of which only the public
/// half is kept. One key is trusted whatever the token's `kid`.
public struct APIKeySignatureVerifier: JWTSignatureVerifier {
    public let publicKey: P256.PublicKey

    public init(publicKey: P256.PublicKey) { self.publicKey = publicKey }

    /// Reads the key from PEM text; `name` (the file) is quoted in the error.
    public init(pem text: String, name: String) throws(StoreError) {
        if let key = try? P256.PublicKey(pemRepresentation: text) {
            publicKey = key
        } else if let key = try? P256.PrivateKey(pemRepresentation: text) {
            publicKey = key.publicKey
        } else {
            throw .badData(
                "\(name): not a P-256 key in PEM; give the App Store Connect key (.p8, 'BEGIN PRIVATE KEY') or its public half ('BEGIN PUBLIC KEY')"
            )
        }
    }

    public func isValid(signature: [UInt8], signingInput: [UInt8], keyID: String) -> Bool {
        publicKey.isValidSignature(raw: signature, for: signingInput)
    }
}
