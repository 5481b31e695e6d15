import IAPTime
import Testing

@testable import IAPKit

/// Purchases with offers on the machine, with `Fixtures/offers/catalog.json` and its key
/// `TESTKEY001`: every signature is made by Apple's own creators (`AppleOfferSigner`), each
/// purchase is checked in whole (the transaction's offer fields, the prices period by period
/// until the regular price, the renewal info, the server notification).
@Suite("Purchases with offers")
struct OfferPurchaseTests {
    static let catalog = try! CatalogLoader.load(
        bytes: try! StoreKitFixture.bytes("offers/catalog.json"), file: "offers/catalog.json")
    static let monthly = "com.x.plus.monthly"
    static let yearly = "com.x.plus.yearly"
    static let nonces = (1...9).map { "3f2504e0-4f89-11d3-9a0c-0305e82c330\($0)" }

    /// A machine on the offers catalog holding the key, as a store created from it does.
    static func harness() throws -> MachineHarness {
        var h = MachineHarness(catalog: catalog)
        try h.apply(.addOfferKey(OfferKeyRecord(OfferFixtures.key, origin: .catalog)))
        return h
    }

    /// An `SKPaymentDiscount` signed by Apple's `PromotionalOfferSignatureCreator` at the store's clock.
    static func discount(
        _ h: MachineHarness, product: String = monthly, offer: String, nonce: String, username: String = "",
        timestamp: Int64? = nil, keyPEM: String = OfferFixtures.keyPEM
    ) throws -> PaymentDiscount {
        let ts = timestamp ?? h.state.clock.milliseconds
        let signature = try AppleOfferSigner.sign(
            .legacy(
                keyPEM: keyPEM, keyID: "TESTKEY001", bundleID: h.state.bundleID, productID: product, offerID: offer,
                username: username, nonce: nonce, timestamp: ts))
        return PaymentDiscount(
            offerID: OfferID(offer), keyID: "TESTKEY001", nonce: OfferNonce(nonce), timestamp: ts, signature: signature)
    }

    /// Makes the account a lapsed subscriber of the group: the free week of the monthly product,
    /// auto-renew off, expired. Returns the subscription's original transaction id.
    static func lapse(_ h: inout MachineHarness) throws -> TransactionID {
        let first = try h.buy(monthly)
        try h.apply(.setAutoRenew(.product(ProductID(monthly)), on: false))
        try h.advance("P1M")
        return first.id
    }

    @discardableResult
    static func buy(_ h: inout MachineHarness, _ product: String, _ options: PurchaseOptions) throws -> Transaction {
        // The new transaction: the newest id (an upgrade also changes the one it replaces).
        try h.apply(.buyWithOptions(ProductID(product), user: nil, quantity: 1, options: options)).transactions.max {
            $0.id < $1.id
        }!
    }

    /// The error code a failed transaction carries.
    static func errorCode(_ t: Transaction) -> Int? {
        if case .failed(let e) = t.state { return e.code }
        return nil
    }

    /// The periods of a subscription so far: price and offer type of each purchase and renewal.
    static func periods(_ h: MachineHarness, _ original: TransactionID) -> [String] {
        // Re-buying the active product charges nothing and opens no period (its price is not zero).
        h.transactions.filter { $0.originalID == original && $0.state == .purchased && ($0.charged || $0.price == .zero) }
            .map { "\($0.price.decimalString(fractionDigits: 2)) \($0.offerType?.name ?? "-") \($0.offerID?.rawValue ?? "-")" }
    }

    static func notifications(_ h: MachineHarness, after seq: UInt64 = 0) -> [String] {
        h.events.filter { $0.seq > seq }.compactMap(\.kind.serverNotification).map {
            [$0.type, $0.subtype].compactMap { $0 }.joined(separator: " ")
        }
    }

    // MARK: - Promotional offers

