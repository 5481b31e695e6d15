import Foundation
import Testing

@testable import IAPJSON

/// How `iapctl serve` authenticates App Store Server API requests, seen with curl: the token as
/// Apple's client library makes it (PyJWT, no `iat`) passes; a `kid` that is not the registered
/// key's, a token from another key and an expired one get 401 with Apple's error body shape.
@Suite("iapctl serve bearer-token authentication, with curl", .serialized)
struct ServeAuthTests {
    /// A token made by PyJWT as app-store-server-library's `_generate_token` does (no `iat`).
    static func token(key: String, kid: String = "ABC123DEFG", exp: String = "now + 300") -> String {
        let sign = """
            import jwt, sys, time
            now = int(time.time())
            print(jwt.encode({'bid': 'com.x.demo', 'iss': '57246542-96fe-1a63-e053-0824d011072a',
                              'aud': 'appstoreconnect-v1', 'exp': \(exp)}, open(sys.argv[1]).read(), algorithm='ES256',
                             headers={'kid': sys.argv[2]}))
            """
        return BoundedRun.python(sign, [key, kid]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the library's token passes; another kid, another key or an expired token is 401 with errorCode and errorMessage")
    func refusals() throws {
        let h = CLIHarness()
        #expect(h.run(["buy", "com.x.coin42"]).code == 0)
        for name in ["AuthKey_ABC123DEFG.p8", "other.p8"] {
            let key = try ExternalTool.run(
                "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", name], in: h.directory)
            #expect(key.code == 0, "\(key)")
        }
        let server = try ServerProcess(store: h.store, ["--api-key", h.path("AuthKey_ABC123DEFG.p8")])
        let path = "/inApps/v1/transactions/2000000000000001"
        let good = Self.token(key: h.path("AuthKey_ABC123DEFG.p8"))
        let (ok, okStatus) = try SignedServeTests.body(SignedServeTests.get(server, path, token: good))
        #expect(okStatus == "200" && ok["signedTransactionInfo"] != nil, "\(ok)")

        let refused: [(String, String)] = [
            (
                Self.token(key: h.path("AuthKey_ABC123DEFG.p8"), kid: "OTHERKEY99"),
                "the JWT header's kid 'OTHERKEY99' is not a key this server knows (ABC123DEFG); sign with that key or register yours with 'iapctl serve --api-key FILE --api-key-id KID'"
            ),
            (
                Self.token(key: h.path("other.p8")),
                "the JWT signature does not verify with the API key given to 'iapctl serve --api-key'"
            ),
        ]
        for (token, message) in refused {
            let (body, status) = try SignedServeTests.body(SignedServeTests.get(server, path, token: token))
            #expect(status == "401")
            #expect(body["errorCode"] == .number("4010000"))
            #expect(body["errorMessage"] == .string(message))
        }
        let expired = Self.token(key: h.path("AuthKey_ABC123DEFG.p8"), exp: "now - 5")
        let (body, status) = try SignedServeTests.body(SignedServeTests.get(server, path, token: expired))
        #expect(status == "401")
        #expect(body["errorMessage"]?.stringValue?.hasPrefix("the JWT expired at ") == true, "\(body)")
        #expect(server.stop() == 0)

        // A key file named otherwise is registered under --api-key-id.
        let named = try ServerProcess(store: h.store, ["--api-key", h.path("other.p8"), "--api-key-id", "2X9R4HXF34"])
        let (named200, namedStatus) = try SignedServeTests.body(
            SignedServeTests.get(named, path, token: Self.token(key: h.path("other.p8"), kid: "2X9R4HXF34")))
        #expect(namedStatus == "200" && named200["signedTransactionInfo"] != nil)
        let (_, wrongKid) = try SignedServeTests.body(
            SignedServeTests.get(named, path, token: Self.token(key: h.path("other.p8"))))
        #expect(wrongKid == "401")
        #expect(named.stop() == 0)

        let lone = h.run(["serve", "--port", "0", "--api-key-id", "2X9R4HXF34"])
        #expect(lone.code == 64)
        #expect(lone.stderr.contains("--api-key-id needs --api-key FILE"), "\(lone.stderr)")
    }
}
