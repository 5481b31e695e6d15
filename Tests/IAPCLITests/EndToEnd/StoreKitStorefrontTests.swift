import Foundation
import IAPKit
import Testing

/// Real `.storekit` files through the built binary: a store created from one sells in every
/// App Store storefront, in that storefront's currency, and `init` names what it does not simulate.
@Suite("StoreKit files in every storefront, end to end")
struct StoreKitStorefrontTests {
    static func real(_ name: String) -> String { CLIHarness.fixture("real/storekit/" + name) }

    @Test("every real .storekit file creates a store; init prints its notes on stderr")
    func everyRealFile() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: CLIHarness.fixture("real/storekit"))
            .filter { $0.hasSuffix(".storekit") }.sorted()
        #expect(files.count == 15)
        for file in files {
            let h = CLIHarness()
            let r = h.run(["init", "--catalog", Self.real(file)])
            #expect(r.code == 0, "\(file): \(r)")
            #expect(r.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("note: ") }, "\(file): \(r)")
        }
        let h = CLIHarness()
        let r = h.run(["init", "--catalog", Self.real("rc-v3loadshedder-v2.storekit")])
        #expect(
            r.stderr == """
                note: settings._timeRate: Xcode's subscription time rate 6 is not applied; iapctl's clock moves with 'iapctl clock advance'

                """, "\(r)")
    }

    @Test("a USA-priced file is bought in Japan in yen and in Switzerland in francs")
    func buyAnywhere() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--catalog", Self.real("rc-rcttester-v4.storekit"), "--storefront", "JPN"]).code == 0)
        let jp = try #require(h.run(["products", "small_tip", "--json"]).json?["products"]?.arrayValue?.first)
        #expect(jp["localizedPrice"] == .string("¥1"))
        #expect(jp["currency"] == .string("JPY"))
        let bought = h.run(["buy", "com.revenuecat.rcttester.premium_lifetime", "--json"])
        #expect(bought.code == 0, "\(bought)")
        #expect(bought.json?["price"] == .string("100"))
        #expect(bought.json?["currency"] == .string("JPY"))
        #expect(bought.json?["storefront"] == .string("JPN"))
        #expect(h.run(["config", "set", "storefront", "CHE"]).code == 0)
        let ch = h.run(["products", "com.revenuecat.rcttester.premium_monthly"])
        #expect(ch.stdout.contains("CHF 9.99"), "\(ch)")
        let es = h.run(["products", "small_tip", "--storefront", "esp", "--json"])
        #expect(es.json?["products"]?.arrayValue?.first?["localizedPrice"] == .string("€0.99"), "\(es)")
    }

    @Test("the help example works: Example.storekit in China, in yuan")
    func helpExample() throws {
        let help = CLIHarness().run(["help", "init"], useStore: false)
        #expect(help.stdout.contains("iapctl init --catalog Fixtures/Example.storekit --storefront JPN"), "\(help)")
        let h = CLIHarness()
        #expect(h.run(["init", "--catalog", CLIHarness.fixture("Example.storekit"), "--storefront", "CHN"]).code == 0)
        let gems = try #require(h.run(["products", "com.example.gems100", "--json"]).json?["products"]?.arrayValue?.first)
        #expect(gems["localizedPrice"] == .string("¥0.99"))
        #expect(gems["currency"] == .string("CNY"))
    }

    @Test("an unknown storefront names the fix")
    func unknownStorefront() {
        let h = CLIHarness()
        let r = h.run(["init", "--storefront", "us"])
        #expect(r.code == 64)
        #expect(
            r.stderr.hasPrefix(
                "error: unknown storefront 'us'; did you mean 'USA'? use an App Store storefront's ISO 3166-1 alpha-3 code, such as USA, CHN or JPN (all 175: docs/catalog.md)"
            ), "\(r)")
    }

    @Test("a newer format loads with a warning")
    func newerFormat() {
        let h = CLIHarness()
        let r = h.run(["init", "--catalog", CLIHarness.fixture("storekit/v6.storekit")])
        #expect(r.code == 0, "\(r)")
        #expect(
            r.stderr.hasPrefix(
                "warning: version.major: StoreKit configuration format 6 is newer than iapctl knows (1 to 5); read with the format 5 rules, check the catalog and the notes\n"
            ), "\(r)")
    }
}