    @Test(
        "a promotional offer signed by Apple's creator, for a lapsed subscriber: 3 months at 4.99, then 9.99; OFFER_REDEEMED RESUBSCRIBE"
    )
    func promotionalPayAsYouGo() throws {
        var h = try Self.harness()
        // A new subscriber may not: promotional offers are for current and lapsed subscribers.
        let d = try Self.discount(h, offer: "plus.comeback", nonce: Self.nonces[0])
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotional(d)))) == 18)
        #expect(h.state.offers.spentNonces.isEmpty, "a refused purchase spends no nonce")
        let original = try Self.lapse(&h)
        let start = h.events.last!.seq
        // Signed again a month later, with the nonce the refused purchase left unspent.
        let now = try Self.discount(h, offer: "plus.comeback", nonce: Self.nonces[0])
        let t = try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotional(now)))
        #expect(t.state == .purchased)
        #expect(t.price == Price(decimal: "4.99")!)
        #expect(t.offerType == .promotional && t.offerID == OfferID("plus.comeback") && t.offer == .payAsYouGo)
        #expect(t.offerPeriod == SubscriptionPeriod(iso8601: "P3M") && t.originalID == original)
        #expect(Self.notifications(h, after: start) == ["OFFER_REDEEMED RESUBSCRIBE"])
        let sub = try #require(h.subscription(Self.monthly))
        let info = RenewalInfo(
            sub, offers: h.state.offers.subscriptions[sub.originalID], storefront: "USA", catalog: Self.catalog,
            now: h.state.clock)
        #expect(
            info.renewalOffer
                == RenewalOffer(
                    type: .promotional, id: OfferID("plus.comeback"), kind: .payAsYouGo,
                    period: SubscriptionPeriod(iso8601: "P3M")))
        #expect(info.renewalPrice == Price(decimal: "4.99"))
        let seq = h.events.last!.seq
        try h.advance("P1M", times: 4)
        #expect(
            Self.periods(h, original) == [
                "0.00 introductory -", "4.99 promotional plus.comeback", "4.99 promotional plus.comeback",
                "4.99 promotional plus.comeback", "9.99 - -",
                "9.99 - -",
            ])
        #expect(Self.notifications(h, after: seq) == ["DID_RENEW", "DID_RENEW", "DID_RENEW", "DID_RENEW"])
        let renewed = h.transactions.filter { $0.originalID == original && $0.reason == .renewal }
        #expect(renewed[0].offerType == .promotional && renewed[0].offerID == OfferID("plus.comeback"))
        #expect(renewed[2].offerType == nil && renewed[2].offerPeriod == nil)
    }

    @Test("refusals are StoreKit's: 11 unknown offer, 13 missing part, 12 bad signature, wrong key, old, replayed nonce")
    func promotionalRefusals() throws {
        var h = try Self.harness()
        let unknown = try Self.discount(h, offer: "plus.nope", nonce: Self.nonces[0])
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotional(unknown)))) == 11)
        let missing = PaymentDiscount(
            offerID: OfferID("plus.comeback"), keyID: "TESTKEY001", nonce: OfferNonce(Self.nonces[1]), timestamp: nil,
            signature: "MEUCIQ")
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotional(missing)))) == 13)
        // Signed for another offer: the signature does not verify for this one.
        let other = try Self.discount(h, offer: "plus.free", nonce: Self.nonces[2])
        let swapped = PaymentDiscount(
            offerID: OfferID("plus.comeback"), keyID: other.keyID, nonce: other.nonce, timestamp: other.timestamp,
            signature: other.signature)
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotional(swapped)))) == 12)
        let wrongKey = try Self.discount(h, offer: "plus.comeback", nonce: Self.nonces[3], keyPEM: OfferFixtures.otherKeyPEM)
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotional(wrongKey)))) == 12)
        let old = try Self.discount(
            h, offer: "plus.comeback", nonce: Self.nonces[4], timestamp: h.state.clock.milliseconds - 25 * 3_600_000)
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotional(old)))) == 12)
        // Nothing was charged and no subscription began.
        #expect(h.subscription(Self.monthly) == nil && h.state.offers.spentNonces.isEmpty)
        _ = try Self.lapse(&h)
        let good = try Self.discount(h, offer: "plus.comeback", nonce: Self.nonces[5])
        #expect(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotional(good))).state == .purchased)
        try h.apply(.setAutoRenew(.product(ProductID(Self.monthly)), on: false))
        try h.advance("P2M")
        let replay = try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotional(good)))
        #expect(Self.errorCode(replay) == 12, "a nonce is single-use (and the signature too old by now)")
        let fresh = try Self.discount(h, offer: "plus.comeback", nonce: Self.nonces[5])
        let reused = try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotional(fresh)))
        #expect(Self.errorCode(reused) == 12)
        if case .failed(let e) = reused.state { #expect(e.message.contains("already used")) }
    }

    @Test("the JWS promotional offer (PromotionalOfferV2SignatureCreator), with and without transactionId")
    func promotionalJWS() throws {
        var h = try Self.harness()
        let original = try Self.lapse(&h)
        let iat = h.state.clock.milliseconds / 1000
        let token = try AppleOfferSigner.sign(
            .promotionalV2(
                keyPEM: OfferFixtures.keyPEM, keyID: "TESTKEY001", issuerID: OfferFixtures.issuerID, bundleID: h.state.bundleID,
                productID: Self.monthly, offerID: "plus.halfyear", transactionID: nil, nonce: Self.nonces[0], iat: iat))
        let t = try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotionalJWS(token)))
        #expect(t.state == .purchased && t.price == Price(decimal: "29.99")! && t.offer == .payUpFront)
        #expect(t.offerType == .promotional && t.offerID == OfferID("plus.halfyear") && t.originalID == original)
        #expect(t.expiresDate == SubscriptionPeriod(iso8601: "P6M")!.advance(t.date))
        // Redeemed by the subscriber for the renewal, naming one of the account's transactions.
        let next = try AppleOfferSigner.sign(
            .promotionalV2(
                keyPEM: OfferFixtures.keyPEM, keyID: "TESTKEY001", issuerID: OfferFixtures.issuerID, bundleID: h.state.bundleID,
                productID: Self.monthly, offerID: "plus.free", transactionID: t.id.description, nonce: Self.nonces[1],
                iat: h.state.clock.milliseconds / 1000))
        let seq = h.events.last!.seq
        let pending = try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotionalJWS(next)))
        #expect(pending.state == .purchased && !pending.charged)
        #expect(Self.notifications(h, after: seq) == ["OFFER_REDEEMED"], "an offer for the active subscription: no subtype")
        try h.advance("P6M")
        let renewal = try #require(h.transactions.last { $0.originalID == original && $0.reason == .renewal })
        #expect(renewal.price == .zero && renewal.offerType == .promotional && renewal.offerID == OfferID("plus.free"))
        // A transactionId that is not the account's is refused.
        let foreign = try AppleOfferSigner.sign(
            .promotionalV2(
                keyPEM: OfferFixtures.keyPEM, keyID: "TESTKEY001", issuerID: OfferFixtures.issuerID, bundleID: h.state.bundleID,
                productID: Self.monthly, offerID: "plus.free", transactionID: "9999999999", nonce: Self.nonces[2],
                iat: h.state.clock.milliseconds / 1000))
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .promotionalJWS(foreign)))) == 12)
    }

    // MARK: - Introductory offers

    @Test("introductory eligibility: one per group; the signed override (IntroductoryOfferEligibilitySignatureCreator) wins")
    func introductoryOverride() throws {
        var h = try Self.harness()
        #expect(h.machine.isEligibleForIntroOffer(Self.catalog[ProductID(Self.monthly)]!) == true)
        // allowIntroductoryOffer false: an eligible customer pays the regular price.
        let deny = try AppleOfferSigner.sign(
            .introductoryEligibility(
                keyPEM: OfferFixtures.keyPEM, keyID: "TESTKEY001", issuerID: OfferFixtures.issuerID, bundleID: h.state.bundleID,
                productID: Self.monthly, allow: false, transactionID: "0", nonce: Self.nonces[0],
                iat: h.state.clock.milliseconds / 1000))
        // transactionId "0" names no transaction of the account: refused before anything is charged.
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(introductoryEligibilityJWS: deny))) == 12)
        // Naming one of the account's transactions (a consumable bought before), it holds: the first
        // purchase in the group pays the regular price, and the group's offer stays unused.
        let gems = try h.buy("com.x.gems")
        let denyNamed = try AppleOfferSigner.sign(
            .introductoryEligibility(
                keyPEM: OfferFixtures.keyPEM, keyID: "TESTKEY001", issuerID: OfferFixtures.issuerID, bundleID: h.state.bundleID,
                productID: Self.monthly, allow: false, transactionID: gems.id.description, nonce: Self.nonces[2],
                iat: h.state.clock.milliseconds / 1000))
        let regular = try Self.buy(&h, Self.monthly, PurchaseOptions(introductoryEligibilityJWS: denyNamed))
        #expect(regular.state == .purchased && regular.price == Price(decimal: "9.99")! && regular.offerType == nil)
        #expect(h.machine.isEligibleForIntroOffer(group: "plus"))
        try h.apply(.deleteTransaction(regular.id))
        let first = try h.buy(Self.monthly)
        #expect(first.offerType == .introductory && first.offer == .freeTrial && first.price == .zero)
        #expect(first.offerPeriod == SubscriptionPeriod(iso8601: "P1W"))
        #expect(!h.machine.isEligibleForIntroOffer(group: "plus"))
        try h.apply(.setAutoRenew(.product(ProductID(Self.monthly)), on: false))
        try h.advance("P1M")
        // Not eligible any more, but the server allows it: the resubscription starts with the trial again.
        let allow = try AppleOfferSigner.sign(
            .introductoryEligibility(
                keyPEM: OfferFixtures.keyPEM, keyID: "TESTKEY001", issuerID: OfferFixtures.issuerID, bundleID: h.state.bundleID,
                productID: Self.monthly, allow: true, transactionID: first.id.description, nonce: Self.nonces[1],
                iat: h.state.clock.milliseconds / 1000))
        let again = try Self.buy(&h, Self.monthly, PurchaseOptions(introductoryEligibilityJWS: allow))
        #expect(again.state == .purchased && again.offerType == .introductory && again.price == .zero)
        #expect(Self.notifications(h).last == "SUBSCRIBED RESUBSCRIBE")
        // Without the override, a third start pays the regular price.
        try h.apply(.setAutoRenew(.product(ProductID(Self.monthly)), on: false))
        try h.advance("P1M")
        let third = try h.buy(Self.monthly)
        #expect(third.offerType == nil && third.price == Price(decimal: "9.99")!)
    }

    // MARK: - Offer codes

    @Test("offer codes: FRIENDS for new subscribers; LOYAL only for existing ones, from the next renewal")
    func offerCodes() throws {
        var h = try Self.harness()
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .code(referenceName: "LOYAL")))) == 18)
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .code(referenceName: "NOPE")))) == 11)
        let t = try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .code(referenceName: "FRIENDS")))
        #expect(t.state == .purchased && t.price == .zero && t.offerType == .code && t.offerID == OfferID("FRIENDS"))
        #expect(t.offer == .freeTrial && t.offerPeriod == SubscriptionPeriod(iso8601: "P1M"))
        #expect(Self.notifications(h) == ["OFFER_REDEEMED INITIAL_BUY"])
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .code(referenceName: "FRIENDS")))) == 18)
        let seq = h.events.last!.seq
        let loyal = try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .code(referenceName: "LOYAL")))
        #expect(loyal.state == .purchased && !loyal.charged && loyal.offerType == nil)
        #expect(Self.notifications(h, after: seq) == ["OFFER_REDEEMED"])
        let sub = try #require(h.subscription(Self.monthly))
        let info = RenewalInfo(
            sub, offers: h.state.offers.subscriptions[sub.originalID], storefront: "USA", catalog: Self.catalog,
            now: h.state.clock)
        #expect(info.renewalOffer?.type == .code && info.renewalOffer?.id == OfferID("LOYAL"))
        #expect(info.renewalPrice == Price(decimal: "1.99"))
        try h.advance("P1M", times: 3)
        #expect(Self.periods(h, t.id) == ["0.00 code FRIENDS", "1.99 code LOYAL", "1.99 code LOYAL", "9.99 - -"])
    }

    @Test("a one-time offer code: the code's price, ONE_TIME, ONE_TIME_CHARGE; an owned non-consumable is refused")
    func oneTimeCodes() throws {
        var h = try Self.harness()
        let gems = try Self.buy(&h, "com.x.gems", PurchaseOptions(offer: .code(referenceName: "GEMS-HALF")))
        #expect(gems.state == .purchased && gems.price == Price(decimal: "0.49")! && gems.charged)
        #expect(gems.offer == .oneTime && gems.offerType == .code && gems.offerID == OfferID("GEMS-HALF"))
        let free = try Self.buy(&h, "com.x.gems", PurchaseOptions(offer: .code(referenceName: "GEMS-FREE")))
        #expect(free.price == .zero && !free.charged && free.offerType == .code)
        #expect(Self.notifications(h) == ["ONE_TIME_CHARGE", "ONE_TIME_CHARGE"])
        let pro = try Self.buy(&h, "com.x.pro", PurchaseOptions(offer: .code(referenceName: "PRO-LAUNCH")))
        #expect(pro.price == Price(decimal: "1.99")! && pro.offer == .oneTime)
        #expect(Self.errorCode(try Self.buy(&h, "com.x.pro", PurchaseOptions(offer: .code(referenceName: "PRO-LAUNCH")))) == 18)
    }

    // MARK: - Win-back offers

    @Test(
        "win-back: refused until churned under the rules; then listed in renewal info and redeemed (OFFER_REDEEMED RESUBSCRIBE)")
    func winBack() throws {
        var h = try Self.harness()
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .winBack(OfferID("plus.winback"))))) == 18)
        let first = try h.buy(Self.monthly)
        try h.advance("P1W")
        try h.advance("P1M")
        // Subscribed: not eligible.
        #expect(Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .winBack(OfferID("plus.winback"))))) == 18)
        try h.apply(.setAutoRenew(.product(ProductID(Self.monthly)), on: false))
        try h.advance("P1M")
        var sub = try #require(h.subscription(Self.monthly))
        #expect(SubscriptionStatus(sub.status) == .expired)
        // Lapsed less than a month: not yet.
        #expect(h.machine.eligibleWinBackOfferIDs(sub).isEmpty)
        try h.advance("P1M")
        sub = try #require(h.subscription(Self.monthly))
        #expect(h.machine.eligibleWinBackOfferIDs(sub) == [OfferID("plus.winback")])
        let info = RenewalInfo(
            sub, offers: h.state.offers.subscriptions[sub.originalID], storefront: "USA", catalog: Self.catalog,
            now: h.state.clock)
        #expect(info.eligibleWinBackOfferIDs == [OfferID("plus.winback")])
        #expect(
            Self.errorCode(try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .winBack(OfferID("plus.winback.later"))))) == 18)
        let seq = h.events.last!.seq
        let back = try Self.buy(&h, Self.monthly, PurchaseOptions(offer: .winBack(OfferID("plus.winback"))))
        #expect(back.state == .purchased && back.originalID == first.id && back.price == .zero)
        #expect(back.offerType == .winBack && back.offerID == OfferID("plus.winback") && back.offer == .freeTrial)
        #expect(Self.notifications(h, after: seq) == ["OFFER_REDEEMED RESUBSCRIBE"])
        try h.advance("P1M")
        let renewal = try #require(h.transactions.last { $0.originalID == first.id && $0.reason == .renewal })
        #expect(renewal.price == Price(decimal: "9.99")! && renewal.offerType == nil)
        // The six months' wait between offers: not eligible right after lapsing again.
        try h.apply(.setAutoRenew(.product(ProductID(Self.monthly)), on: false))
        try h.advance("P2M")
        sub = try #require(h.subscription(Self.monthly))
        #expect(!h.machine.eligibleWinBackOfferIDs(sub).contains(OfferID("plus.winback")))
    }

    // MARK: - Billing plans

    @Test(
        "the monthly plan: a free month, then 9.49 a month with commitmentInfo 1-12; auto-renew off waits for the commitment's end"
    )
    func monthlyBillingPlan() throws {
        var h = try Self.harness()
        let t = try Self.buy(&h, Self.yearly, PurchaseOptions(billingPlan: .monthly))
        #expect(t.state == .purchased && t.billingPlan == .monthly && t.price == .zero && t.offerType == .introductory)
        #expect(t.expiresDate == SubscriptionPeriod(iso8601: "P1M")!.advance(t.date))
        try h.advance("P1M")
        let second = try #require(h.transactions.last { $0.originalID == t.id })
        #expect(second.price == Price(decimal: "9.49")! && second.billingPlan == .monthly)
        #expect(second.commitment?.billingPeriodNumber == 1 && second.commitment?.totalBillingPeriods == 12)
        #expect(second.commitment?.price == Price(decimal: "113.88"))
        // Turning auto-renew off during the commitment: the remaining payments go on.
        try h.apply(.setAutoRenew(.product(ProductID(Self.yearly)), on: false))
        try h.advance("P1M", times: 11)
        let paid = h.transactions.filter { $0.originalID == t.id && $0.commitment != nil }
        #expect(paid.map { $0.commitment!.billingPeriodNumber } == Array(1...12))
        #expect(paid.allSatisfy { $0.price == Price(decimal: "9.49")! })
        #expect(h.subscription(Self.yearly)?.status == .active)
        try h.advance("P1M")
        #expect(
            h.subscription(Self.yearly).map { SubscriptionStatus($0.status) } == .expired,
            "the commitment over and auto-renew off, it ends")
    }

    @Test("--billing-plan monthly for a product without the plan is a usage error, nothing bought")
    func noMonthlyPlan() throws {
        var h = try Self.harness()
        #expect(throws: StoreError.self) { try Self.buy(&h, Self.monthly, PurchaseOptions(billingPlan: .monthly)) }
        #expect(h.transactions.isEmpty)
    }
}

