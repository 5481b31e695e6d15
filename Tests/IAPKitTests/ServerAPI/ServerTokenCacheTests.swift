import IAPKit
import Synchronization
import Testing

/// The cache of verified bearer tokens (`VerifiedTokenCache`): a token's signature is verified
/// once, its clock checks run on every request, a refused signature is never remembered, and
/// the table is bounded with first-in-first-out eviction.
@Suite struct ServerTokenCacheTests {
    /// A signature check that accepts or refuses, and counts how often it was asked.
    final class CountingSignatureCheck: JWTSignatureVerifier {
        let accepts: Bool
        private let asked = Mutex(0)

        init(accepts: Bool) { self.accepts = accepts }

        var calls: Int { asked.withLock { $0 } }

        func isValid(signature: [UInt8], signingInput: [UInt8], keyID: String) -> Bool {
            asked.withLock { $0 += 1 }
            return accepts
        }
    }

    static let claims = BearerTokenClaims(
        keyID: "ABC123DEFG", issuer: "57246542-96fe-1a63-e053-0824d011072a", issuedAt: TestToken.now - 10,
        expiresAt: TestToken.now + 600, bundleID: "com.x.demo")

    @Test("a token's signature is verified once; later requests reuse the verdict")
    func verifiedOnce() {
        let check = CountingSignatureCheck(accepts: true)
        let cache = VerifiedTokenCache(capacity: 4)
        let verifier = AppStoreConnectTokenVerifier(signatureVerifier: check, cache: cache)
        let token = TestToken.make()
        for _ in 0..<3 {
            #expect(verifier.verify(authorization: TestToken.bearer(token), now: TestToken.now) == .success(Self.claims))
        }
        #expect(check.calls == 1)
        #expect(cache.contains(token))
        #expect(cache.count == 1)
    }

    @Test("a cached token still expires: exp is checked against the clock on every request")
    func stillExpires() {
        let check = CountingSignatureCheck(accepts: true)
        let verifier = AppStoreConnectTokenVerifier(signatureVerifier: check, cache: VerifiedTokenCache(capacity: 4))
        let token = TestToken.bearer()
        #expect(verifier.verify(authorization: token, now: TestToken.now) == .success(Self.claims))
        #expect(
            verifier.verify(authorization: token, now: TestToken.now + 600)
                == .failure(BearerTokenError("the JWT expired at 1767226200 (now 1767226200); sign a new one")))
        #expect(check.calls == 1)
    }

    @Test("a token whose signature was refused is never cached, and is checked again each time")
    func refusedNotCached() {
        let check = CountingSignatureCheck(accepts: false)
        let cache = VerifiedTokenCache(capacity: 4)
        let verifier = AppStoreConnectTokenVerifier(signatureVerifier: check, cache: cache)
        let token = TestToken.make()
        for _ in 0..<2 {
            #expect(
                verifier.verify(authorization: TestToken.bearer(token), now: TestToken.now)
                    == .failure(
                        BearerTokenError("the JWT signature does not verify with the API key given to 'iapctl serve --api-key'")))
        }
        #expect(check.calls == 2)
        #expect(cache.count == 0)
    }

    @Test("the key is the exact token: a different signature byte is verified afresh")
    func exactBytes() {
        let check = CountingSignatureCheck(accepts: true)
        let verifier = AppStoreConnectTokenVerifier(signatureVerifier: check, cache: VerifiedTokenCache(capacity: 4))
        var other = [UInt8](repeating: 0, count: 64)
        other[63] = 1
        #expect(verifier.verify(authorization: TestToken.bearer(), now: TestToken.now) == .success(Self.claims))
        #expect(
            verifier.verify(authorization: TestToken.bearer(TestToken.make(signature: other)), now: TestToken.now)
                == .success(Self.claims))
        #expect(check.calls == 2)
    }

    @Test("without a signature verifier nothing is cached (there is no signature check to skip)")
    func noVerifierNoCache() {
        #expect(AppStoreConnectTokenVerifier().cache == nil)
    }

    @Test("bounded: when full, the oldest insertion is evicted first")
    func evictsOldestFirst() {
        let check = CountingSignatureCheck(accepts: true)
        let cache = VerifiedTokenCache(capacity: 2)
        let verifier = AppStoreConnectTokenVerifier(signatureVerifier: check, cache: cache)
        let tokens = (1...3).map { TestToken.make(exp: TestToken.now + 600 + Int64($0)) }
        for t in tokens { _ = verifier.verify(authorization: TestToken.bearer(t), now: TestToken.now) }
        #expect(cache.count == 2)
        #expect(!cache.contains(tokens[0]))
        #expect(cache.contains(tokens[1]) && cache.contains(tokens[2]))
        // A hit does not refresh a token's place: the order is insertion order only.
        _ = verifier.verify(authorization: TestToken.bearer(tokens[1]), now: TestToken.now)
        _ = verifier.verify(authorization: TestToken.bearer(tokens[0]), now: TestToken.now)
        #expect(!cache.contains(tokens[1]))
        #expect(cache.contains(tokens[2]) && cache.contains(tokens[0]))
        #expect(check.calls == 4)
    }
}

/// The cache of signed JWS `serve` answers from (`SignedPayloadCache`): the same payload signs
/// once and answers the very bytes signing again gives; a different byte is signed afresh.
@Suite struct ServerSignedPayloadCacheTests {
    @Test("a payload is signed once, and the cached JWS is what signing again gives (RFC 6979)")
    func signedOnce() {
        let signer = JWSSigner(identity: .builtin)
        let cache = SignedPayloadCache(capacity: 2)
        let calls = Mutex(0)
        func sign(_ p: [UInt8]) -> String {
            calls.withLock { $0 += 1 }
            return signer.sign(p)
        }
        let payload = Array(#"{"transactionId":"2000000000000001"}"#.utf8)
        let first = cache.signed(payload, sign: sign)
        #expect(cache.signed(payload, sign: sign) == first)
        #expect(calls.withLock { $0 } == 1)
        #expect(first == signer.sign(payload), "deterministic: a cache hit is indistinguishable from signing")
        var other = payload
        other[other.count - 2] = UInt8(ascii: "2")
        #expect(cache.signed(other, sign: sign) == signer.sign(other))
        #expect(calls.withLock { $0 } == 2)
        _ = cache.signed(Array("{}".utf8), sign: sign)
        #expect(cache.count == 2, "bounded: the oldest was evicted")
        _ = cache.signed(payload, sign: sign)
        #expect(calls.withLock { $0 } == 4, "the evicted payload is signed again")
    }
}
