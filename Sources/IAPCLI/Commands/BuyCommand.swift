import IAPKit
import IAPTime

/// `iapctl buy ID`: add a payment to the queue and let the store process it.
enum BuyCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "buy",
            summary: "Buy a product: purchasing, then purchased (or failed, deferred)",
            discussion: """
                The transaction stays in the queue until finished. Exit 0 when purchased, 1 when it \
                failed (payments not allowed, an injected fault, fail-transactions, interrupted-purchases), 5 \
                when deferred (Ask to Buy). Buying a non-consumable the account owns succeeds without a new \
                charge, pointing at the first purchase. A purchased product with hosted content carries waiting \
                downloads ('iapctl downloads'); a self-hosted one runs the 'downloader' setting's command, and \
                exits 1 if it fails.

                Offers (see docs/offers.md): a promotional offer with the original signature (--offer with \
                --key-id, --nonce, --timestamp and --signature, as SKPaymentDiscount carries them) or a JWS \
                (--offer-jws), an offer code by reference name (--code-offer), a win-back offer (--win-back), \
                the introductory offer eligibility override (--intro-eligibility-jws) and the billing plan \
                (--billing-plan monthly). Signatures are checked with the store's offer keys ('iapctl \
                offer-key') on the store's clock; an offer the App Store would refuse fails the purchase with \
                StoreKit's error (11 invalidOfferIdentifier, 12 invalidSignature, 13 missingOfferParams, 14 \
                invalidOfferPrice, 18 ineligibleForOffer), exit 1. A JWS option takes the token, a file \
                holding it, or - for stdin.
                """,
            arguments: [ArgumentSpec("ID", help: "The product identifier")],
            options: [
                .value("user", "id", help: "The payment's applicationUsername (an opaque account id)"),
                .value("account", "name", help: "An account name; the user id becomes its SHA-256 (DYFStoreKit)"),
                .value(
                    "quantity", "n",
                    help: "How many, \(PurchaseQuantity.text); above 1 only for consumables (default: 1)"),
                .value("offer", "offer-id", help: "A promotional offer, signed as SKPaymentDiscount (with the four below)"),
                .value("key-id", "key-id", help: "The subscription offer key that signed --offer"),
                .value("nonce", "uuid", help: "The signature's one-time nonce (a UUID)"),
                .value("timestamp", "ms", help: "When the server signed, in milliseconds since 1970"),
                .value("signature", "base64", help: "Base64 of the DER-encoded ECDSA signature"),
                .value("offer-jws", "token", help: "A promotional offer as a JWS (promotionalOffer(_:compactJWS:))"),
                .value(
                    "intro-eligibility-jws", "token",
                    help: "A signed introductory offer eligibility override (introductoryOfferEligibility(compactJWS:))"),
                .value("code-offer", "reference-name", help: "Redeem an offer code, by the offer's reference name"),
                .value("win-back", "offer-id", help: "Redeem a win-back offer (lapsed subscribers)"),
                .value("billing-plan", "plan", help: "upFront (default) or monthly (monthly with a 12-month commitment)"),
                .value(
                    "purchase-date", "date",
                    help: "Backdate the purchase (RFC 3339 or YYYY-MM-DD, at or before the store's clock)"),
                .value(
                    "member", "name",
                    help:
                        "A family member buys a consumable, non-consumable or auto-renewable subscription for itself (its own PURCHASED transaction; a subscription is one period, auto-renew off)"
                ),
                .value(
                    "renewal-behavior", "b",
                    help: "With --purchase-date: renew-until-now (default) or cancel-immediately (one period)"),
            ],
            exclusive: [["user", "account"], ["offer", "offer-jws", "code-offer", "win-back"]],
            examples: [
                "iapctl buy com.x.coin42 --quantity 3", "iapctl buy com.x.noads --account 'Handsome Jon'",
                "iapctl buy com.x.plus.monthly --offer plus.comeback --key-id TESTKEY001 --nonce 3f2504e0-4f89-11d3-9a0c-0305e82c3301 --timestamp 1767225600000 --signature MEUCIQ...",
                "iapctl buy com.x.plus.monthly --code-offer FRIENDS", "iapctl buy com.x.plus.yearly --billing-plan monthly",
                "iapctl buy com.x.vippro --purchase-date 2025-01-01",
                "iapctl buy com.x.vippro --purchase-date 2025-06-01 --renewal-behavior cancel-immediately",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let id = ProductID(i.positional("ID") ?? "")
        guard !id.rawValue.isEmpty else { throw i.usageError("empty product identifier; give one such as com.x.coin42") }
        let user = try UserArgument.user(from: i)
        let quantity = try i.int("quantity", in: PurchaseQuantity.range) ?? 1
        let options = try OfferArguments.options(from: i, c)
        if let member = i.value("member") {
            guard options == nil, user == nil, quantity == 1 else {
                throw i.usageError(
                    "--member buys for a family member alone; drop --user, --account, --quantity and the offer and date options")
            }
            return try c.write { s throws(StoreError) -> ExitCode in
                let effects = try s.apply(.family(.buy(id, member: member)))
                guard case .payment(let payment) = effects.outcome else { return ExitCode(effects.outcome) }
                if c.json {
                    c.printJSON { TransactionJSON.write(payment.transaction, into: &$0) }
                } else {
                    c.stdout.line(TransactionText.line(payment.transaction) + "  (\(member)'s own)")
                }
                return ExitCode(effects.outcome)
            }
        }
        let command: Command =
            options.map { .buyWithOptions(id, user: user, quantity: quantity, options: $0) }
            ?? .buy(id, user: user, quantity: quantity)
        let delivery = try c.write { s throws(StoreError) -> Delivery in
            let effects = try s.apply(command)
            guard case .payment(let payment) = effects.outcome else { return Delivery(ExitCode(effects.outcome), []) }
            let t = payment.transaction
            if c.json {
                c.printJSON { TransactionJSON.write(t, into: &$0) }
            } else {
                for line in EventText.faultLines(effects) { c.stdout.line(line) }
                c.stdout.line(TransactionText.line(t))
                if case .purchased = t.state, !s.state.settings.autoFinish {
                    c.stdout.line("deliver it, then run 'iapctl finish \(t.id)'")
                }
            }
            return Delivery(ExitCode(effects.outcome), [t])
        }
        return try c.afterDelivery(delivery)
    }
}