/// Offer redemptions that change the product, the price refusal, and the offers' state on disk.
@Suite("Purchases with offers: changes of product, prices, persistence")
struct OfferChangeTests {
    typealias P = OfferPurchaseTests

    @Test("an offer with an upgrade applies at once (OFFER_REDEEMED UPGRADE); with a downgrade, at the renewal (DOWNGRADE)")
    func upgradeAndDowngrade() throws {
        var h = try P.harness()
        _ = try h.buy(P.monthly)
        try h.advance("P1W")
        // Level 2 to level 1 is an upgrade: the monthly plan's promotional offer starts now.
        var seq = h.events.last!.seq
        let promo = try P.discount(h, product: P.yearly, offer: "plus.yearly.monthlypromo", nonce: P.nonces[0])
        let up = try P.buy(&h, P.yearly, PurchaseOptions(offer: .promotional(promo), billingPlan: .monthly))
        #expect(up.state == .purchased && up.price == Price(decimal: "4.99")! && up.offerType == .promotional, "\(up)")
        #expect(up.billingPlan == .monthly && up.commitment?.billingPeriodNumber == 1)
        #expect(P.notifications(h, after: seq) == ["OFFER_REDEEMED UPGRADE"])
        // Back down to the monthly product with a code: it waits for the commitment's end.
        seq = h.events.last!.seq
        let down = try P.buy(&h, P.monthly, PurchaseOptions(offer: .code(referenceName: "LOYAL")))
        #expect(down.state == .purchased && !down.charged)
        #expect(P.notifications(h, after: seq) == ["OFFER_REDEEMED DOWNGRADE"])
        try h.advance("P1M")
        let next = try #require(h.transactions.last { $0.reason == .renewal })
        #expect(next.productID == ProductID(P.yearly) && next.price == Price(decimal: "4.99")!, "the commitment goes on first")
        #expect(next.commitment?.billingPeriodNumber == 2)
    }

