import Testing

@testable import IAPJSON
@testable import IAPKit

/// Issue 15 item 5: every category of Xcode's `setSimulatedError(_:forAPI:)` is a fault point,
/// every `_storeKitErrors` name in the real `.storekit` files maps to one, and each arms.
@Suite("StoreKit error categories")
struct StoreKitErrorCategoryTests {
    static let root = #filePath.components(separatedBy: "/Tests/")[0]

    @Test("every _storeKitErrors name of the real .storekit files maps to a fault point, and every point arms from a catalog")
    func everyRealStoreKitErrorMaps() throws {
        var names: Set<String> = []
        for file in ["rc-simpleapp-products-v2", "flutter-runnertests-v4", "flutter-runner-v4"] {
            let text = try String(contentsOfFile: Self.root + "/Fixtures/real/storekit/\(file).storekit", encoding: .utf8)
            let json = try JSONParser.parse(text)
            for entry in json["settings"]?["_storeKitErrors"]?.arrayValue ?? [] {
                if let name = entry["name"]?.stringValue { names.insert(name) }
            }
        }
        #expect(names.count == 9, "\(names.sorted())")
        for name in names.sorted() {
            let point = try #require(StoreKitErrorMapping.faultPoint(forXcodeName: name), "\(name)")
            #expect(FaultPoint(rawValue: point) != nil)
        }
        let entries = names.sorted().map {
            "{\"name\": \"\($0)\", \"enabled\": true, \"current\": {\"generic\": {\"_0\": \"networkError\"}}}"
        }
        let json =
            "{\"settings\": {\"_storeKitErrors\": [\(entries.joined(separator: ", "))]}, \"products\": [{\"productID\": "
            + "\"com.example.a\", \"referenceName\": \"a\", \"type\": \"Consumable\", \"displayPrice\": \"0.99\", "
            + "\"localizations\": [{\"locale\": \"en_US\", \"displayName\": \"A\", \"description\": \"\"}]}]}"
        let result = try StoreKitConfigurationFormat.readImport(Array(json.utf8), file: "inline.storekit")
        let faults = result.catalog.settings.filter { $0.key == "fault" }.map(\.value)
        #expect(
            faults.sorted()
                == [
                    "app-transaction", "manage-subscriptions", "offer-code-redeem", "products", "purchase", "refund-request",
                    "restore", "subscription-status", "verification",
                ].map { "\($0) cloudServiceNetworkConnectionFailed" })
        var machine = Machine(catalog: result.catalog, state: StoreState())
        _ = try machine.apply(
            .applyCatalogSettings(result.catalog.settings.map { CatalogSetting(key: $0.key, value: $0.value) }, catalog: "test"),
            archive: MemoryArchive())
        let state = machine.state
        #expect(state.faults.map(\.point.rawValue).sorted() == faults.map { String($0.split(separator: " ")[0]) }.sorted())
    }

    @Test("StoreKit 2's error names: SKErrors for StoreKitError and PurchaseError, their own for VerificationError")
    func storeKit2Names() {
        #expect(StoreKitErrorMapping.errorName(forXcodeCase: "userCancelled") == "paymentCancelled")
        let v = TransactionError(spec: "revokedCertificate")
        #expect(v?.domain == "StoreKit.VerificationResult.VerificationError" && v?.name == "revokedCertificate")
        #expect(TransactionError(spec: "invalidCertificateChain")?.code == 1)
    }

    @Test("a simulated API call fires its fault once, recorded; without a fault it is done and changes nothing")
    func simulatedAPI() throws {
        var h = MachineHarness()
        let quiet = try h.apply(.simulatedAPI(.subscriptionStatus, product: nil))
        #expect(quiet.outcome == .done && quiet.events.isEmpty)
        try h.apply(.addFault(.subscriptionStatus, TransactionError(.unknown), count: 1, product: nil))
        let before = h.state
        let fired = try h.apply(.simulatedAPI(.subscriptionStatus, product: nil))
        #expect(fired.outcome == .apiFailed(.subscriptionStatus, TransactionError(.unknown)))
        #expect(ExitCode(fired.outcome) == .declined)
        #expect(h.names(fired) == ["faultFired"])
        var expected = before
        expected.faults = []
        expected.nextEventSeq += 1
        #expect(h.state == expected)
        // An offer code redemption sheet fault fails the purchase that redeems a code.
        var g = MachineHarness()
        try g.apply(.addFault(.offerCodeRedeem, TransactionError(.paymentCancelled), count: 1, product: nil))
        let buy = try g.apply(
            .buyWithOptions(
                ProductID("com.x.vip2"), user: nil, quantity: 1, options: PurchaseOptions(offer: .code(referenceName: "X"))))
        guard case .payment(.failed(_, let error)) = buy.outcome else { Issue.record("\(buy.outcome)"); return }
        #expect(error == TransactionError(.paymentCancelled) && g.state.faults.isEmpty)
    }
}
