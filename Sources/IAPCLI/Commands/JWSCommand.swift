import IAPCrypto
import IAPKit
import IAPTime

/// `iapctl jws TXID`, `iapctl jws renewal ID` and `iapctl jws decode TOKEN|FILE|-`: StoreKit 2
/// signed data (REFERENCE section 7): the store's signed transactions and renewal infos, and
/// reading and verifying any JWS, Apple's and Xcode's included. See docs/signed.md.
enum JWSCommand {
    static let group = CommandSpec(
        name: "jws",
        summary: "Print a signed transaction (JWS) or renewal info, or decode and verify any JWS",
        discussion: """
            'iapctl jws TXID' prints the transaction's signedTransactionInfo as the App Store Server API returns \
            it: a compact JWS, ES256 over the payload with the store's signing chain in x5c (the chain that \
            signs its receipts). 'iapctl jws renewal ID' prints a subscription's signedRenewalInfo. Both are \
            signed at the store's clock, so the same store gives the same bytes. 'iapctl jws decode' reads \
            any JWS and with --root verifies it as Apple's SignedDataVerifier does. See docs/signed.md.
            """,
        subcommands: [show.spec, renewal.spec, appTransaction.spec, decode.spec],
        defaultSubcommand: "show"
    )

    static let children = [show, renewal, appTransaction, decode]

    static let show = CommandDefinition(
        CommandSpec(
            name: "show",
            summary: "Print a transaction's signedTransactionInfo ('iapctl jws TXID' for short)",
            discussion: """
                Only purchased and restored transactions have signed data: a payment that failed, is \
                deferred or still purchasing never reached the App Store (exit 4). With --json: \
                {"transactionIdentifier", "signedTransactionInfo", "header", "payload"}.
                """,
            arguments: [ArgumentSpec("TXID", help: "The transaction identifier")],
            options: [MemberOption.spec],
            examples: [
                "iapctl jws 2000000000000001", "iapctl jws 2000000000000001 --json | jq .payload",
                "iapctl jws 2000000000000001 --member alex",
            ]
        ), run: runShow)

    static let renewal = CommandDefinition(
        CommandSpec(
            name: "renewal",
            summary: "Print an auto-renewable subscription's signedRenewalInfo",
            discussion: """
                ID is a product of the subscription's group, its original transaction id, or the id of any \
                of its transactions. With --json: {"originalTransactionIdentifier", "signedRenewalInfo", \
                "header", "payload"}.
                """,
            arguments: [ArgumentSpec("ID", help: "A product id of the subscription's group, or one of its transaction ids")],
            examples: ["iapctl jws renewal com.x.vip2", "iapctl jws renewal 2000000000000001 --json"]
        ), run: runRenewal)

    static let appTransaction = CommandDefinition(
        CommandSpec(
            name: "app-transaction",
            summary: "Print the store's signed AppTransaction (signedAppTransactionInfo)",
            discussion: """
                The AppTransaction that Get App Transaction Info returns: the app's versions, its original \
                purchase date, the account's appTransactionId (the one in every signed transaction), signed \
                at the store's clock (its receiptCreationDate). --app-apple-id puts the app's Apple ID in, \
                as 'iapctl serve --app-apple-id' does. With --json: {"signedAppTransactionInfo", "header", \
                "payload"}.
                """,
            options: [.value("app-apple-id", "n", help: "The appAppleId to put in (default: none, as in sandbox)")],
            examples: ["iapctl jws app-transaction", "iapctl jws app-transaction --app-apple-id 1234567890 --json"]
        ), run: runAppTransaction)