    @Test("delete and clear take a subscription's offers with it: the group is eligible for its introductory offer again")
    func deleteAndClear() throws {
        var h = try P.harness()
        let first = try h.buy(P.monthly)
        _ = try P.buy(&h, P.monthly, PurchaseOptions(offer: .code(referenceName: "LOYAL")))
        #expect(h.state.offers.subscriptions[first.id]?.pending != nil)
        try h.apply(.deleteTransaction(first.id))
        #expect(h.state.offers.subscriptions[first.id] == nil && h.machine.isEligibleForIntroOffer(group: "plus"))
        let again = try h.buy(P.monthly)
        #expect(again.offerType == .introductory && again.price == .zero)
        try h.apply(.clearTransactions)
        #expect(h.state.offers.subscriptions.isEmpty && h.state.offers.requests.isEmpty)
        #expect(h.state.offers.keys.count == 1, "the app's offer key stays")
    }

    @Test("a one-time offer code for a non-renewing subscription: refused while the time bought runs, redeemable after")
    func nonRenewingCode() throws {
        let season = Product(
            id: ProductID("com.x.season"), type: .nonRenewing, referenceName: "season",
            localizations: [.init(locale: "en_US", title: "Season", description: "Season")],
            prices: [.init(storefront: "USA", price: Price(decimal: "19.99")!)],
            subscriptionPeriod: SubscriptionPeriod(iso8601: "P3M"),
            offers: ProductOffers(codes: [
                OfferCode(
                    referenceName: "SEASON-HALF",
                    discount: .oneTime(prices: [.init(storefront: "USA", price: Price(decimal: "9.99")!)], anyStorefront: false),
                    eligibility: [])
            ]))
        var h = MachineHarness(catalog: Catalog(products: [season]))
        let first = try P.buy(&h, "com.x.season", PurchaseOptions(offer: .code(referenceName: "SEASON-HALF")))
        #expect(first.state == .purchased && first.price == Price(decimal: "9.99")! && first.charged)
        #expect(first.offer == .oneTime && first.offerType == .code && first.offerID == OfferID("SEASON-HALF"))
        #expect(P.notifications(h) == ["ONE_TIME_CHARGE"])
        #expect(P.errorCode(try P.buy(&h, "com.x.season", PurchaseOptions(offer: .code(referenceName: "SEASON-HALF")))) == 18)
        try h.advance("P4M")
        let again = try P.buy(&h, "com.x.season", PurchaseOptions(offer: .code(referenceName: "SEASON-HALF")))
        #expect(again.state == .purchased && again.price == Price(decimal: "9.99")!)
    }

