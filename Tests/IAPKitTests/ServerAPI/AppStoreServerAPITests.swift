import Foundation
import IAPKit
import Testing

@Suite("App Store Server API routes")
struct AppStoreServerAPITests {
    @Test("GET /health answers without a token or the store")
    func health() throws {
        let h = try APIHarness()
        let r = h.get("/health", authorization: nil)
        #expect(r.status == .ok)
        #expect(APIHarness.text(r) == #"{"status":"ok"}"#)
    }

    @Test("GET /inApps/v1/transactions/{id}: signedTransactionInfo for purchased and restored transactions")
    func transactionInfo() throws {
        let h = try APIHarness()
        let bought = try h.buy("com.x.noads")[0]
        let restored = try h.apply([.restore(user: nil)]).transactions[0]
        #expect(restored.state == .restored)
        for t in [bought, restored] {
            let r = h.get("/inApps/v1/transactions/\(t.id)")
            #expect(r.status == .ok)
            #expect(r.headers["Content-Type"] == "application/json")
            #expect(APIHarness.text(r) == #"{"signedTransactionInfo":"signed.\#(t.id).com.x.noads"}"#)
        }
    }

    @Test(
        "400 InvalidTransactionIdError for a non-numeric id, 404 TransactionIdNotFoundError for unknown, failed, or another app's"
    )
    func transactionErrors() throws {
        let h = try APIHarness()
        let bought = try h.buy("com.x.coin42")[0]
        try h.apply([.setSetting(key: "payments-allowed", value: "false")])
        let failed = try h.buy("com.x.coin42")[0]
        #expect(failed.state.name == "failed")
        let bad = h.get("/inApps/v1/transactions/12ab")
        #expect(bad.status == .badRequest)
        #expect(
            APIHarness.text(bad)
                == #"{"errorCode":4000006,"errorMessage":"Invalid transaction id. '12ab' is not a decimal transaction identifier such as 2000000000000001."}"#
        )
        let unknown = h.get("/inApps/v1/transactions/2000000000000999")
        #expect(unknown.status == .notFound)
        #expect(
            APIHarness.text(unknown)
                == #"{"errorCode":4040010,"errorMessage":"Transaction id not found. No purchased or restored transaction 2000000000000999 in this store."}"#
        )
        #expect(h.json(h.get("/inApps/v1/transactions/\(failed.id)"))?["errorCode"] == .number("4040010"))
        let foreign = h.get(
            "/inApps/v1/transactions/\(bought.id)", authorization: TestToken.bearer(TestToken.make(bid: "com.other.app")))
        #expect(foreign.status == .notFound)
        #expect(
            APIHarness.text(foreign)
                == #"{"errorCode":4040010,"errorMessage":"Transaction id not found. The token's bid 'com.other.app' is not this store's bundle id 'com.x.demo'."}"#
        )
    }

    @Test("401 with WWW-Authenticate and the reason when the bearer token is missing or not a valid JWT")
    func unauthorized() throws {
        let h = try APIHarness()
        let t = try h.buy("com.x.coin42")[0]
        for path in ["/inApps/v1/transactions/\(t.id)", "/inApps/v2/history/\(t.id)", "/inApps/v1/subscriptions/\(t.id)"] {
            let r = h.get(path, authorization: nil)
            #expect(r.status == .unauthorized, "\(path)")
            #expect(r.headers["WWW-Authenticate"] == #"Bearer realm="App Store Server API""#)
            #expect(h.json(r)?["errorCode"] == .number("4010000"))
            #expect(h.get(path, authorization: "Bearer nope").status == .unauthorized)
        }
    }

    /// Each broken token and the exact reason it is refused.
    static let badTokens: [(name: String, authorization: String?, reason: String)] = [
        (
            "absent", nil,
            "missing Authorization header; send 'Authorization: Bearer <JWT>' signed with your App Store Connect key"
        ),
        ("basic scheme", "Basic dXNlcjpwYXNz", "Authorization is not 'Bearer <JWT>'"),
        ("two parts", "Bearer a.b", "the bearer token is not a JWT: expected three base64url parts separated by '.'"),
        ("empty part", "Bearer a..c", "the bearer token is not a JWT: expected three base64url parts separated by '.'"),
        (
            "padding", "Bearer " + TestToken.make() + "=",
            "a part of the bearer token is not base64url (RFC 7515: A-Z a-z 0-9 - _, no padding)"
        ),
        (
            "header not JSON", "Bearer " + TestToken.base64url("nope") + "." + TestToken.base64url("{}") + ".AAAA",
            "the JWT header is not a JSON object"
        ),
        (
            "alg HS256", TestToken.bearer(TestToken.make(header: #"{"alg":"HS256","kid":"K","typ":"JWT"}"#)),
            "the JWT header's alg is '\"HS256\"'; App Store Server API tokens use ES256"
        ),
        (
            "no typ", TestToken.bearer(TestToken.make(header: #"{"alg":"ES256","kid":"K"}"#)),
            "the JWT header's typ is missing; it must be JWT"
        ),
        (
            "no kid", TestToken.bearer(TestToken.make(header: #"{"alg":"ES256","typ":"JWT"}"#)),
            "the JWT header has no kid; set it to your App Store Connect key id"
        ),
        (
            "no iss", TestToken.bearer(TestToken.make(payload: #"{"iat":1,"exp":2,"aud":"appstoreconnect-v1","bid":"b"}"#)),
            "the JWT payload has no iss; set it to your App Store Connect issuer id"
        ),
        (
            "iat text",
            TestToken.bearer(TestToken.make(payload: #"{"iss":"i","iat":"1","exp":2,"aud":"appstoreconnect-v1","bid":"b"}"#)),
            "the JWT payload's iat is '\"1\"'; give the issue time in seconds since 1970, or leave it out"
        ),
        (
            "no exp", TestToken.bearer(TestToken.make(payload: #"{"iss":"i","iat":1,"aud":"appstoreconnect-v1","bid":"b"}"#)),
            "the JWT payload's exp is missing; give the expiry in seconds since 1970"
        ),
        (
            "wrong aud", TestToken.bearer(TestToken.make(payload: #"{"iss":"i","iat":1,"exp":2,"aud":"x","bid":"b"}"#)),
            "the JWT payload's aud is '\"x\"'; it must be appstoreconnect-v1"
        ),
        (
            "no bid", TestToken.bearer(TestToken.make(payload: #"{"iss":"i","iat":1,"exp":2,"aud":"appstoreconnect-v1"}"#)),
            "the JWT payload has no bid; set it to the app's bundle id"
        ),
        (
            "short signature", TestToken.bearer(TestToken.make(signature: [1, 2, 3])),
            "the JWT signature has 3 bytes; ES256 signatures are 64 (R||S)"
        ),
        (
            "over an hour", TestToken.bearer(TestToken.make(iat: TestToken.now, exp: TestToken.now + 3601)),
            "the JWT's exp must be after iat and at most 60 minutes after it (iat 1767225600, exp 1767229201)"
        ),
        (
            "expired", TestToken.bearer(TestToken.make(iat: TestToken.now - 700, exp: TestToken.now - 100)),
            "the JWT expired at 1767225500 (now 1767225600); sign a new one"
        ),
        (
            "from the future", TestToken.bearer(TestToken.make(iat: TestToken.now + 120, exp: TestToken.now + 600)),
            "the JWT's iat 1767225720 is in the future (now 1767225600); check the clock of the signer"
        ),
    ]

    @Test("the token check names what is wrong", arguments: badTokens.indices)
    func badToken(index: Int) {
        let c = Self.badTokens[index]
        let result = AppStoreConnectTokenVerifier().verify(authorization: c.authorization, now: TestToken.now)
        #expect(result == .failure(BearerTokenError(c.reason)), "\(c.name)")
    }

    struct FixedSignatureCheck: JWTSignatureVerifier {
        let accepts: Bool

        func isValid(signature: [UInt8], signingInput: [UInt8], keyID: String) -> Bool {
            // The signing input is exactly "header.payload" of the token.
            accepts && String(decoding: signingInput, as: UTF8.self).split(separator: ".").count == 2 && keyID == "ABC123DEFG"
        }
    }

    @Test("a well-formed token passes; with a signature verifier installed, its verdict decides")
    func goodToken() {
        let token = TestToken.bearer()
        let claims = BearerTokenClaims(
            keyID: "ABC123DEFG", issuer: "57246542-96fe-1a63-e053-0824d011072a", issuedAt: TestToken.now - 10,
            expiresAt: TestToken.now + 600,
            bundleID: "com.x.demo")
        #expect(AppStoreConnectTokenVerifier().verify(authorization: token, now: TestToken.now) == .success(claims))
        #expect(
            AppStoreConnectTokenVerifier().verify(authorization: "bearer  " + TestToken.make(), now: TestToken.now)
                == .success(claims))
        #expect(
            AppStoreConnectTokenVerifier(signatureVerifier: FixedSignatureCheck(accepts: true)).verify(
                authorization: token, now: TestToken.now) == .success(claims))
        #expect(
            AppStoreConnectTokenVerifier(signatureVerifier: FixedSignatureCheck(accepts: false)).verify(
                authorization: token, now: TestToken.now)
                == .failure(
                    BearerTokenError("the JWT signature does not verify with the API key given to 'iapctl serve --api-key'")))
    }

    @Test("without a signer, requests are still validated (401, 400, 404) and then answered 501")
    func noSigner() throws {
        let h = try APIHarness(signer: nil)
        let t = try h.buy("com.x.vip2")[0]
        #expect(h.get("/inApps/v1/transactions/x").status == .badRequest)
        #expect(h.get("/inApps/v1/transactions/2000000000000999").status == .notFound)
        #expect(h.get("/inApps/v1/transactions/\(t.id)", authorization: nil).status == .unauthorized)
        for path in ["/inApps/v1/transactions/\(t.id)", "/inApps/v2/history/\(t.id)", "/inApps/v1/subscriptions/\(t.id)"] {
            let r = h.get(path)
            #expect(r.status == .notImplemented, "\(path)")
            #expect(
                APIHarness.text(r)
                    == #"{"errorCode":5010000,"errorMessage":"signed transactions are not available: this iapctl has no JWS signer installed"}"#
            )
        }
    }

    @Test("a busy store is Apple's retryable internal error with Retry-After")
    func busyStore() throws {
        let h = try APIHarness()
        let t = try h.buy("com.x.coin42")[0]
        let fd = open(h.store.path + "/lock", O_RDWR)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        let r = h.get("/inApps/v1/transactions/\(t.id)")
        #expect(r.status == .internalServerError)
        #expect(r.headers["Retry-After"] == "1")
        #expect(h.json(r)?["errorCode"] == .number("5000001"))
        flock(fd, LOCK_UN)
        #expect(h.get("/inApps/v1/transactions/\(t.id)").status == .ok)
    }
}