    static let decode = CommandDefinition(
        CommandSpec(
            name: "decode",
            summary: "Decode a JWS (token, file or - for stdin); verify it with --root",
            discussion: """
                Prints the header, every x5c certificate (subject, issuer, key, signature algorithm, validity, \
                Apple markers) and the payload. With --root CERT (PEM or DER; Apple Root CA - G3 for the App \
                Store's data) it also verifies, as Apple's SignedDataVerifier does with online checks off: \
                algorithm (ES256), certificates (x5c), chain (x5c to the root, each link's signature, every \
                certificate valid at the payload's signedDate; without one, at --at DATE or else now), \
                appleMarkers (Apple's leaf and intermediate OIDs; skipped for Xcode's one self-signed \
                certificate, which must be the root) and signature; with --bundle-id, --environment and \
                --app-apple-id also bundleId and environment, the app checks the verifier makes with the \
                values it is built with. Exit 0 when it verified (or was only \
                decoded), 1 when a check failed, 65 for text that is not a JWS, 66 for a missing file. Needs \
                no store.
                """,
            arguments: [ArgumentSpec("JWS", help: "The token itself, a file holding it, or - for stdin")],
            options: [
                .value("root", "cert", help: "The trusted root certificate, PEM or DER: verify, not only decode"),
                .value(
                    "at", "date",
                    help: "Check the certificates at this RFC 3339 time when the payload has no signedDate (default: now)"),
                .value("bundle-id", "id", help: "Also check the app's bundle id, as SignedDataVerifier's bundle_id does"),
                .value(
                    "environment", "env", help: "Also check the environment: Sandbox, Production, Xcode or LocalTesting"),
                .value("app-apple-id", "n", help: "With --environment Production: also check a notification's appAppleId"),
                .flag(
                    "strict",
                    help:
                        "Also apply OpenSSL's strict X.509 profile, as Apple's Python SignedDataVerifier does (X509_STRICT)"),
            ],
            examples: [
                "iapctl jws 2000000000000001 | iapctl jws decode - --root Fixtures/signing/root.pem",
                "iapctl jws decode notification.jws --root AppleRootCA-G3.cer --at 2022-03-04T09:43:28Z",
                "iapctl jws decode Fixtures/vectors/xcode-signed-transaction --root Fixtures/vectors/xcode-jws-certificate.pem",
            ]
        ), run: runDecode)

    // MARK: - jws TXID

    static func runShow(_ c: CommandContext) throws -> ExitCode {
        let id = try TransactionArgument.id(c.invocation.positional("TXID"), in: c.invocation)
        return try c.read { s throws(StoreError) in
            guard var t = try s.transaction(id) else { throw .unknownTransaction(id) }
            if let member = try MemberOption.member(c, in: s.state), t.familyMember != member {
                // The member's copy of the account's purchase TXID (its latest FAMILY_SHARED one).
                guard t.familyMember == nil,
                    let share = s.state.familyGroup.shares.first(where: {
                        $0.member == member && ($0.purchaserLatestID == id || $0.purchaserOriginalID == id)
                    })
                else {
                    throw .missing(.noSharedTransaction(member: member, id))
                }
                t = share.latest
            }
            guard AppStoreServerAPI.isKnown(t) else {
                throw .refused(.unsigned(id, state: t.state.name))
            }
            let token = try StoreTransactionSigner(session: s).signer.sign(
                SignedTransactionPayload.bytes(t, context: SignedDataContext(state: s.state)))
            printToken(token, key: "signedTransactionInfo", id: ("transactionIdentifier", t.id.description), c)
            return .success
        }
    }

    // MARK: - jws app-transaction

    static func runAppTransaction(_ c: CommandContext) throws -> ExitCode {
        let appAppleID = try c.invocation.int("app-apple-id", in: 1...Int.max).map { Int64($0) }
        if let failed = try FaultGate.fire(c, .appTransaction) { return failed }
        return try c.read { s throws(StoreError) in
            let token = try StoreTransactionSigner(session: s).signer.sign(
                AppTransactionPayload.bytes(
                    try AppTransactionPayload.content(session: s, appAppleID: appAppleID),
                    context: SignedDataContext(state: s.state)))
            printToken(token, key: "signedAppTransactionInfo", id: nil, c)
            return .success
        }
    }

    // MARK: - jws renewal ID