    @Test("an offer not priced in the storefront: 14 invalidOfferPrice")
    func unpriced() throws {
        var h = try P.harness()
        try h.apply(.setSetting(key: "storefront", value: "JPN"))
        _ = try P.lapse(&h)
        let d = try P.discount(h, offer: "plus.halfyear", nonce: P.nonces[0])
        #expect(P.errorCode(try P.buy(&h, P.monthly, PurchaseOptions(offer: .promotional(d)))) == 14)
        #expect(P.errorCode(try P.buy(&h, P.monthly, PurchaseOptions(offer: .code(referenceName: "LOYAL")))) == 14)
        // Priced in JPN: 750 yen a month for three months.
        let ok = try P.discount(h, offer: "plus.comeback", nonce: P.nonces[1])
        let t = try P.buy(&h, P.monthly, PurchaseOptions(offer: .promotional(ok)))
        #expect(t.state == .purchased && t.price == Price(decimal: "750")! && t.currency == "JPY")
    }

    @Test("the offers' state on disk: a store reopened after each command holds what the machine holds")
    func persisted() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        var creation = StoreCreation(catalogFile: StoreKitFixture.directory.appendingPathComponent("offers/catalog.json").path)
        creation.start = Timestamp.defaultStart
        var h = MachineHarness(catalog: P.catalog)
        try h.apply(.addOfferKey(OfferKeyRecord(OfferFixtures.key, origin: .catalog)))
        try store.write(creating: creation) { s throws(StoreError) in
            #expect(s.state.offers.keys == h.state.offers.keys, "the catalog's key is the store's")
        }
        let d = try P.discount(
            h, offer: "plus.comeback", nonce: P.nonces[0], timestamp: date("2026-02-15T00:00:00Z").milliseconds)
        let commands: [Command] = [
            .buy(ProductID(P.monthly), user: nil, quantity: 1),
            .setAutoRenew(.product(ProductID(P.monthly)), on: false),
            .advanceClock(to: date("2026-02-15T00:00:00Z")),
            .buyWithOptions(ProductID(P.monthly), user: nil, quantity: 1, options: PurchaseOptions(offer: .promotional(d))),
            .buyWithOptions(
                ProductID(P.monthly), user: nil, quantity: 1, options: PurchaseOptions(offer: .code(referenceName: "LOYAL"))),
            .advanceClock(to: date("2026-04-01T00:00:00Z")),
            .setAutoRenew(.product(ProductID(P.monthly)), on: false),
            .advanceClock(to: date("2026-08-01T00:00:00Z")),
            .buyWithOptions(
                ProductID(P.monthly), user: nil, quantity: 1, options: PurchaseOptions(offer: .winBack(OfferID("plus.winback")))),
            .buyWithOptions(ProductID(P.yearly), user: nil, quantity: 1, options: PurchaseOptions(billingPlan: .monthly)),
            .advanceClock(to: date("2026-11-01T00:00:00Z")),
            .removeOfferKey("TESTKEY001"),
        ]
        for command in commands {
            try h.apply(command)
            try store.write { s throws(StoreError) in _ = try s.apply(command) }
            let onDisk = try store.read { s throws(StoreError) in s.state }
            #expect(onDisk.offers == h.state.offers, "after \(command)")
            #expect(onDisk.subscriptions == h.state.subscriptions, "after \(command)")
        }
        #expect(!h.state.offers.subscriptions.isEmpty && !h.state.offers.spentNonces.isEmpty)
        let renewals = try store.read { s throws(StoreError) -> [Transaction] in
            var list: [Transaction] = []
            try s.forEachTransaction { list.append($0) }
            return list
        }
        #expect(renewals == h.transactions.sorted { $0.id < $1.id }, "every offer field of every transaction survives")
    }
}
