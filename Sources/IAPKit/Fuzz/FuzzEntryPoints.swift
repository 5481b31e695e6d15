import IAPCrypto
import IAPHTTP
import IAPJSON

/// The parsers that read untrusted bytes, each wrapped for a fuzzer: one function per target,
/// taking any bytes, returning normally for every input (an error is a normal answer), and
/// trapping when a property that must hold for every input does not.
///
/// The fuzz executables under `Fuzz/Targets/` call these, so they need no `@testable import`;
/// `make fuzz` runs them with libFuzzer (`docs/fuzzing.md`). IAPCLI adds its own parsers in an
/// extension, and ``all`` lists every target by the name its corpus directory has
/// (`Fixtures/fuzz/<name>/`).
package enum FuzzEntryPoints {
    /// The project's catalog format. A catalog that reads must write back (`CatalogJSONFormat.write`)
    /// to the same products, and writing is stable: `write(read(write(c))) == write(c)`.
    package static func catalogJSON(_ bytes: [UInt8]) {
        guard let catalog = try? CatalogJSONFormat.read(bytes, file: "fuzz.json") else { return }
        checkRoundTrip(catalog)
    }

    /// Xcode's `.storekit` files. A configuration that reads is a catalog, which must survive
    /// conversion to the project's format.
    package static func storeKitConfiguration(_ bytes: [UInt8]) {
        guard let catalog = try? StoreKitConfigurationFormat.read(bytes, file: "fuzz.storekit") else { return }
        checkRoundTrip(catalog)
    }

    /// IAPKit's JSON parser. What parses serializes to text that parses to the same value; an
    /// error's offset lies within the input.
    package static func json(_ bytes: [UInt8]) {
        do {
            let value = try JSONParser.parse(bytes)
            let text = value.serialized()
            guard let again = try? JSONParser.parse(text) else {
                preconditionFailure("serialized JSON does not parse: \(text)")
            }
            precondition(again == value, "JSON changed in a round trip: \(text)")
        } catch {
            precondition(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside the input")
        }
    }

    /// The store's binary transaction record. A record that decodes encodes to bytes that decode
    /// to the same transaction, and re-encoding is stable.
    package static func transactionRecord(_ bytes: [UInt8]) {
        guard let transaction = bytes.withUnsafeBytes({ TransactionRecordCodec.decode($0) }) else { return }
        var writer = ByteWriter()
        TransactionRecordCodec.encode(transaction, into: &writer)
        let encoded = writer.bytes
        guard let again = encoded.withUnsafeBytes({ TransactionRecordCodec.decode($0) }) else {
            preconditionFailure("an encoded transaction does not decode: \(encoded)")
        }
        precondition(again == transaction, "a transaction changed in a record round trip: \(transaction)")
        var rewriter = ByteWriter()
        TransactionRecordCodec.encode(again, into: &rewriter)
        precondition(rewriter.bytes == encoded, "encoding a transaction is not stable")
    }

    /// The HTTP/1.1 request parser of `iapctl serve` (`HTTPFuzzEntry`): the same events whether
    /// the bytes arrive whole or split, every limit respected, a response serialized to each.
    package static func http(_ bytes: [UInt8]) {
        HTTPFuzzEntry.parse(bytes)
    }

    /// The BER/DER reader and the receipt decoder: any bytes (base64 text or DER) decode or throw
    /// a one-line error with an offset; a decoded receipt's in-app entries are all readable.
    package static func receipt(_ bytes: [UInt8]) {
        _ = try? ASN1Element(ber: bytes)
        do {
            let decoded = try DecodedReceipt.decode(bytes)
            _ = decoded.receipt.inAppPurchases.count
        } catch {
            precondition(!"\(error)".contains("\n"), "a receipt error is not one line")
        }
    }

    /// The PEM, certificate and key readers: every block of any text is tried as a certificate,
    /// an EC private key (SEC1 or PKCS#8) and a public key, and must parse or throw.
    package static func pem(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? Certificate.all(pemRepresentation: text)
        _ = try? P256.PrivateKey(pemRepresentation: text)
        _ = try? P256.PublicKey(pemRepresentation: text)
        _ = try? RSAPublicKey(pemRepresentation: text)
        _ = try? Certificate(der: bytes)
        _ = try? P256.PrivateKey(pkcs8DER: bytes)
        _ = try? P256.PrivateKey(sec1DER: bytes)
        // EC points and signatures of every size reach the P-256 and P-384 arithmetic: a key read
        // from the input verifies the input itself as a DER signature.
        if let key = try? SubjectPublicKeyInfo(der: bytes) {
            for algorithm in [SignatureAlgorithm.ecdsa(.sha384), .ecdsa(.sha256), .rsaPKCS1(.sha256)] {
                _ = key.isValidSignature(bytes, for: bytes, algorithm: algorithm)
            }
        }
        if let key = try? P384.PublicKey(x963Representation: bytes) {
            _ = key.isValidSignature(der: bytes, for: bytes)
            if bytes.count >= 96, let signature = try? P384.Signature(rawRepresentation: Array(bytes.prefix(96))) {
                _ = key.isValidSignature(signature, forDigest: Array(bytes.suffix(48)))
            }
        }
    }

    private static func checkRoundTrip(_ catalog: Catalog) {
        let written = CatalogJSONFormat.write(catalog)
        let reread: Catalog
        do {
            reread = try CatalogJSONFormat.read(written, file: "fuzz-written.json")
        } catch {
            preconditionFailure("a written catalog does not read back: \(error)\n\(String(decoding: written, as: UTF8.self))")
        }
        precondition(reread.products == catalog.products, "products changed in a catalog round trip")
        precondition(CatalogJSONFormat.write(reread) == written, "writing a catalog is not stable")
    }
}
