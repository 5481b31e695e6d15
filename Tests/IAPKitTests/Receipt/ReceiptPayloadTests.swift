import Foundation
import Testing

@testable import IAPCrypto
@testable import IAPKit
@testable import IAPTime

/// What the store's receipt lists, its payload encoding, and its envelope.
@Suite("Receipts: payload and envelope")
struct ReceiptPayloadTests {
    /// The receipt entries of everything the harness persisted.
    static func entries(_ h: MachineHarness) -> [InAppPurchaseReceipt] {
        h.transactions.filter { !$0.isDeleted && StoreReceipt.lists($0) }.sorted { $0.id < $1.id }.map(StoreReceipt.entry)
    }

    static func signed(_ h: MachineHarness) -> (der: [UInt8], receipt: AppReceipt) {
        let receipt = StoreReceipt.payload(state: h.state, entries: entries(h))
        return (PKCS7SignedData.sign(ReceiptPayload.encode(receipt), with: .builtin), receipt)
    }

    @Test(
        "listed: unfinished consumables, the original purchase of a non-consumable, every subscription period; not restores, failures or finished consumables"
    )
    func listingRules() throws {
        var h = MachineHarness()
        let coin = try h.buy("com.x.coin42", quantity: 3)
        let finishedCoin = try h.buy("com.x.coin210")
        try h.apply(.finish([finishedCoin.id]))
        let noads = try h.buy("com.x.noads")
        let again = try h.buy("com.x.noads")
        try h.apply(.restore(user: nil))
        let vip1 = try h.buy("com.x.vip1")
        let vip2 = try h.buy("com.x.vip2")
        try h.advance("P3M")
        try h.apply(.setSetting(key: "payments-allowed", value: "false"))
        _ = try h.buy("com.x.coin686")
        let listed = Self.entries(h)
        #expect(again.originalID == noads.id)
        let renewal = try #require(h.transactions.first { $0.reason == .renewal })
        #expect(listed.map(\.transactionID) == [coin.id, noads.id, vip1.id, vip2.id, renewal.id].map { $0.description })
        #expect(listed[0].quantity == 3)
        let first = listed[3]
        #expect(first.expiresDate == vip2.expiresDate)
        #expect(first.webOrderLineItemID == vip2.webOrderLineItemID.map(Int64.init))
        #expect(first.isTrialPeriod == false && first.isInIntroOfferPeriod == false)
        #expect(listed[4].originalTransactionID == vip2.id.description)
        #expect(listed[1].expiresDate == nil && listed[1].isTrialPeriod == nil)
    }

    @Test("a refund shows as the cancellation date")
    func refundIsCancellation() throws {
        var h = MachineHarness()
        let vip = try h.buy("com.x.vip2")
        try h.apply(.refund(vip.id, reason: 1))
        let entry = try #require(Self.entries(h).first)
        let refunded = try #require(h.transactions.first { $0.id == vip.id })
        #expect(entry.cancellationDate == refunded.revocationDate)
        #expect(entry.cancellationDate != nil)
    }

