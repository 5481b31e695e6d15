import IAPKit
import Testing

@Suite("Lifecycle settings")
struct LifecycleSettingsTests {
    @Test(
        "values parse and print back",
        arguments: [
            ("ask-to-buy", "yes", "true"), ("interrupted-purchases", "on", "true"), ("fail-transactions", "true", "unknown"),
            ("fail-transactions", "false", "false"), ("fail-transactions", "7", "cloudServiceNetworkConnectionFailed"),
            ("fail-transactions", "300", "downloadCanceled"), ("store-payments", "Defer", "defer"),
            ("store-payments", "decline", "decline"),
            ("finish-after-downloads", "1", "true"), ("downloader", "./fetch.sh --fast", "./fetch.sh --fast"),
            ("downloader", "none", "none"),
            ("downloader", "", "none"),
        ])
    func values(key: String, value: String, shown: String) throws {
        var h = MachineHarness()
        let e = try h.apply(.setSetting(key: key, value: value))
        #expect(SettingKey(rawValue: key)?.value(in: h.state.settings) == shown)
        #expect(e.events.map(\.kind) == [.settingChanged(key: key, value: shown)])
    }

    @Test(
        "bad values are refused with what is expected",
        arguments: [
            ("ask-to-buy", "maybe", "true or false"),
            (
                "fail-transactions", "oops",
                "false, true, or an SKError name or code 0-20 (paymentCancelled or 2) or a seed code 100, 136, 200, 300"
            ),
            ("store-payments", "later", "accept, defer or decline"),
            ("downloader", "a\nb", "a one-line shell command of at most 4096 characters, or none"),
        ])
    func badValues(key: String, value: String, expected: String) {
        var h = MachineHarness()
        h.expectRefusal(.setSetting(key: key, value: value), .badSettingValue(key: key, value: value, expected: expected))
    }

    @Test("defaults follow StoreKit")
    func defaults() {
        let s = Settings()
        #expect(!s.askToBuy && !s.interruptedPurchases && s.failTransactions == nil && s.storePayments == .accept)
        #expect(!s.finishAfterDownloads && s.downloader == nil)
    }
}
