import IAPHTTP
import IAPJSON
import Synchronization

/// Checks the `Authorization: Bearer <JWT>` of an App Store Server API request.
///
/// Apple's API takes a JWT the caller signs with its App Store Connect in-app purchase key
/// ("Generating JSON Web Tokens for API requests"): header `alg` ES256, `kid` the key id, `typ`
/// JWT; payload `iss` the issuer id, `iat` and `exp` in seconds (at most 60 minutes apart),
/// `aud` "appstoreconnect-v1", `bid` the app's bundle id. Apple's own client libraries leave
/// `iat` out (app-store-server-library's `_generate_token` writes `bid`, `iss`, `aud` and an
/// `exp` five minutes ahead), and Apple's servers accept those tokens, so `iat` is optional here
/// too; when present it bounds the lifetime. A request without a valid token gets 401. IAPKit
/// never reads the wall clock, so the caller passes `now`.
public protocol BearerTokenVerifier: Sendable {
    /// The claims of the token in `authorization` (the whole header value, nil when absent),
    /// or why it is refused.
    func verify(authorization: String?, now: Int64) -> Result<BearerTokenClaims, BearerTokenError>
}

/// Verifies a JWT's signature: ES256 (raw 64-byte R||S, RFC 7518 section 3.4) over the ASCII
/// `header.payload`, with the public key of the App Store Connect key the server was given.
/// The P-256 implementation lives with the rest of the crypto; the server only needs this hook.
public protocol JWTSignatureVerifier: Sendable {
    /// The key ids the verifier holds a key for (`kid` must be one), empty when it trusts its one
    /// key whatever the `kid`.
    var keyIDs: [String] { get }
    func isValid(signature: [UInt8], signingInput: [UInt8], keyID: String) -> Bool
}

extension JWTSignatureVerifier {
    /// A verifier that does not say which key ids it holds trusts its key whatever the `kid`.
    public var keyIDs: [String] { [] }
}

/// What a well-formed App Store Server API token says.
public struct BearerTokenClaims: Sendable, Equatable {
    public let keyID: String
    public let issuer: String
    /// `iat`, when the token has one (Apple's client libraries leave it out).
    public let issuedAt: Int64?
    public let expiresAt: Int64
    public let bundleID: String

    public init(keyID: String, issuer: String, issuedAt: Int64?, expiresAt: Int64, bundleID: String) {
        self.keyID = keyID
        self.issuer = issuer
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.bundleID = bundleID
    }
}

/// Why a bearer token was refused, for the 401 body.
public struct BearerTokenError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The token check of `iapctl serve`: the token must be a well-formed App Store Server API JWT,
/// and, when a signature verifier is installed (`--api-key`), signed by that key.
public struct AppStoreConnectTokenVerifier: BearerTokenVerifier {
    /// Apple refuses tokens whose `exp` is more than 60 minutes after `iat` (and, without `iat`,
    /// more than 60 minutes after now).
    public static let maximumLifetime: Int64 = 3600
    /// Clock skew tolerated on `iat` (a token issued a little in the future).
    public static let leeway: Int64 = 60
    public static let audience = "appstoreconnect-v1"

    public let signatureVerifier: (any JWTSignatureVerifier)?
    /// Tokens whose signature `signatureVerifier` accepted, so a client reusing its token (Apple:
    /// "you don't need to generate a new token for every API request") costs one P-256
    /// verification, not one per request. Nil verifies every request.
    public let cache: VerifiedTokenCache?

    public init(
        signatureVerifier: (any JWTSignatureVerifier)? = nil,
        cache: VerifiedTokenCache? = VerifiedTokenCache(capacity: VerifiedTokenCache.defaultCapacity)
    ) {
        self.signatureVerifier = signatureVerifier
        self.cache = signatureVerifier == nil ? nil : cache
    }

