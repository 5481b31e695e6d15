import Testing

@testable import IAPCrypto
@testable import IAPKit
@testable import IAPTime

/// Compact JWS: signing with the store's chain, parsing, and verification check by check.
@Suite("JWS signing and verification")
struct JWSTests {
    static let identity = SigningIdentity.builtin
    static let signer = JWSSigner(identity: identity)
    static let payload = Array(#"{"transactionId":"2000000000000001","signedDate":1767225601000}"#.utf8)

    static func base64url(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }

    @Test("the header is alg, x5c (leaf, intermediate, root in standard base64 DER), typ; the signature raw R||S")
    func signsAndParses() throws {
        let token = Self.signer.sign(Self.payload)
        #expect(token == Self.signer.sign(Self.payload), "RFC 6979: the same payload gives the same token")
        let jws = try CompactJWS(parsing: token + "\n")
        let chain = [Self.identity.leaf, Self.identity.intermediate, Self.identity.root].map { Base64.encode($0.der) }
        #expect(
            jws.header.serialized()
                == #"{"alg":"ES256","x5c":["\#(chain[0])","\#(chain[1])","\#(chain[2])"],"typ":"JWT"}"#)
        #expect(jws.payloadBytes == Self.payload && jws.signature.count == 64)
        #expect(jws.signedDate == Timestamp(milliseconds: 1_767_225_601_000))
        #expect(Self.identity.privateKey.publicKey.isValidSignature(raw: jws.signature, for: jws.signingInput))
        #expect(String(decoding: jws.signingInput, as: UTF8.self) == token.split(separator: ".").prefix(2).joined(separator: "."))
    }

    @Test("a token the store signed verifies against its root: every check passes")
    func verifies() throws {
        let report = JWSVerifier.verify(try CompactJWS(parsing: Self.signer.sign(Self.payload)), root: Self.identity.root)
        #expect(report.checks.map(\.name) == ["algorithm", "certificates", "chain", "appleMarkers", "signature"])
        #expect(report.checks.map(\.verdict) == [.pass, .pass, .pass, .pass, .pass])
        #expect(report.isValid)
    }

    @Test("another root fails the chain; a changed payload fails the signature; an algorithm other than ES256 fails")
    func failures() throws {
        let token = Self.signer.sign(Self.payload)
        let wrongRoot = JWSVerifier.verify(try CompactJWS(parsing: token), root: Self.identity.intermediate)
        #expect(wrongRoot.firstFailure?.name == "chain", "\(wrongRoot)")
        let parts = token.split(separator: ".").map(String.init)
        let tampered =
            parts[0] + "." + Self.base64url(#"{"transactionId":"2000000000000002","signedDate":1767225601000}"#)
            + "." + parts[2]
        let changed = JWSVerifier.verify(try CompactJWS(parsing: tampered), root: Self.identity.root)
        #expect(
            changed.firstFailure
                == ReceiptCheck("signature", .fail, "ES256 signature over header.payload does not verify with the leaf's key"))
        let header = #"{"alg":"HS256","x5c":["\#(Base64.encode(Self.identity.leaf.der))"]}"#
        let hs = JWSVerifier.verify(
            try CompactJWS(parsing: Self.base64url(header) + "." + parts[1] + "." + parts[2]), root: Self.identity.root)
        #expect(hs.check("algorithm") == ReceiptCheck("algorithm", .fail, "the header's alg is 'HS256'; Apple signs with ES256"))
        #expect(hs.check("chain")?.detail.hasPrefix("the one certificate in x5c ('CN=iapctl TEST ONLY") == true)
        let two =
            #"{"alg":"ES256","x5c":["\#(Base64.encode(Self.identity.leaf.der))","\#(Base64.encode(Self.identity.root.der))"]}"#
        let short = JWSVerifier.verify(
            try CompactJWS(parsing: Self.base64url(two) + "." + parts[1] + "." + parts[2]), root: Self.identity.root)
        #expect(
            short.check("chain")?.detail
                == "x5c holds 2 certificates; Apple's chains hold 3 (leaf, intermediate, root), Xcode's 1")
    }

