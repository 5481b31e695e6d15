import Foundation
import Testing

@testable import IAPCrypto
@testable import IAPKit
@testable import IAPTime

@Suite("Crypto: X.509 certificates and chains")
struct CryptoX509Tests {
    static func fixtureChain() throws -> (root: Certificate, intermediate: Certificate, leaf: Certificate) {
        (
            try Certificate(pemRepresentation: CryptoTestSupport.fixtureText("signing/root.pem")),
            try Certificate(pemRepresentation: CryptoTestSupport.fixtureText("signing/intermediate.pem")),
            try Certificate(pemRepresentation: CryptoTestSupport.fixtureText("signing/leaf.pem"))
        )
    }

    static let year2026 = Timestamp.defaultStart

    @Test func fixtureChainFields() throws {
        let (root, intermediate, leaf) = try Self.fixtureChain()
        #expect(
            leaf.subject.description
                == "CN=iapctl TEST ONLY — not Apple StoreKit Signer,O=iapctl TEST ONLY — not Apple,OU=Test Receipt Signer")
        #expect(leaf.issuer == intermediate.subject)
        #expect(intermediate.issuer == root.subject)
        #expect(root.issuer == root.subject)
        #expect(root.subject.commonName == "iapctl TEST ONLY — not Apple Root CA")
        for certificate in [root, intermediate, leaf] {
            #expect(certificate.version == 3)
            #expect(certificate.notBefore == Timestamp(rfc3339: "2000-01-01T00:00:00Z"))
            #expect(certificate.notAfter == Timestamp(rfc3339: "2099-12-31T23:59:59Z"))
            #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
            #expect(certificate.subject.attribute(.organizationName) == "iapctl TEST ONLY — not Apple")
            guard case .p256 = certificate.publicKey else {
                Issue.record("expected a P-256 key in \(certificate)")
                continue
            }
        }
        #expect(root.basicConstraints == BasicConstraints(isCA: true))
        #expect(intermediate.basicConstraints == BasicConstraints(isCA: true, pathLength: 0))
        #expect(leaf.basicConstraints == BasicConstraints(isCA: false))
        #expect(leaf.hasExtension(.appleReceiptSigner) && !leaf.hasExtension(.appleWWDRIntermediate))
        #expect(intermediate.hasExtension(.appleWWDRIntermediate) && !intermediate.hasExtension(.appleReceiptSigner))
        #expect(leaf.extensionValue(.appleReceiptSigner) == [0x05, 0x00])
        #expect(leaf.extensionOIDs.map(\.description).contains("1.2.840.113635.100.6.11.1"))
        #expect(leaf.extensions.first { $0.oid == .basicConstraints }?.isCritical == true)
        let key = try P256.PrivateKey(pemRepresentation: CryptoTestSupport.fixtureText("signing/leaf-key.pem"))
        #expect(leaf.publicKey == .p256(key.publicKey))
        #expect(try Certificate(der: leaf.der) == leaf)
        #expect(Array(leaf.tbsBytes.prefix(1)) == [0x30])
    }

    @Test func fixtureSignatures() throws {
        let (root, intermediate, leaf) = try Self.fixtureChain()
        #expect(leaf.isSigned(by: intermediate))
        #expect(intermediate.isSigned(by: root))
        #expect(root.isSigned(by: root))
        #expect(!leaf.isSigned(by: root))
        #expect(!intermediate.isSigned(by: leaf))
    }

    @Test func fixtureChainVerifies() throws {
        let (root, intermediate, leaf) = try Self.fixtureChain()
        let result = CertificateChain.verify(leaf: leaf, intermediates: [intermediate], root: root, at: Self.year2026)
        #expect(try result.get() == [leaf, intermediate, root])
        // The same result with extra, irrelevant intermediates in any order.
        let other = TestCertificateFactory.chain()
        let shuffled = CertificateChain.verify(
            leaf: leaf, intermediates: [other.intermediate, intermediate, other.root], root: root, at: Self.year2026)
        #expect(try shuffled.get() == [leaf, intermediate, root])
    }

    @Test func fixtureChainVerifiesWithOpenSSL() throws {
        let dir = CryptoTestSupport.packageRoot.appendingPathComponent("Fixtures/signing")
        let result = try CryptoTestSupport.openssl(
            ["verify", "-CAfile", "root.pem", "-untrusted", "intermediate.pem", "leaf.pem"], in: dir)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "leaf.pem: OK\n")
    }

    static let failures: [(String, CertificateChainError)] = [
        (
            "2100-01-01T00:00:00Z",
            .expired(
                subject: "CN=iapctl TEST ONLY — not Apple StoreKit Signer,O=iapctl TEST ONLY — not Apple,OU=Test Receipt Signer",
                notAfter: Timestamp(rfc3339: "2099-12-31T23:59:59Z")!, at: Timestamp(rfc3339: "2100-01-01T00:00:00Z")!)
        ),
        (
            "1999-12-31T23:59:59Z",
            .notYetValid(
                subject: "CN=iapctl TEST ONLY — not Apple StoreKit Signer,O=iapctl TEST ONLY — not Apple,OU=Test Receipt Signer",
                notBefore: Timestamp(rfc3339: "2000-01-01T00:00:00Z")!, at: Timestamp(rfc3339: "1999-12-31T23:59:59Z")!)
        ),
    ]

    @Test(arguments: failures)
    func validityFailures(_ time: String, _ expected: CertificateChainError) throws {
        let (root, intermediate, leaf) = try Self.fixtureChain()
        let result = CertificateChain.verify(leaf: leaf, intermediates: [intermediate], root: root, at: Timestamp(rfc3339: time)!)
        #expect(result == .failure(expected))
    }

    @Test func boundariesAreInclusive() throws {
        let (root, intermediate, leaf) = try Self.fixtureChain()
        for time in ["2000-01-01T00:00:00Z", "2099-12-31T23:59:59Z"] {
            let result = CertificateChain.verify(
                leaf: leaf, intermediates: [intermediate], root: root, at: Timestamp(rfc3339: time)!)
            #expect((try? result.get()) != nil, "\(time)")
        }
    }

    @Test func missingIntermediate() throws {
        let (root, _, leaf) = try Self.fixtureChain()
        let result = CertificateChain.verify(leaf: leaf, intermediates: [], root: root, at: Self.year2026)
        #expect(
            result
                == .failure(
                    .issuerNotFound(
                        subject: "\(leaf.subject)",
                        issuer: "CN=iapctl TEST ONLY — not Apple WWDR,O=iapctl TEST ONLY — not Apple,OU=Test Intermediate CA")))
        #expect(
            "\(try #require(result.failureValue))"
                == "certificate '\(leaf.subject)': no issuer 'CN=iapctl TEST ONLY — not Apple WWDR,O=iapctl TEST ONLY — not Apple,OU=Test Intermediate CA' among the intermediates or the root"
        )
    }

    @Test func factoryChainAndFailures() throws {
        let good = TestCertificateFactory.chain()
        #expect(
            try CertificateChain.verify(leaf: good.leaf, intermediates: [good.intermediate], root: good.root, at: Self.year2026)
                .get()
                == [good.leaf, good.intermediate, good.root])

        let notCA = TestCertificateFactory.chain(intermediateIsCA: false)
        #expect(
            CertificateChain.verify(leaf: notCA.leaf, intermediates: [notCA.intermediate], root: notCA.root, at: Self.year2026)
                == .failure(.notCA(subject: "CN=Factory Intermediate,O=iapctl TEST ONLY — not Apple")))

        let limited = TestCertificateFactory.chain(rootPathLength: 0)
        #expect(
            CertificateChain.verify(
                leaf: limited.leaf, intermediates: [limited.intermediate], root: limited.root, at: Self.year2026)
                == .failure(.pathLengthExceeded(subject: "CN=Factory Root,O=iapctl TEST ONLY — not Apple", limit: 0)))

        // An impostor intermediate with the right name but another key.
        let impostorKey = TestCertificateFactory.key("impostor")
        let impostor = TestCertificateFactory.certificate(
            subject: good.intermediate.subject, subjectKey: impostorKey.publicKey, issuer: good.root.subject,
            issuerKey: TestCertificateFactory.key("root"), serial: 9, isCA: true)
        #expect(
            CertificateChain.verify(leaf: good.leaf, intermediates: [impostor], root: good.root, at: Self.year2026)
                == .failure(
                    .signature(
                        subject: "CN=Factory Leaf,O=iapctl TEST ONLY — not Apple",
                        issuer: "CN=Factory Intermediate,O=iapctl TEST ONLY — not Apple")))

        // A root that is not the fixture chain's root.
        let (fixtureRoot, _, _) = try Self.fixtureChain()
        #expect(
            CertificateChain.verify(leaf: good.leaf, intermediates: [good.intermediate], root: fixtureRoot, at: Self.year2026)
                == .failure(.issuerNotFound(subject: "\(good.intermediate.subject)", issuer: "\(good.root.subject)")))
        // A self-signed certificate trusted as its own root.
        #expect(
            try CertificateChain.verify(leaf: good.root, intermediates: [], root: good.root, at: Self.year2026).get() == [
                good.root
            ])
    }

    /// Certificates written by IAPKit's DER writer and signer are accepted by openssl.
    @Test func factoryChainVerifiesWithOpenSSL() throws {
        let chain = TestCertificateFactory.chain()
        try CryptoTestSupport.withTemporaryDirectory { dir in
            try chain.root.pemRepresentation.write(to: dir.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
            try chain.intermediate.pemRepresentation.write(
                to: dir.appendingPathComponent("intermediate.pem"), atomically: true, encoding: .utf8)
            try chain.leaf.pemRepresentation.write(to: dir.appendingPathComponent("leaf.pem"), atomically: true, encoding: .utf8)
            let result = try CryptoTestSupport.openssl(
                ["verify", "-CAfile", "root.pem", "-untrusted", "intermediate.pem", "leaf.pem"], in: dir)
            #expect(String(decoding: result.stdout, as: UTF8.self) == "leaf.pem: OK\n")
            let text = try CryptoTestSupport.openssl(["x509", "-in", "leaf.pem", "-noout", "-text"], in: dir).stdout
            #expect(String(decoding: text, as: UTF8.self).contains("1.2.840.113635.100.6.11.1"))
        }
    }

    /// RSA certificates made by openssl (sha256 and sha1 signatures) parse with the right fields.
    @Test(arguments: ["sha256", "sha1"])
    func opensslRSACertificate(_ digest: String) throws {
        try CryptoTestSupport.withTemporaryDirectory { dir in
            try CryptoTestSupport.openssl(
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-\(digest)",
                    "-days", "30", "-subj", "/C=US/O=iapctl TEST ONLY/CN=RSA \(digest) test", "-set_serial", "0x0102ff",
                    "-addext", "1.2.840.113635.100.6.11.1=DER:0500",
                ], in: dir)
            let certificate = try Certificate(
                pemRepresentation: String(contentsOf: dir.appendingPathComponent("cert.pem"), encoding: .utf8))
            #expect(certificate.subject.description == "C=US,O=iapctl TEST ONLY,CN=RSA \(digest) test")
            #expect(certificate.serialNumberHex == "0102ff")
            #expect(certificate.signatureAlgorithm == (digest == "sha1" ? .sha1WithRSAEncryption : .sha256WithRSAEncryption))
            #expect(certificate.hasExtension(.appleReceiptSigner))
            #expect(certificate.isSigned(by: certificate))
            guard case .rsa(let key) = certificate.publicKey else {
                Issue.record("expected an RSA key")
                return
            }
            #expect(key.bitCount == 2048)
            #expect(key.exponent == [0x01, 0x00, 0x01])
            let dates = String(
                decoding: try CryptoTestSupport.openssl(
                    ["x509", "-in", "cert.pem", "-noout", "-startdate", "-enddate", "-dateopt", "iso_8601"], in: dir
                ).stdout, as: UTF8.self)
            // notBefore=2026-11-29 13:19:44Z
            let values = dates.split(separator: "\n").map { line in
                String(line.split(separator: "=")[1]).replacingOccurrences(of: " ", with: "T")
            }
            #expect(certificate.notBefore == Timestamp(rfc3339: values[0]))
            #expect(certificate.notAfter == Timestamp(rfc3339: values[1]))
            #expect(certificate.notAfter.milliseconds - certificate.notBefore.milliseconds == 30 * 86_400_000)
        }
    }

    @Test func storeKitTestCertificate() throws {
        let certificate = try Certificate(pemRepresentation: CryptoTestSupport.fixtureText("vectors/StoreKitTestCertificate.pem"))
        #expect(certificate.subject.description == "CN=StoreKit,O=StoreKit,OU=StoreKit,C=US,emailAddress=StoreKit")
        #expect(certificate.notBefore == Timestamp(rfc3339: "2020-04-01T17:52:35Z"))
        #expect(certificate.notAfter == Timestamp(rfc3339: "2040-03-27T17:52:35Z"))
        #expect(certificate.signatureAlgorithm == .sha256WithRSAEncryption)
        #expect(certificate.isSigned(by: certificate))
        #expect(
            try CertificateChain.verify(leaf: certificate, intermediates: [], root: certificate, at: Self.year2026).get().count
                == 1)
    }

    /// The Xcode receipt's RSA signature (no signed attributes) verifies over its payload with the
    /// embedded StoreKit certificate; a changed payload byte does not.
    @Test func xcodeReceiptSignatureVerifies() throws {
        let bytes = try #require(Base64.decode(CryptoTestSupport.fixtureText("vectors/xcode-app-receipt-with-transaction")))
        let signedData = try ASN1Element(ber: bytes).child(1, "[0]").child(0, "SignedData")
        let payload = try signedData.child(2, "encap").child(1, "[0]").child(0, "eContent").octetStringValue()
        let certificate = try Certificate(der: signedData.child(3, "certificates").child(0, "certificate").encoded)
        let signerInfo = try signedData.child(4, "signerInfos").child(0, "signerInfo")
        #expect(try signerInfo.child(3, "signatureAlgorithm").child(0, "oid").oidValue() == .sha256WithRSAEncryption)
        let signature = try signerInfo.child(4, "signature").octetStringValue()
        guard case .rsa(let key) = certificate.publicKey else {
            Issue.record("expected RSA")
            return
        }
        #expect(key.isValidSignature(signature, for: payload, hash: .sha256))
        var tampered = payload
        tampered[40] ^= 1
        #expect(!key.isValidSignature(signature, for: tampered, hash: .sha256))
        let pemCertificate = try Certificate(
            pemRepresentation: CryptoTestSupport.fixtureText("vectors/StoreKitTestCertificate.pem"))
        #expect(certificate == pemCertificate)
    }

    @Test func malformedCertificatesThrowNeverCrash() throws {
        let (_, _, leaf) = try Self.fixtureChain()
        for length in 0..<leaf.der.count {
            #expect(throws: ASN1Error.self) { try Certificate(der: Array(leaf.der[..<length])) }
        }
        var mutated = leaf.der
        for position in 0..<leaf.der.count {
            for value: UInt8 in [0x00, 0xff, leaf.der[position] ^ 0x01] {
                mutated[position] = value
                if let parsed = try? Certificate(der: mutated), mutated != leaf.der {
                    _ = parsed.description
                }
            }
            mutated[position] = leaf.der[position]
        }
    }

    static let badCertificates: [([UInt8], ASN1Error)] = [
        ([0x31, 0x00], ASN1Error(offset: 0, expected: "a Certificate SEQUENCE")),
        ([0x30, 0x00], ASN1Error(offset: 2, expected: "tbsCertificate, signatureAlgorithm and signatureValue")),
        (
            DER.sequence([DER.sequence([]), DER.sequence([DER.oid(.ecdsaWithSHA256)]), DER.bitString([])]),
            ASN1Error(offset: 4, expected: "a serialNumber INTEGER")
        ),
        (
            DER.sequence([DER.integer(1), DER.sequence([DER.oid(.ecdsaWithSHA256)]), DER.bitString([])]),
            ASN1Error(offset: 2, expected: "a TBSCertificate SEQUENCE")
        ),
        (
            DER.sequence([
                DER.sequence([DER.integer(1), DER.sequence([DER.oid(.sha1WithRSAEncryption), DER.null()])]),
                DER.sequence([DER.oid(.ecdsaWithSHA256)]), DER.bitString([]),
            ]),
            ASN1Error(offset: 7, expected: "the same signature algorithm as the outer one")
        ),
    ]

    @Test(arguments: badCertificates)
    func badCertificateStructure(_ der: [UInt8], _ error: ASN1Error) {
        #expect(throws: error) { try Certificate(der: der) }
    }

    @Test func distinguishedNameEscaping() throws {
        let name = DistinguishedName([(.commonName, " a,b+c\"d\\e<f>g;h "), (.organizationName, "#x"), (try OID("1.2.3.4"), "v")])
        #expect(name.description == "CN=\\ a\\,b\\+c\\\"d\\\\e\\<f\\>g\\;h\\ ,O=\\#x,1.2.3.4=v")
        #expect(try DistinguishedName(der: name.der) == name)
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
