import IAPKit

/// `iapctl offer-key add|list|remove`: the app's subscription offer keys, which the store checks
/// promotional offer signatures and signed introductory offer eligibility with.
enum OfferKeyCommand {
    static let group = CommandSpec(
        name: "offer-key",
        summary: "Subscription offer keys: add (a .p8 or its public half), list, remove",
        discussion: """
            The app's server signs promotional offers (both signature forms) and introductory offer eligibility \
            with its App Store Connect in-app purchase key, the .p8 it downloaded once; the App Store checks the \
            signature with the key the signature names (SKPaymentDiscount's keyIdentifier, the JWS header's \
            kid). The store keeps only public halves. A store created from an Xcode .storekit file with a \
            subscriptionOffersKeyPair starts with that key.
            """,
        subcommands: [add.spec, list.spec, remove.spec]
    )

    static let children = [add, list, remove]

    static let add = CommandDefinition(
        CommandSpec(
            name: "add",
            summary: "Add a subscription offer key under its key id",
            discussion:
                "FILE is the App Store Connect key (SubscriptionKey_KEYID.p8, 'BEGIN PRIVATE KEY'), a SEC1 'BEGIN EC PRIVATE KEY', or the public half ('BEGIN PUBLIC KEY'). A key with the same id is replaced.",
            arguments: [
                ArgumentSpec("KEY_ID", help: "The key identifier signatures name (App Store Connect's Key ID)"),
                ArgumentSpec("FILE", help: "The key file"),
            ],
            examples: ["iapctl offer-key add 2X9R4HXF34 SubscriptionKey_2X9R4HXF34.p8", "iapctl offer-key add K1 key.pub.pem"]
        ), run: runAdd)

    static let list = CommandDefinition(
        CommandSpec(
            name: "list",
            summary: "List the store's subscription offer keys",
            discussion:
                "FINGERPRINT is the SHA-256 of the public key's SubjectPublicKeyInfo DER (openssl pkey -pubout -outform DER | sha256sum).",
            examples: ["iapctl offer-key list --json"]
        ), run: runList)

    static let remove = CommandDefinition(
        CommandSpec(
            name: "remove",
            summary: "Remove a subscription offer key",
            arguments: [ArgumentSpec("KEY_ID", help: "The key identifier")],
            examples: ["iapctl offer-key remove 2X9R4HXF34"]
        ), run: runRemove)

    static func runAdd(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = i.positional("KEY_ID") ?? ""
        guard SubscriptionOfferKey.isValidID(id) else { throw i.usageError(OfferKeyError.badID(id).description) }
        let path = i.positional("FILE") ?? ""
        guard !path.isEmpty else { throw i.usageError("empty FILE; give the key file (.p8) or its public key PEM") }
        let text = String(
            decoding: try JWSArgument.read(path, holding: "a subscription offer key (.p8) or its public key PEM"), as: UTF8.self)
        let key: SubscriptionOfferKey
        let source: SubscriptionOfferKey.Source
        do {
            (key, source) = try SubscriptionOfferKey.read(pem: text, id: id, name: path)
        } catch {
            throw StoreError.badInput(.offerKeyFile(reason: error.description))
        }
        let record = OfferKeyRecord(key, origin: source == .privateKey ? .privateKeyFile : .publicKeyFile)
        return try c.write { s throws(StoreError) in
            let effects = try s.apply(.addOfferKey(record))
            if c.json {
                c.printJSON { OfferJSON.writeKey(record, into: &$0) }
            } else {
                let half = source == .privateKey ? " (its public half; the private key is not kept)" : ""
                c.stdout.line("offer key \(record.id) added from \(path)\(half), fingerprint \(record.fingerprint)")
            }
            return ExitCode(effects.outcome)
        }
    }

    static func runList(_ c: CommandContext) throws -> ExitCode {
        try c.read { s throws(StoreError) in
            let keys = s.state.offers.orderedKeys
            if c.json {
                c.printJSON { w in
                    w.beginArray()
                    for k in keys { OfferJSON.writeKey(k, into: &w) }
                    w.endArray()
                }
            } else if keys.isEmpty {
                c.stdout.line("no subscription offer keys (add one with 'iapctl offer-key add KEY_ID FILE')")
            } else {
                var table = TextTable(["KEY ID", "FROM", "FINGERPRINT"])
                for k in keys { table.add([k.id, k.origin.rawValue, k.fingerprint]) }
                c.stdout.write(table.rendered)
            }
            return .success
        }
    }

    static func runRemove(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = i.positional("KEY_ID") ?? ""
        return try c.write { s throws(StoreError) in
            let record = s.state.offers.keys[id]
            let effects = try s.apply(.removeOfferKey(id))
            if c.json {
                c.printJSON { w in
                    if let record { OfferJSON.writeKey(record, into: &w) } else { w.null() }
                }
            } else {
                c.stdout.line("offer key \(id) removed")
            }
            return ExitCode(effects.outcome)
        }
    }
}
