import IAPCrypto
import Testing

@testable import IAPKit

/// The bearer token exactly as Apple's app-store-server-library builds it (`_generate_token`:
/// header `alg`, `typ`, `kid`; payload `bid`, `iss`, `aud`, `exp` five minutes ahead, no `iat`),
/// signed ES256 with a real P-256 key, against the verifier `iapctl serve --api-key` installs.
@Suite("Bearer tokens as Apple's client libraries make them")
struct AppleTokenShapeTests {
    static let key = try! P256.PrivateKey(rawRepresentation: Array(repeating: 0x42, count: 32))

    /// A token signed with `key` (raw R||S over `header.payload`, RFC 7518 section 3.4).
    static func signed(kid: String = "ABC123DEFG", payload: String) -> String {
        let input = TestToken.base64url(#"{"alg":"ES256","typ":"JWT","kid":"\#(kid)"}"#) + "." + TestToken.base64url(payload)
        return input + "." + TestToken.base64url(key.signature(for: Array(input.utf8)).rawRepresentation)
    }

    static func library(exp: Int64 = TestToken.now + 300, bid: String = "com.x.demo") -> String {
        #"{"bid":"\#(bid)","iss":"57246542-96fe-1a63-e053-0824d011072a","aud":"appstoreconnect-v1","exp":\#(exp)}"#
    }

    static let verifier = AppStoreConnectTokenVerifier(
        signatureVerifier: APIKeySignatureVerifier(publicKey: key.publicKey, keyID: "ABC123DEFG"))

    @Test("the library's token (no iat) is accepted, and its claims read")
    func libraryToken() {
        let result = Self.verifier.verify(authorization: "Bearer " + Self.signed(payload: Self.library()), now: TestToken.now)
        #expect(
            result
                == .success(
                    BearerTokenClaims(
                        keyID: "ABC123DEFG", issuer: "57246542-96fe-1a63-e053-0824d011072a", issuedAt: nil,
                        expiresAt: TestToken.now + 300, bundleID: "com.x.demo")))
    }

    @Test("refusals: another key's kid, a bad signature, expired, more than 60 minutes ahead without iat")
    func refusals() {
        let cases: [(String, String)] = [
            (
                Self.signed(kid: "OTHERKEY99", payload: Self.library()),
                "the JWT header's kid 'OTHERKEY99' is not a key this server knows (ABC123DEFG); sign with that key or register yours with 'iapctl serve --api-key FILE --api-key-id KID'"
            ),
            (
                String(Self.signed(payload: Self.library()).dropLast(4)) + "AAAA",
                "the JWT signature does not verify with the API key given to 'iapctl serve --api-key'"
            ),
            (
                Self.signed(payload: Self.library(exp: TestToken.now - 1)),
                "the JWT expired at 1767225599 (now 1767225600); sign a new one"
            ),
            (
                Self.signed(payload: Self.library(exp: TestToken.now + 3700)),
                "the JWT's exp 1767229300 is more than 60 minutes ahead (now 1767225600); Apple accepts at most 60 minutes"
            ),
        ]
        for (token, reason) in cases {
            #expect(
                Self.verifier.verify(authorization: "Bearer " + token, now: TestToken.now) == .failure(BearerTokenError(reason)))
        }
    }

    @Test("a key registered without a key id trusts any kid; App Store Connect's file name gives the id")
    func keyIDs() {
        let any = AppStoreConnectTokenVerifier(signatureVerifier: APIKeySignatureVerifier(publicKey: Self.key.publicKey))
        let token = Self.signed(kid: "WHATEVER01", payload: Self.library())
        #expect((try? any.verify(authorization: "Bearer " + token, now: TestToken.now).get())?.keyID == "WHATEVER01")
        #expect(APIKeySignatureVerifier.keyID(fromFileName: "/keys/AuthKey_2X9R4HXF34.p8") == "2X9R4HXF34")
        #expect(APIKeySignatureVerifier.keyID(fromFileName: "AuthKey_ABC123DEFG.p8") == "ABC123DEFG")
        #expect(APIKeySignatureVerifier.keyID(fromFileName: "key.p8") == nil)
        #expect(APIKeySignatureVerifier.keyID(fromFileName: "AuthKey_.p8") == nil)
        #expect(APIKeySignatureVerifier.keyID(fromFileName: "AuthKey_AB-C.p8") == nil)
    }
}