    @Test("no signedDate: checked at the time given, as Apple's verifier checks at the current time; none given fails")
    func noSignedDate() throws {
        let token = Self.signer.sign(Array(#"{"transactionId":"1"}"#.utf8))
        let jws = try CompactJWS(parsing: token)
        let report = JWSVerifier.verify(jws, root: Self.identity.root)
        #expect(
            report.check("chain")
                == ReceiptCheck(
                    "chain", .fail, "the payload has no signedDate and no time was given to check the certificates at"))
        #expect(report.check("signature")?.verdict == .pass)
        let at = Timestamp(milliseconds: 1_767_225_600_000)
        let given = JWSVerifier.verify(jws, root: Self.identity.root, at: VerificationTime(at, .given))
        #expect(given.isValid)
        #expect(
            given.check("chain")?.detail.hasSuffix(
                "valid at 2026-01-01T00:00:00Z (the time given: the payload has no signedDate)") == true)
        let now = JWSVerifier.verify(jws, root: Self.identity.root, at: VerificationTime(Timestamp(seconds: 4_200_000_000), .now))
        #expect(now.check("chain")?.verdict == .fail)
        #expect(now.check("chain")?.detail.hasSuffix("(now: the payload has no signedDate)") == true)
        // A signedDate wins over the time given, as in Apple's verifier.
        let signed = try CompactJWS(parsing: Self.signer.sign(Self.payload))
        let ignored = JWSVerifier.verify(
            signed, root: Self.identity.root, at: VerificationTime(Timestamp(seconds: 4_200_000_000), .given))
        #expect(ignored.isValid)
        #expect(VerificationTime.resolve(signed, fallback: nil) == VerificationTime(signed.signedDate!, .signedDate))
    }

    @Test("Xcode's one-certificate token verifies against its own self-signed certificate, at its fractional signedDate")
    func xcodeVector() throws {
        let text = String(decoding: try StoreKitFixture.bytes("vectors/xcode-signed-transaction"), as: UTF8.self)
        let jws = try CompactJWS(parsing: text)
        #expect(jws.signedDate == Timestamp(milliseconds: 1_697_679_936_056))
        #expect(jws.header["kid"]?.stringValue == "Apple_Xcode_Key")
        let certificate = try Certificate(
            pemRepresentation: String(decoding: try StoreKitFixture.bytes("vectors/xcode-jws-certificate.pem"), as: UTF8.self))
        let report = JWSVerifier.verify(jws, root: certificate)
        #expect(report.checks.map(\.verdict) == [.pass, .pass, .pass, .skip, .pass], "\(report)")
        let ours = JWSVerifier.verify(jws, root: Self.identity.root)
        #expect(ours.firstFailure?.name == "chain")
    }

    @Test(
        "malformed tokens get one line naming the part",
        arguments: [
            ("", "no JWS: the input is empty; give a compact JWS (header.payload.signature)"),
            ("a.b", "not a compact JWS: 2 parts separated by '.', expected 3 (header.payload.signature)"),
            ("a.b.c.d", "not a compact JWS: 4 parts separated by '.', expected 3 (header.payload.signature)"),
            (".e30.", "not a compact JWS: the header part is empty"),
            ("e30=.e30.AA", "the JWS header is not base64url (RFC 7515: A-Z a-z 0-9 - _, no padding, no spaces)"),
            ("e30.e30.A+A", "the JWS signature is not base64url (RFC 7515: A-Z a-z 0-9 - _, no padding, no spaces)"),
            ("W10.e30.AA", "the JWS header is an array, not a JSON object"),
            ("e30.eyJh.AA", "the JWS payload is not JSON: "),
        ])
    func malformed(text: String, message: String) {
        #expect(throws: JWSError.self) { try CompactJWS(parsing: text) }
        do {
            _ = try CompactJWS(parsing: text)
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("the API key check: a token signed by the key verifies, another key's does not; bad PEM is one line")
    func apiKey() throws {
        let key = Self.identity.privateKey
        let input = Array("header.payload".utf8)
        let signature = key.signature(for: input).rawRepresentation
        let fromPrivate = try APIKeySignatureVerifier(pem: key.pkcs8PEMRepresentation, name: "AuthKey.p8")
        let fromPublic = try APIKeySignatureVerifier(pem: key.publicKey.pemRepresentation, name: "key.pem")
        #expect(fromPrivate.publicKey == fromPublic.publicKey)
        #expect(fromPublic.isValid(signature: signature, signingInput: input, keyID: "ANY"))
        #expect(!fromPublic.isValid(signature: signature, signingInput: Array("header.payloaD".utf8), keyID: "ANY"))
        #expect(throws: StoreError.self) { try APIKeySignatureVerifier(pem: "nope", name: "x.p8") }
        do {
            _ = try APIKeySignatureVerifier(pem: Self.identity.root.pemRepresentation, name: "root.pem")
        } catch {
            #expect(
                error.description
                    == "root.pem: not a P-256 key in PEM; give the App Store Connect key (.p8, 'BEGIN PRIVATE KEY') or its public half ('BEGIN PUBLIC KEY')"
            )
            #expect(error.exitCode == .badData)
        }
    }
}