    static func runRenewal(_ c: CommandContext) throws -> ExitCode {
        let word = c.invocation.positional("ID") ?? ""
        guard !word.isEmpty else {
            throw c.invocation.usageError("empty subscription id; give a product id such as com.x.vip2 or a transaction id")
        }
        if let failed = try FaultGate.fire(c, .subscriptionStatus, product: ProductID(word)) { return failed }
        return try c.read { s throws(StoreError) in
            var ref = SubscriptionReference(parsing: word)
            // A family member's own subscription (`buy --member`) is not the account's: its
            // renewal info comes from its one period (docs/family.md).
            if case .originalTransaction(let id) = ref, let t = try s.transaction(id), t.isMemberPurchase,
                t.productType == .autoRenewable
            {
                let info = try StoreTransactionSigner.renewalInfo(of: t, session: s)
                let token = try StoreTransactionSigner(session: s).signer.sign(
                    SignedRenewalInfoPayload.bytes(info, context: SignedDataContext(state: s.state)))
                printToken(token, key: "signedRenewalInfo", id: ("originalTransactionIdentifier", t.originalID.description), c)
                return .success
            }
            // Any transaction of the subscription names it, as its original id does.
            if case .originalTransaction(let id) = ref, s.state.subscriptions[id] == nil, let t = try s.transaction(id),
                t.productType == .autoRenewable
            {
                ref = .originalTransaction(t.originalID)
            }
            let original = try s.machine.subscriptionID(ref)
            let info = try StoreTransactionSigner.renewalInfo(original: original, session: s)
            let token = try StoreTransactionSigner(session: s).signer.sign(
                SignedRenewalInfoPayload.bytes(info, context: SignedDataContext(state: s.state)))
            printToken(token, key: "signedRenewalInfo", id: ("originalTransactionIdentifier", original.description), c)
            return .success
        }
    }

    /// The token on one line, or with --json the token with its decoded header and payload.
    private static func printToken(_ token: String, key: String, id: (key: String, value: String)?, _ c: CommandContext) {
        guard c.json else {
            c.stdout.line(token)
            return
        }
        // The token was just made, so it parses.
        let jws = try? CompactJWS(parsing: token)
        c.printJSON { w in
            w.beginObject()
            if let id {
                w.key(id.key)
                w.string(id.value)
            }
            w.key(key)
            w.string(token)
            w.key("header")
            w.value(jws?.header ?? .null)
            w.key("payload")
            w.value(jws?.payload ?? .null)
            w.endObject()
        }
    }

    // MARK: - jws decode

