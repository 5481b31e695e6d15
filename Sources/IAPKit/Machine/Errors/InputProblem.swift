import IAPTime

/// Bad data other than the store's own files (`StoreError.badInput`, exit 65): a receipt, a key,
/// a signed value that fails its checks, named with what is wrong. `description` is the line the
/// CLI prints after `error: `.
public enum InputProblem: Hashable, Sendable, CustomStringConvertible {
    // MARK: - Offer keys

    /// An offer key that is not a P-256 public key.
    case notAP256Key(String)

    // MARK: - A signing chain (`init --signing-dir`; `file` names the file)

    /// A file that is not a PEM certificate; `reason` is the parser's.
    case notACertificate(file: String, reason: String)
    /// A file that is not a P-256 private key; `reason` is the parser's.
    case notAPrivateKey(file: String, reason: String)
    /// The leaf certificate's key is not P-256.
    case leafNotP256(file: String)
    /// The private key is not the leaf's.
    case keyMismatch(key: String, leaf: String)
    /// The chain does not verify at `date`; `reason` says why.
    case chainDoesNotVerify(origin: String, at: Timestamp, reason: String)
    /// The chain verifies in `steps` steps, not leaf -> intermediate -> root.
    case chainShape(origin: String, steps: Int)

    // MARK: - Hosted content, keys, receipts

    /// The catalog has no hosted content the download names.
    case noHostedContent(store: String, content: String, product: ProductID)
    /// The store's copy of hosted content has another size than the download expects.
    case hostedContentSize(content: String, product: ProductID, bytes: Int64, store: String, expected: Int64)
    /// An App Store Connect API key file that is not a P-256 key.
    case notAnAPIKey(file: String)
    /// A receipt that does not decode; `reason` is the `ReceiptError`'s text.
    case receipt(source: String, reason: String)

    // MARK: - Files the CLI reads (`file` as the user named it; `reason` is the parser's)

    /// `verify --root` that is not a certificate.
    case notARootCertificate(file: String, reason: String)
    /// A signed value (`jws verify`, `jws decode`) that is not a compact JWS.
    case notAJWS(source: String, reason: String)
    /// A scenario file that does not parse; `reason` starts with the line and column.
    case scenario(file: String, reason: String)
    /// A scenario file without a command or check.
    case emptyScenario(file: String)
    /// An offer key file that cannot be read as one; `reason` is the `OfferKeyError`'s text.
    case offerKeyFile(reason: String)

    public var description: String {
        switch self {
        case .notARootCertificate(let file, let reason):
            return "--root \(file): not a certificate (\(reason)); give a PEM or DER X.509 certificate"
        case .notAJWS(let source, let reason):
            return "\(source): \(reason)"
        case .scenario(let file, let reason):
            return "\(file):\(reason)"
        case .emptyScenario(let file):
            return
                "\(file): no commands or checks (it is empty or only comments); write one iapctl command or check a line (see 'iapctl help run')"
        case .offerKeyFile(let reason):
            return reason
        case .notACertificate(let file, let reason):
            return "\(file): not a PEM certificate (\(reason)); give a '-----BEGIN CERTIFICATE-----' file"
        case .notAPrivateKey(let file, let reason):
            return
                "\(file): not a P-256 private key (\(reason)); give a PKCS#8 or SEC1 PEM key ('openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256')"
        case .leafNotP256(let file):
            return
                "\(file): the leaf's key is not P-256; receipts are signed with ecdsa-with-SHA256, so the leaf needs a P-256 key"
        case .keyMismatch(let key, let leaf):
            return "\(key) does not match \(leaf): the private key's public half differs from the leaf's key"
        case .chainDoesNotVerify(let origin, let date, let reason):
            return "\(origin): the chain leaf.pem -> intermediate.pem -> root.pem does not verify at \(date): \(reason)"
        case .chainShape(let origin, let steps):
            return
                "\(origin): leaf.pem must be issued by intermediate.pem, and intermediate.pem by root.pem (the leaf chains to the root in \(steps) step\(steps == 1 ? "" : "s"))"
        case .noHostedContent(let store, let content, let product):
            return "the catalog of store \(store) has no hosted content '\(content)' for \(product) (run 'iapctl doctor')"
        case .hostedContentSize(let content, let product, let bytes, let store, let expected):
            return
                "hosted content '\(content)' of \(product) has \(bytes) bytes in store \(store), the download expects \(expected) (run 'iapctl doctor')"
        case .notAnAPIKey(let file):
            return
                "\(file): not a P-256 key in PEM; give the App Store Connect key (.p8, 'BEGIN PRIVATE KEY') or its public half ('BEGIN PUBLIC KEY')"
        case .receipt(let source, let reason):
            return "cannot decode receipt \(source): \(reason) (give an App Store receipt as base64 text or DER bytes)"
        case .notAP256Key(let id):
            return "the key '\(id)' is not a P-256 public key; give the .p8 or its public half"
        }
    }
}
