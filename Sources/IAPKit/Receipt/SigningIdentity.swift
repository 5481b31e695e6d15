import IAPCrypto
import IAPTime

/// The certificate chain and key a store signs its receipts with: a P-256 leaf (Apple's
/// receipt-signer marker OID 1.2.840.113635.100.6.11.1), the intermediate that issued it (Apple's
/// WWDR marker 1.2.840.113635.100.6.2.1) and the root verifiers are told to trust.
///
/// By default a store uses the TEST ONLY chain in `Fixtures/signing/` (embedded in the binary);
/// `iapctl init --signing-dir DIR` brings the user's own four PEM files, which are validated here
/// and copied into the store (`<store>/signing`, checksummed; the state keeps its SHA-256 so a
/// swapped file is refused, as the catalog copy is).
public struct SigningIdentity: Sendable {
    public let leaf: Certificate
    public let intermediate: Certificate
    public let root: Certificate
    public let privateKey: P256.PrivateKey
    /// Where it came from: "built-in test chain" or the directory given to `init`.
    public let origin: String
    /// Non-fatal findings (a missing Apple marker OID), for `init` to print as warnings.
    public let warnings: [String]

    /// The files `init --signing-dir` reads, in the order the store file keeps them.
    public static let fileNames = ["leaf.pem", "intermediate.pem", "root.pem", "leaf-key.pem"]

    static let builtinOrigin = "built-in test chain"

    /// The embedded TEST ONLY chain (`Fixtures/signing/*.pem`, listed in `Fixtures/embedded.txt`).
    public static let builtin: SigningIdentity = {
        let texts = fileNames.map { String(decoding: BuiltinCatalog.file("signing/" + $0) ?? [], as: UTF8.self) }
        do {
            return try SigningIdentity(
                texts: texts, names: fileNames.map { "Fixtures/signing/" + $0 }, origin: builtinOrigin, at: nil)
        } catch {
            // The embedded files are part of the build and checked by tests; a bad build is a bug.
            preconditionFailure("the embedded test signing chain does not load: \(error)")
        }
    }()

    /// Reads and validates `leaf.pem`, `intermediate.pem`, `root.pem` and `leaf-key.pem` from
    /// `directory`: exit 66 when one cannot be read, 65 when one is malformed, the key does not
    /// match the leaf, or the chain does not verify at `time` (the store's clock at creation).
    public static func load(directory: String, at time: Timestamp) throws(StoreError) -> SigningIdentity {
        guard PosixFile.exists(directory), PosixFile.isDirectory(directory) else {
            throw .unreadable(
                path: directory,
                reason: "no such directory (give a folder holding \(fileNames.joined(separator: ", ")))")
        }
        var texts: [String] = []
        var names: [String] = []
        for name in fileNames {
            let path = directory + "/" + name
            guard let file = try PosixFile.openForReading(path) else {
                throw .unreadable(
                    path: path, reason: "no such file (a signing directory holds \(fileNames.joined(separator: ", ")))")
            }
            guard !PosixFile.isDirectory(path) else { throw .unreadable(path: path, reason: "is a directory, not a PEM file") }
            texts.append(String(decoding: try file.readAll(), as: UTF8.self))
            names.append(path)
        }
        return try SigningIdentity(texts: texts, names: names, origin: directory, at: time)
    }

    /// Validates four PEM texts (leaf, intermediate, root, key), named by `names` in messages.
    init(texts: [String], names: [String], origin: String, at time: Timestamp?) throws(StoreError) {
        func certificate(_ i: Int) throws(StoreError) -> Certificate {
            do {
                return try Certificate(pemRepresentation: texts[i])
            } catch {
                throw .badInput(.notACertificate(file: names[i], reason: "\(error)"))
            }
        }
        leaf = try certificate(0)
        intermediate = try certificate(1)
        root = try certificate(2)
        do {
            privateKey = try P256.PrivateKey(pemRepresentation: texts[3])
        } catch {
            throw .badInput(.notAPrivateKey(file: names[3], reason: "\(error)"))
        }
        guard case .p256(let leafKey) = leaf.publicKey else {
            throw .badInput(.leafNotP256(file: names[0]))
        }
        guard leafKey == privateKey.publicKey else {
            throw .badInput(.keyMismatch(key: names[3], leaf: names[0]))
        }
        let checkTime = time ?? leaf.notBefore
        switch CertificateChain.verify(leaf: leaf, intermediates: [intermediate], root: root, at: checkTime) {
        case .failure(let error):
            throw .badInput(.chainDoesNotVerify(origin: origin, at: checkTime, reason: "\(error)"))
        case .success(let path):
            guard path.count == 3 else {
                throw .badInput(.chainShape(origin: origin, steps: path.count))
            }
        }
        var found: [String] = []
        if !leaf.hasExtension(.appleReceiptSigner) {
            found.append(
                "\(names[0]) lacks Apple's receipt-signer marker OID \(OID.appleReceiptSigner); 'iapctl verify' will report the appleMarkers check failed"
            )
        }
        if !intermediate.hasExtension(.appleWWDRIntermediate) {
            found.append(
                "\(names[1]) lacks Apple's WWDR intermediate marker OID \(OID.appleWWDRIntermediate); 'iapctl verify' will report the appleMarkers check failed"
            )
        }
        warnings = found
        self.origin = origin
    }

    /// The body of `<store>/signing`: the four PEM texts in `fileNames` order.
    var storeFileBody: [UInt8] {
        Array(
            (leaf.pemRepresentation + intermediate.pemRepresentation + root.pemRepresentation + privateKey.pkcs8PEMRepresentation)
                .utf8)
    }

    /// Reads back what `storeFileBody` wrote.
    static func decodeStoreFile(_ body: [UInt8], path: String) throws(StoreError) -> SigningIdentity {
        let text = String(decoding: body, as: UTF8.self)
        let blocks: [PEMBlock]
        do {
            blocks = try PEM.decode(text)
        } catch {
            throw .damaged(path: path, problem: "not a signing chain (\(error))")
        }
        guard blocks.count == 4 else {
            throw .damaged(path: path, problem: "holds \(blocks.count) PEM blocks, expected 4 (leaf, intermediate, root, key)")
        }
        let texts = blocks.map { PEM.encode($0.bytes, label: $0.label) }
        do {
            return try SigningIdentity(texts: texts, names: fileNames.map { "\(path) (\($0))" }, origin: path, at: nil)
        } catch {
            throw .damaged(path: path, problem: "\(error)")
        }
    }
}