/// `--user ID` or `--account NAME` (hashed with SHA-256, as DYFStoreKit does).
enum UserArgument {
    static func user(from i: ParsedInvocation) throws -> UserID? {
        if let account = i.value("account") {
            guard !account.isEmpty else { throw i.usageError("empty --account; give the account name to hash") }
            return UserID.forAccount(account)
        }
        if let user = i.value("user") {
            guard !user.isEmpty, user.count <= 256, !user.contains("\n") else {
                throw i.usageError("bad --user '\(user)'; give a non-empty id of at most 256 characters on one line")
            }
            return UserID(user)
        }
        return nil
    }
}

/// The offer options of `buy`, read into `PurchaseOptions` (nil when none is given).
enum OfferArguments {
    static let discountParts = ["key-id", "nonce", "timestamp", "signature"]
    /// Every option that makes `PurchaseOptions`.
    static let names =
        ["offer", "offer-jws", "intro-eligibility-jws", "code-offer", "win-back", "billing-plan"] + discountParts
        + ["purchase-date", "renewal-behavior"]

    static func options(from i: ParsedInvocation, _ c: CommandContext) throws -> PurchaseOptions? {
        guard names.contains(where: { i.isGiven($0) }) else { return nil }
        var options = PurchaseOptions()
        if let text = i.value("purchase-date") {
            guard let date = Timestamp(rfc3339: text) else {
                throw i.usageError(
                    "bad --purchase-date '\(text)'; write RFC 3339 such as 2025-03-01T12:00:00Z, or a date such as 2025-03-01")
            }
            options.purchaseDate = date
        }
        if let behavior = try i.choice("renewal-behavior", among: PurchaseOptions.RenewalBehavior.names) {
            guard options.purchaseDate != nil else {
                throw i.usageError("--renewal-behavior needs --purchase-date (it says what a backdated subscription does)")
            }
            options.renewalBehavior = PurchaseOptions.RenewalBehavior(rawValue: behavior)!
        }
        if let plan = i.value("billing-plan") {
            guard let parsed = BillingPlanType(rawValue: plan) else {
                throw i.usageError("unknown --billing-plan '\(plan)'; use upFront or monthly")
            }
            options.billingPlan = parsed
        }
        if let offer = i.value("offer") {
            guard !offer.isEmpty else { throw i.usageError("empty --offer; give the promotional offer's identifier") }
            var nonce: OfferNonce?
            if let text = i.value("nonce") {
                guard let parsed = OfferNonce(text) else {
                    throw i.usageError(
                        "bad --nonce '\(text)'; give the UUID the server signed, such as 3f2504e0-4f89-11d3-9a0c-0305e82c3301")
                }
                nonce = parsed
            }
            var timestamp: Int64?
            if let text = i.value("timestamp") {
                guard let ms = Int64(text), ms >= 0 else {
                    throw i.usageError(
                        "bad --timestamp '\(text)'; give the signing time in milliseconds since 1970, such as 1767225600000")
                }
                timestamp = ms
            }
            options.offer = .promotional(
                PaymentDiscount(
                    offerID: OfferID(offer), keyID: i.value("key-id"), nonce: nonce, timestamp: timestamp,
                    signature: i.value("signature")))
        } else if let part = discountParts.first(where: i.isGiven) {
            throw i.usageError("--\(part) belongs to a promotional offer; give --offer OFFER_ID with it")
        }
        if let token = i.value("offer-jws") { options.offer = .promotionalJWS(try text(token, option: "--offer-jws", c)) }
        if let token = i.value("intro-eligibility-jws") {
            options.introductoryEligibilityJWS = try text(token, option: "--intro-eligibility-jws", c)
        }
        if let name = i.value("code-offer") {
            guard !name.isEmpty else { throw i.usageError("empty --code-offer; give the offer code's reference name") }
            options.offer = .code(referenceName: name)
        }
        if let id = i.value("win-back") {
            guard !id.isEmpty else { throw i.usageError("empty --win-back; give the win-back offer's identifier") }
            options.offer = .winBack(OfferID(id))
        }
        return options
    }

    /// A JWS option's token: the token itself, a file holding it, or `-` for stdin.
    static func text(_ argument: String, option: String, _ c: CommandContext) throws -> String {
        let raw: String
        if argument == "-" {
            raw = String(decoding: c.standardInput(), as: UTF8.self)
        } else if JWSArgument.looksLikeToken(argument) {
            raw = argument
        } else {
            raw = String(decoding: try JWSArgument.read(argument, holding: "a file holding the \(option) token"), as: UTF8.self)
        }
        return String(raw.unicodeScalars.filter { !$0.properties.isWhitespace })
    }
}
