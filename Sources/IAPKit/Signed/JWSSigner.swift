import IAPCrypto
import IAPJSON

/// Signs StoreKit 2 signed data: compact JWS with ES256 (ECDSA P-256 over SHA-256, the
/// signature as raw 64-byte R||S, RFC 7518 section 3.4) and the store's certificate chain in `x5c`.
///
/// The header is `{"alg":"ES256","x5c":[leaf, intermediate, root],"typ":"JWT"}` (REFERENCE
/// section 7), the certificates in standard base64 DER (RFC 7515 section 4.1.6). Apple's App
/// Store servers write `alg` then `x5c` in that order and, in the tokens seen in the wild, no
/// `typ`; iapctl follows the REFERENCE and adds `typ` last, which every JWS reader ignores (Apple's
/// `SignedDataVerifier` reads only `alg` and `x5c`). Apple's `JWSDecodedHeader` documents `alg`,
/// `x5c` and `kid` ("App Store Server API, JWSDecodedHeader").
///
/// Signing is deterministic (RFC 6979 nonces), so the same payload gives the same token.
public struct JWSSigner: Sendable {
    public let identity: SigningIdentity
    /// `base64url(header)`, computed once.
    public let encodedHeader: String

    public init(identity: SigningIdentity) {
        self.identity = identity
        encodedHeader = Base64URL.encode(Self.header(identity))
    }

    /// The JOSE header JSON, keys in the order documented above.
    public static func header(_ identity: SigningIdentity) -> [UInt8] {
        var w = JSONWriter(capacity: 2048)
        w.beginObject()
        w.key("alg")
        w.string("ES256")
        w.key("x5c")
        w.beginArray()
        for certificate in [identity.leaf, identity.intermediate, identity.root] { w.string(Base64.encode(certificate.der)) }
        w.endArray()
        w.key("typ")
        w.string("JWT")
        w.endObject()
        return w.bytes
    }

    /// `base64url(header).base64url(payload).base64url(R||S)`.
    public func sign(_ payload: [UInt8]) -> String {
        let input = encodedHeader + "." + Base64URL.encode(payload)
        let signature = identity.privateKey.signature(for: Array(input.utf8)).rawRepresentation
        return input + "." + Base64URL.encode(signature)
    }
}