    public func verify(authorization: String?, now: Int64) -> Result<BearerTokenClaims, BearerTokenError> {
        func refuse(_ why: String) -> Result<BearerTokenClaims, BearerTokenError> { .failure(BearerTokenError(why)) }
        // A token seen before with a verified signature: only the clock can have changed, so only
        // the time checks run again (the same checks, in the same order, as below).
        if let cache, let authorization, let token = Self.bearerToken(authorization), let known = cache.claims(for: token) {
            if let refusal = Self.timeRefusal(issuedAt: known.issuedAt, expiresAt: known.expiresAt, now: now) {
                return refuse(refusal)
            }
            return .success(known)
        }
        guard let authorization else {
            return refuse(
                "missing Authorization header; send 'Authorization: Bearer <JWT>' signed with your App Store Connect key")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return refuse("Authorization is not 'Bearer <JWT>'")
        }
        let token = parts[1].drop { $0 == " " }
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, segments.allSatisfy({ !$0.isEmpty }) else {
            return refuse("the bearer token is not a JWT: expected three base64url parts separated by '.'")
        }
        guard let headerBytes = ServerBase64.decodeURL(segments[0]), let payloadBytes = ServerBase64.decodeURL(segments[1]),
            let signature = ServerBase64.decodeURL(segments[2])
        else {
            return refuse("a part of the bearer token is not base64url (RFC 7515: A-Z a-z 0-9 - _, no padding)")
        }
        guard let header = try? JSONParser.parse(headerBytes), header.objectValue != nil else {
            return refuse("the JWT header is not a JSON object")
        }
        guard let payload = try? JSONParser.parse(payloadBytes), payload.objectValue != nil else {
            return refuse("the JWT payload is not a JSON object")
        }
        guard header["alg"]?.stringValue == "ES256" else {
            return refuse("the JWT header's alg is \(Self.shown(header["alg"])); App Store Server API tokens use ES256")
        }
        guard header["typ"]?.stringValue == "JWT" else {
            return refuse("the JWT header's typ is \(Self.shown(header["typ"])); it must be JWT")
        }
        guard let keyID = header["kid"]?.stringValue, !keyID.isEmpty else {
            return refuse("the JWT header has no kid; set it to your App Store Connect key id")
        }
        guard let issuer = payload["iss"]?.stringValue, !issuer.isEmpty else {
            return refuse("the JWT payload has no iss; set it to your App Store Connect issuer id")
        }
        var issuedAt: Int64?
        if let iat = payload["iat"] {
            guard let seconds = iat.int64Value else {
                return refuse(
                    "the JWT payload's iat is \(Self.shown(iat)); give the issue time in seconds since 1970, or leave it out")
            }
            issuedAt = seconds
        }
        guard let expiresAt = payload["exp"]?.int64Value else {
            return refuse("the JWT payload's exp is \(Self.shown(payload["exp"])); give the expiry in seconds since 1970")
        }
        guard payload["aud"]?.stringValue == Self.audience else {
            return refuse("the JWT payload's aud is \(Self.shown(payload["aud"])); it must be \(Self.audience)")
        }
        guard let bundleID = payload["bid"]?.stringValue, !bundleID.isEmpty else {
            return refuse("the JWT payload has no bid; set it to the app's bundle id")
        }
        guard signature.count == 64 else {
            return refuse("the JWT signature has \(signature.count) bytes; ES256 signatures are 64 (R||S)")
        }
        if let refusal = Self.timeRefusal(issuedAt: issuedAt, expiresAt: expiresAt, now: now) { return refuse(refusal) }
        if let signatureVerifier {
            let known = signatureVerifier.keyIDs
            guard known.isEmpty || known.contains(keyID) else {
                return refuse(
                    "the JWT header's kid '\(HTTPRequestParser.printable(keyID))' is not a key this server knows (\(known.joined(separator: ", "))); sign with that key or register yours with 'iapctl serve --api-key FILE --api-key-id KID'"
                )
            }
            let signingInput = Array(token.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
            guard signatureVerifier.isValid(signature: signature, signingInput: signingInput, keyID: keyID) else {
                return refuse("the JWT signature does not verify with the API key given to 'iapctl serve --api-key'")
            }
        }
        let claims = BearerTokenClaims(keyID: keyID, issuer: issuer, issuedAt: issuedAt, expiresAt: expiresAt, bundleID: bundleID)
        // Only here, after the signature verified (the cache exists only with a verifier).
        cache?.insert(String(token), claims)
        return .success(claims)
    }

    /// The token of a `Bearer <JWT>` header value, as `verify` reads it.
    static func bearerToken(_ authorization: String) -> Substring? {
        // By bytes (this runs for every request): the scheme up to the first space, then the
        // token after any further spaces; a space is ASCII, so its index bounds valid substrings.
        let utf8 = authorization.utf8
        guard let space = utf8.firstIndex(of: 0x20), authorization[..<space].lowercased() == "bearer" else { return nil }
        var start = utf8.index(after: space)
        while start < utf8.endIndex && utf8[start] == 0x20 { start = utf8.index(after: start) }
        return authorization[start...]
    }

    /// Why the clock refuses a token with these times, or nil: `iat` (when present) not after
    /// `exp`, at most 60 minutes before it and not in the future; `exp` ahead, by at most 60
    /// minutes.
    static func timeRefusal(issuedAt: Int64?, expiresAt: Int64, now: Int64) -> String? {
        if let issuedAt {
            guard expiresAt > issuedAt, expiresAt - issuedAt <= Self.maximumLifetime else {
                return "the JWT's exp must be after iat and at most 60 minutes after it (iat \(issuedAt), exp \(expiresAt))"
            }
            guard issuedAt <= now + Self.leeway else {
                return "the JWT's iat \(issuedAt) is in the future (now \(now)); check the clock of the signer"
            }
        }
        guard expiresAt > now else { return "the JWT expired at \(expiresAt) (now \(now)); sign a new one" }
        guard expiresAt - now <= Self.maximumLifetime + Self.leeway else {
            return "the JWT's exp \(expiresAt) is more than 60 minutes ahead (now \(now)); Apple accepts at most 60 minutes"
        }
        return nil
    }

    private static func shown(_ value: JSONValue?) -> String {
        guard let value else { return "missing" }
        return "'\(HTTPRequestParser.printable(value.serialized()))'"
    }
}

/// The bearer tokens whose ES256 signature a server verified, with their claims: a bounded
/// table keyed by the exact token text, so a different byte anywhere (header, payload or
/// signature) is a different key and is verified afresh. Only `AppStoreConnectTokenVerifier`
/// inserts, and only after the signature verified; the claims' `exp` and `iat` are checked
/// against the clock on every request all the same. When full, the oldest insertion is evicted
/// (first in, first out), so which tokens it holds depends only on the order tokens arrived.
public final class VerifiedTokenCache: Sendable {
    /// 16 clients with a token each, many times over; a token is about 300 bytes.
    public static let defaultCapacity = 1024

    public let capacity: Int

    private struct Table {
        var claims: [Substring: BearerTokenClaims] = [:]
        /// Insertion order, a ring: `order[next]` is the oldest once the ring is full.
        var order: [Substring] = []
        var next = 0
    }

    private let table = Mutex(Table())

    public init(capacity: Int) {
        precondition(capacity > 0, "a token cache holds at least one token")
        self.capacity = capacity
    }

    /// The claims of `token`, if its signature was verified and it is still held.
    public func claims(for token: Substring) -> BearerTokenClaims? {
        table.withLock { $0.claims[token] }
    }

    /// Whether `token` is held (for tests).
    public func contains(_ token: String) -> Bool { claims(for: Substring(token)) != nil }

    /// How many tokens are held.
    public var count: Int { table.withLock { $0.claims.count } }

    func insert(_ token: String, _ claims: BearerTokenClaims) {
        let key = Substring(token)
        table.withLock { t in
            guard t.claims[key] == nil else { return }
            if t.order.count < capacity {
                t.order.append(key)
            } else {
                t.claims[t.order[t.next]] = nil
                t.order[t.next] = key
                t.next = (t.next + 1) % capacity
            }
            t.claims[key] = claims
        }
    }
}
