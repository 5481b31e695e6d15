@testable import IAPCrypto
@testable import IAPKit
@testable import IAPTime

/// Builds P-256 certificates with IAPKit's own DER writer and signer, for chain cases openssl
/// fixtures do not cover (wrong CA flag, path length, bad signature). Deterministic.
enum TestCertificateFactory {
    static func key(_ seed: String) -> P256.PrivateKey {
        try! P256.PrivateKey(rawRepresentation: SHA256.hash(Array(seed.utf8)))
    }

    static func name(_ commonName: String) -> DistinguishedName {
        DistinguishedName([(.commonName, commonName), (.organizationName, "iapctl TEST ONLY — not Apple")])
    }

    static func certificate(
        subject: DistinguishedName, subjectKey: P256.PublicKey, issuer: DistinguishedName, issuerKey: P256.PrivateKey,
        serial: Int, isCA: Bool?, pathLength: Int? = nil, extraExtensions: [OID] = [],
        notBefore: String = "2000-01-01T00:00:00Z", notAfter: String = "2099-12-31T23:59:59Z"
    ) -> Certificate {
        var extensions: [[UInt8]] = []
        if let isCA {
            var constraints: [[UInt8]] = isCA ? [DER.boolean(true)] : []
            if let pathLength { constraints.append(DER.integer(pathLength)) }
            extensions.append(
                DER.sequence([DER.oid(.basicConstraints), DER.boolean(true), DER.octetString(DER.sequence(constraints))]))
        }
        for oid in extraExtensions { extensions.append(DER.sequence([DER.oid(oid), DER.octetString(DER.null())])) }
        let algorithm = DER.sequence([DER.oid(.ecdsaWithSHA256)])
        var tbsFields: [[UInt8]] = [
            DER.explicit(0, DER.integer(2)), DER.integer(serial), algorithm, issuer.der,
            DER.sequence([
                try! DER.certificateTime(Timestamp(rfc3339: notBefore)!), try! DER.certificateTime(Timestamp(rfc3339: notAfter)!),
            ]),
            subject.der, subjectKey.subjectPublicKeyInfoDER,
        ]
        if !extensions.isEmpty { tbsFields.append(DER.explicit(3, DER.sequence(extensions))) }
        let tbs = DER.sequence(tbsFields)
        let signature = issuerKey.signature(for: tbs).derRepresentation
        return try! Certificate(der: DER.sequence([tbs, algorithm, DER.bitString(signature)]))
    }

    /// root -> intermediate -> leaf, with knobs for the intermediate's CA flag and the root's path length.
    static func chain(intermediateIsCA: Bool = true, rootPathLength: Int? = nil) -> (
        root: Certificate, intermediate: Certificate, leaf: Certificate, leafKey: P256.PrivateKey
    ) {
        let rootKey = key("root")
        let intermediateKey = key("intermediate")
        let leafKey = key("leaf")
        let rootName = name("Factory Root")
        let intermediateName = name("Factory Intermediate")
        let root = certificate(
            subject: rootName, subjectKey: rootKey.publicKey, issuer: rootName, issuerKey: rootKey, serial: 1, isCA: true,
            pathLength: rootPathLength)
        let intermediate = certificate(
            subject: intermediateName, subjectKey: intermediateKey.publicKey, issuer: rootName, issuerKey: rootKey, serial: 2,
            isCA: intermediateIsCA, extraExtensions: [.appleWWDRIntermediate])
        let leaf = certificate(
            subject: name("Factory Leaf"), subjectKey: leafKey.publicKey, issuer: intermediateName, issuerKey: intermediateKey,
            serial: 3, isCA: false, extraExtensions: [.appleReceiptSigner])
        return (root, intermediate, leaf, leafKey)
    }
}
