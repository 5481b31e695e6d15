import IAPCrypto
import IAPKit

/// `iapctl verify`: RMStore's local app receipt verifier, check by check (REFERENCE section 5).
enum VerifyCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "verify",
            summary: "Verify a receipt locally (RMStore's app receipt verifier), printing every check",
            discussion: """
                Checks, in order: signature (the PKCS#7 signature over the payload: ECDSA, or RSA with SHA-1 or \
                SHA-256 as Apple signs), chain (signer -> embedded intermediates -> the root, each link's signature, \
                valid at the receipt's creation date; Apple Inc. Root for the App Store's receipts), appleMarkers \
                (Apple's leaf and intermediate OIDs; skipped when the signer is the self-signed root, as in Xcode's \
                receipts), bundleId, appVersion, hash (SHA-1 of device id, opaque value and bundle id), and with \
                --transaction or --product that the receipt holds them. A receipt from a real device needs that \
                device's identifierForVendor (--device-id) for the hash. Defaults come from the store: its receipt, \
                its signing root, bundle id, app version and device-id setting. The verification is recorded as a \
                receiptVerified or receiptVerificationFailed event, and an armed verification fault fails it. Exit 0 \
                when every check passed, 1 when one failed, 65 for a malformed receipt or certificate, 66 for a \
                missing file.
                """,
            options: [
                .value("receipt", "file", help: "The receipt to verify, base64 or DER, - for stdin (default: the store's)"),
                .value("transaction", "id", help: "Check that the receipt holds this transaction"),
                .value("product", "id", help: "Check that the receipt holds a purchase of this product"),
                .value("root", "cert", help: "The trusted root certificate, PEM or DER (default: the store's signing root)"),
                .value("bundle-id", "id", help: "The app's bundle id (default: the store's)"),
                .value("app-version", "version", help: "The app's version, CFBundleVersion (default: the store's)"),
                .value(
                    "device-id", "hex", help: "The device's identifierForVendor, 32 hex digits or a UUID (default: the store's)"),
            ],
            examples: [
                "iapctl verify", "iapctl verify --transaction 2000000000000001 --json",
                "iapctl verify --receipt Fixtures/vectors/xcode-app-receipt-with-transaction --root Fixtures/vectors/StoreKitTestCertificate.pem",
                "iapctl verify --receipt receipt.b64 --root AppleIncRootCertificate.cer --bundle-id com.example.app --app-version 2 --device-id 956328D9-CC6A-47F4-BE40-6953FB0AB6C7",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        for name in ["transaction", "product", "bundle-id", "app-version"] {
            if let v = i.value(name), v.isEmpty { throw i.usageError("empty --\(name); give a value or leave the option out") }
        }
        var deviceID: [UInt8]?
        if let text = i.value("device-id") {
            guard let bytes = DeviceIdentifier.parse(text) else {
                throw i.usageError(
                    "bad --device-id '\(text)'; give 32 hex digits or a UUID such as 8E3A1F0C-5B7D-4C21-9A6E-2F4B8D1C7E90")
            }
            deviceID = bytes
        }
        let given = try i.value("receipt").map { try ReceiptArgument.decode($0, c).0 }
        let root = try i.value("root").map(RootArgument.certificate)
        return try c.write { s throws(StoreError) in
            let decoded: DecodedReceipt
            if let given { decoded = given } else { decoded = try StoreReceiptDecoding.decoded(s) }
            let trusted: Certificate
            if let root { trusted = root } else { trusted = try s.signingIdentity().root }
            let expectations = ReceiptExpectations(
                root: trusted, bundleID: i.value("bundle-id") ?? s.state.bundleID,
                appVersion: i.value("app-version") ?? s.state.appVersion, deviceID: deviceID ?? s.state.deviceIdentifier,
                deviceIDIsAssumed: deviceID == nil && given != nil, transactionID: i.value("transaction"),
                productID: i.value("product"))
            let report = ReceiptVerifier.verify(decoded, expecting: expectations)
            let record = ReceiptVerificationRecord(
                method: .local, transactionID: i.value("transaction").flatMap(TransactionID.init(parsing:)),
                productID: i.value("product").map(ProductID.init),
                error: report.firstFailure.map {
                    ReceiptVerificationRecord.invalidReceipt("The app receipt is invalid: \($0.name): \($0.detail)")
                })
            let effects = try s.apply(.receipt(.recordVerification(record)))
            let fault = effects.firedFaults.first?.error
            let valid = report.isValid && fault == nil
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key("valid")
                    w.bool(valid)
                    ReceiptCheckJSON.writeChecks(report.checks, into: &w)
                    w.key("fault")
                    if let fault { TransactionJSON.writeError(fault, into: &w) } else { w.null() }
                    w.key("deviceIdentifier")
                    w.string(DeviceIdentifier.uuidString(expectations.deviceID))
                    w.endObject()
                }
            } else {
                for check in report.checks {
                    c.stdout.line(
                        check.name.padded(to: 14)
                            + check.verdict.rawValue.padded(to: 6) + check.detail)
                }
                for line in EventText.faultLines(effects) { c.stdout.line(line) }
                if let fault {
                    c.stdout.line("invalid: an injected verification fault failed it: \(fault)")
                } else if let failure = report.firstFailure {
                    c.stdout.line("invalid: \(failure.name) failed")
                } else {
                    c.stdout.line("valid")
                }
            }
            return valid ? .success : .declined
        }
    }
}

/// The store's own receipt, built and read back through the same decoder as any other.
enum StoreReceiptDecoding {
    static func decoded(_ s: StoreSession) throws(StoreError) -> DecodedReceipt {
        let (der, _) = try StoreReceipt.build(s)
        do {
            return try DecodedReceipt.decode(der)
        } catch {
            throw error.storeError(source: "of store \(s.storePath)")
        }
    }
}

/// `--root CERT`: a certificate file, PEM or DER.
enum RootArgument {
    static func certificate(_ path: String) throws -> Certificate {
        let bytes = try JWSArgument.read(
            path, holding: "the trusted root certificate for --root, PEM or DER, such as AppleRootCA-G3.cer")
        do {
            if bytes.first == 0x30 { return try Certificate(der: bytes) }
            return try Certificate(pemRepresentation: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw StoreError.badInput(.notARootCertificate(file: path, reason: "\(error)"))
        }
    }
}