    static func runDecode(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let argument = i.positional("JWS") ?? "-"
        guard !argument.isEmpty else { throw i.usageError("empty JWS; give a token, a file holding one, or - for stdin") }
        var given: Timestamp?
        if let text = i.value("at") {
            guard let t = Timestamp(rfc3339: text) else {
                throw i.usageError(
                    "bad --at '\(text)'; write RFC 3339 such as 2022-03-04T09:43:28Z, or a date such as 2022-03-04")
            }
            given = t
        }
        if let b = i.value("bundle-id"), b.isEmpty { throw i.usageError("empty --bundle-id; give the app's bundle id") }
        let expectations = SignedAppExpectations(
            bundleID: i.value("bundle-id"),
            environment: try i.choice("environment", among: ["Sandbox", "Production", "Xcode", "LocalTesting"]),
            appAppleID: try i.int("app-apple-id", in: 1...Int.max).map(Int64.init))
        let jws = try JWSArgument.parse(argument, c)
        let root = try i.value("root").map(RootArgument.certificate)
        if root == nil && !expectations.isEmpty {
            throw i.usageError("--bundle-id, --environment and --app-apple-id check a verification; give --root too")
        }
        if root == nil && i.flag("strict") { throw i.usageError("--strict changes a verification; give --root too") }
        // Apple's verifier checks a payload without a signing date at the current time; the
        // clock is read here, in the CLI, and only then.
        let fallback: VerificationTime?
        if let given {
            fallback = VerificationTime(given, .given)
        } else if root != nil && jws.signingDate == nil {
            fallback = VerificationTime(WallClock.now(), .now)
        } else {
            fallback = nil
        }
        if let given, let signed = jws.signingDate, root != nil {
            c.warn(
                "--at \(given.rfc3339) is not used: the payload's \(signed.field) (\(signed.date.rfc3339)) is the time Apple's verifier checks the certificates at"
            )
        }
        let time = root == nil ? nil : VerificationTime.resolve(jws, fallback: fallback)
        let report = root.map {
            JWSVerifier.verify(jws, root: $0, at: fallback, expecting: expectations, strict: i.flag("strict"))
        }
        if c.json {
            c.printJSON { w in
                w.beginObject()
                w.key("header")
                w.value(jws.header)
                w.key("certificates")
                w.beginArray()
                for entry in JWSCertificates(jws).entries {
                    switch entry {
                    case .success(let certificate): CertificateJSON.write(certificate, into: &w)
                    case .failure: w.null()
                    }
                }
                w.endArray()
                w.key("payload")
                w.value(jws.payload)
                w.key("signature")
                w.string(Base64URL.encode(jws.signature))
                w.key("verification")
                if let report {
                    w.beginObject()
                    w.key("valid")
                    w.bool(report.isValid)
                    ReceiptCheckJSON.writeChecks(report.checks, into: &w)
                    w.key("time")
                    if let time {
                        w.beginObject()
                        w.key("date")
                        w.string(time.date.rfc3339)
                        w.key("timestamp")
                        w.int(time.date.milliseconds)
                        w.key("source")
                        w.string(time.source.rawValue)
                        w.endObject()
                    } else {
                        w.null()
                    }
                    w.endObject()
                } else {
                    w.null()
                }
                w.endObject()
            }
        } else {
            for line in JWSText.lines(jws) { c.stdout.line(line) }
            if let report {
                for check in report.checks {
                    c.stdout.line(
                        check.name.padded(to: 14)
                            + check.verdict.rawValue.padded(to: 6) + check.detail)
                }
                c.stdout.line(report.firstFailure.map { "invalid: \($0.name) failed" } ?? "valid")
            }
        }
        return report?.isValid == false ? .declined : .success
    }
}

/// A JWS named on the command line: `-` for stdin, a readable file, or the token itself.
enum JWSArgument {
    static func parse(_ argument: String, _ c: CommandContext) throws -> CompactJWS {
        let text: String
        let source: String
        if argument == "-" {
            text = String(decoding: c.standardInput(), as: UTF8.self)
            source = "stdin"
        } else if looksLikeToken(argument) {
            text = argument
            source = "the JWS argument"
        } else {
            text = String(decoding: try read(argument, holding: "a file holding a compact JWS"), as: UTF8.self)
            source = "'\(argument)'"
        }
        do throws(JWSError) {
            return try CompactJWS(parsing: text)
        } catch {
            throw StoreError.badInput(.notAJWS(source: source, reason: "\(error)"))
        }
    }

    /// The bytes of a file the command line names; exit 66 naming what the file should hold.
    static func read(_ path: String, holding what: String) throws(StoreError) -> [UInt8] {
        do {
            return try ReceiptFile.read(path)
        } catch {
            guard case .unreadable(let p, let reason) = error else { throw error }
            if reason.hasPrefix("no such file") { throw .unreadable(path: p, reason: "no such file (give \(what))") }
            if reason.hasPrefix("is a directory") { throw .unreadable(path: p, reason: "is a directory, not \(what)") }
            throw error
        }
    }

    /// Two dots and only base64url characters: a token, not a path (a path has '/' or few dots).
    static func looksLikeToken(_ text: String) -> Bool {
        var dots = 0
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: "-"), UInt8(ascii: "_"), 0x30...0x39, 0x41...0x5A, 0x61...0x7A: continue
            default: return false
            }
        }
        return dots == 2 && text.utf8.count > 16
    }
}