    @Test(
        "the payload: Apple's attributes, the hash over device id, opaque value and bundle id bytes, and a decode that gives it back whole"
    )
    func payloadRoundTrip() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.coin42")
        _ = try h.buy("com.x.vip2")
        let (der, receipt) = Self.signed(h)
        #expect(receipt.environment == "ProductionSandbox")
        #expect(receipt.bundleID == "com.x.demo" && receipt.appVersion == "1.0" && receipt.originalAppVersion == "1.0")
        #expect(receipt.creationDate == h.state.clock)
        #expect(receipt.opaqueValue?.count == 8)
        #expect(receipt.bundleIDData == DER.utf8String("com.x.demo"))
        let device = DeviceIdentifier.derived(bundleID: "com.x.demo")
        #expect(receipt.sha1Hash == SHA1.hash(device + receipt.opaqueValue! + DER.utf8String("com.x.demo")))
        let decoded = try DecodedReceipt.decode(der)
        #expect(decoded.receipt == receipt)
        #expect(decoded.envelope.certificates == [SigningIdentity.builtin.leaf, SigningIdentity.builtin.intermediate])
        #expect(decoded.envelope.signers.first?.signatureAlgorithm == .ecdsaWithSHA256)
        #expect(!decoded.envelope.usesIndefiniteLengths)
        // Strict DER throughout: the DER reader accepts every level.
        _ = try ASN1Element(der: der)
        _ = try ASN1Element(der: decoded.envelope.content)
        // Base64 text, with line breaks, decodes to the same receipt.
        let wrapped = Base64.encode(der).enumerated().map {
            $0.offset > 0 && $0.offset % 76 == 0 ? "\n\($0.element)" : "\($0.element)"
        }.joined()
        #expect(try DecodedReceipt.decode(Array(wrapped.utf8)).receipt == receipt)
    }

    @Test("the payload writer gives exactly what the generic DER writer gives (a reference model)")
    func writerMatchesReference() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.coin42", quantity: 10)
        _ = try h.buy("com.x.noads")
        let vip = try h.buy("com.x.vip2")
        try h.advance("P3M", times: 2)
        try h.apply(.refund(vip.id, reason: 0))
        try h.apply(.setSetting(key: "environment", value: "Xcode"))
        let r = Self.signed(h).receipt
        func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
            DER.sequence([DER.integer(type), DER.integer(1), DER.octetString(value)])
        }
        func date(_ t: Timestamp) -> [UInt8] { try! DER.ia5String(t.rfc3339) }
        let entries = r.inAppPurchases.map { p -> [UInt8] in
            var list = [
                attribute(1701, DER.integer(p.quantity!)), attribute(1702, DER.utf8String(p.productID!)),
                attribute(1703, DER.utf8String(p.transactionID!)), attribute(1704, date(p.purchaseDate!)),
                attribute(1705, DER.utf8String(p.originalTransactionID!)), attribute(1706, date(p.originalPurchaseDate!)),
            ]
            if let e = p.expiresDate { list.append(attribute(1708, date(e))) }
            if let w = p.webOrderLineItemID { list.append(attribute(1711, DER.integer(Int(w)))) }
            if let c = p.cancellationDate { list.append(attribute(1712, date(c))) }
            if let b = p.isTrialPeriod { list.append(attribute(1713, DER.integer(b ? 1 : 0))) }
            if let b = p.isInIntroOfferPeriod { list.append(attribute(1719, DER.integer(b ? 1 : 0))) }
            return attribute(17, DER.set(list))
        }
        let reference = DER.set(
            [
                attribute(0, DER.utf8String(r.environment!)), attribute(2, DER.utf8String(r.bundleID!)),
                attribute(3, DER.utf8String(r.appVersion!)), attribute(4, r.opaqueValue!), attribute(5, r.sha1Hash!),
                attribute(12, date(r.creationDate!)), attribute(19, DER.utf8String(r.originalAppVersion!)),
                attribute(21, date(r.expirationDate!)),
            ] + entries)
        #expect(r.inAppPurchases.contains { $0.cancellationDate != nil })
        #expect(ReceiptPayload.encode(r) == reference)
    }

    @Test("the same store gives the same bytes; a different clock, device or environment does not")
    func determinism() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.noads")
        let a = Self.signed(h).der
        #expect(Self.signed(h).der == a)
        var other = h
        try other.apply(.setSetting(key: "device-id", value: "8E3A1F0C-5B7D-4C21-9A6E-2F4B8D1C7E90"))
        #expect(Self.signed(other).der != a)
        try other.apply(.setSetting(key: "environment", value: "Xcode"))
        let xcode = Self.signed(other).receipt
        #expect(xcode.environment == "Xcode")
        #expect(xcode.expirationDate == Timestamp(rfc3339: "4001-01-01T00:00:00Z"))
    }

    @Test(
        "environment values: Apple's spellings in receipt attribute 0",
        arguments: [
            ("Sandbox", "ProductionSandbox"), ("production", "Production"), ("Xcode", "Xcode"), ("LocalTesting", "LocalTesting"),
            ("ProductionSandbox", "ProductionSandbox"),
        ])
    func environments(_ setting: String, _ attribute: String) throws {
        var h = MachineHarness()
        try h.apply(.setSetting(key: "environment", value: setting))
        #expect(h.state.settings.environment.receiptValue == attribute)
        #expect(ReceiptEnvironment(receiptValue: attribute) == h.state.settings.environment)
    }

    @Test(
        "bad settings are refused with the value and what is accepted",
        arguments: [
            (
                "environment", "Staging",
                "bad value 'Staging' for setting environment; expected one of Sandbox, Production, Xcode, LocalTesting"
            ),
            (
                "device-id", "1234",
                "bad value '1234' for setting device-id; expected 32 hex digits or a UUID such as 8E3A1F0C-5B7D-4C21-9A6E-2F4B8D1C7E90, or auto"
            ),
            (
                "shared-secret", "a b",
                "bad value 'a b' for setting shared-secret; expected printable ASCII without spaces, at most 256 characters (App Store secrets are 32 hex digits), or none"
            ),
            ("auto-finish", "maybe", "bad value 'maybe' for setting auto-finish; expected true or false"),
        ])
    func badSettings(_ key: String, _ value: String, _ message: String) throws {
        var h = MachineHarness()
        let before = h.state
        do {
            try h.apply(.setSetting(key: key, value: value))
            Issue.record("'\(value)' was accepted for \(key)")
        } catch {
            #expect("\(error)" == message)
            #expect(error.exitCode == .usage)
        }
        #expect(h.state == before)
    }

    @Test("Xcode's BER receipt (Apple's test vector): every field the vector's README lists")
    func xcodeReceipt() throws {
        let text = try CryptoTestSupport.fixture("vectors/xcode-app-receipt-with-transaction")
        let d = try DecodedReceipt.decode([UInt8](text))
        #expect(d.envelope.usesIndefiniteLengths)
        let r = d.receipt
        #expect(r.environment == "Xcode")
        #expect(r.bundleID == "com.example.naturelab.backyardbirds.example")
        #expect(r.appVersion == "1")
        #expect(r.creationDate == Timestamp(rfc3339: "2023-10-19T01:45:40Z"))
        #expect(r.expirationDate == Timestamp(rfc3339: "4001-01-01T00:00:00Z"))
        #expect(r.otherAttributes.map(\.type) == [1, 8])
        let p = try #require(r.inAppPurchases.first)
        #expect(r.inAppPurchases.count == 1)
        #expect(p.quantity == 1 && p.productID == "pass.premium" && p.transactionID == "0")
        #expect(p.purchaseDate == Timestamp(rfc3339: "2023-10-19T01:45:36Z"))
        #expect(p.expiresDate == Timestamp(rfc3339: "2023-11-19T01:45:36Z"))
        #expect(p.isInIntroOfferPeriod == true)
        let empty = try DecodedReceipt.decode([UInt8](try CryptoTestSupport.fixture("vectors/xcode-app-receipt-empty")))
        #expect(empty.receipt.inAppPurchases.isEmpty)
        #expect(empty.receipt.creationDate == Timestamp(rfc3339: "2023-10-19T01:18:54Z"))
    }

    @Test("malformed receipts: every truncation and a table of damage give an offset and what was expected, never a crash")
    func malformed() throws {
        var h = MachineHarness()
        _ = try h.buy("com.x.coin42")
        let der = Self.signed(h).der
        for length in 0..<der.count {
            #expect(throws: ReceiptError.self) { try DecodedReceipt.decode(Array(der.prefix(length))) }
        }
        let xcode = try #require(Base64.decode(try CryptoTestSupport.fixtureText("vectors/xcode-app-receipt-with-transaction")))
        for length in stride(from: 0, to: xcode.count, by: 7) {
            #expect(throws: ReceiptError.self) { try DecodedReceipt.decode(Array(xcode.prefix(length))) }
        }
        #expect(throws: ReceiptError(offset: 0, expected: "a receipt (the input is empty)")) { try DecodedReceipt.decode([]) }
        #expect(throws: ReceiptError(offset: 4, expected: "base64 text or DER bytes starting with 0x30 (found '!')")) {
            try DecodedReceipt.decode(Array("MIIE!".utf8))
        }
        var wrongOID = der
        let oid = DER.oid(.pkcs7SignedData)
        let at = try #require((0..<40).first { Array(wrongOID[$0..<($0 + oid.count)]) == oid })
        wrongOID[at + oid.count - 1] = 1  // 1.2.840.113549.1.7.1 (data)
        #expect(
            throws: ReceiptError(offset: at, expected: "the signedData OID 1.2.840.113549.1.7.2 (found 1.2.840.113549.1.7.1)")
        ) {
            try DecodedReceipt.decode(wrongOID)
        }
    }

    @Test("a damaged payload attribute names its offset in the receipt, not in the payload")
    func payloadOffsets() throws {
        let bad = AppReceipt(bundleID: "x", otherAttributes: [])
        var payload = ReceiptPayload.encode(bad)
        payload[payload.count - 3] = 0x04  // the UTF8String tag of the bundle id becomes OCTET STRING
        let der = PKCS7SignedData.sign(payload, with: .builtin)
        let envelope = try PKCS7SignedData.parse(der)
        let start = envelope.contentOffsets.file(0)
        #expect(Array(der[start..<(start + payload.count)]) == payload)
        #expect(throws: ReceiptError(offset: start + payload.count - 3, expected: "a character string")) {
            try DecodedReceipt.decode(der)
        }
    }
}
