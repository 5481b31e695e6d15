import Foundation
import IAPKit
import Testing

@testable import IAPJSON

/// `.storekit` catalogs wherever a catalog goes, `catalog show` and `catalog convert`.
@Suite("Catalog commands, end to end")
struct CatalogCommandTests {
    static let example = CLIHarness.fixture("Example.storekit")

    @Test("init --catalog Example.storekit: products, settings and Xcode's errors as faults")
    func initFromStoreKit() throws {
        let h = CLIHarness()
        let r = h.run(["init", "--catalog", Self.example, "--json"])
        #expect(r.code == 0, "\(r)")
        #expect(r.json?["products"] == .number("8"))
        #expect(h.run(["config", "get", "ask-to-buy"]).stdout == "true\n")
        #expect(h.run(["config", "get", "grace-period"]).stdout == "true\n")
        let faults = h.run(["fault", "list", "--json"])
        #expect(faults.stdout.contains("\"point\":\"restore\""), "\(faults)")
        let products = try #require(h.run(["products", "--json"]).json?["products"]?.arrayValue)
        let yearly = try #require(products.first { $0["productIdentifier"] == .string("com.example.premium.yearly") })
        #expect(yearly["subscriptionPeriod"] == .string("P1Y"))
        #expect(yearly["introductoryOffer"]?["paymentMode"] == .string("payUpFront"))
        // Ask to Buy is on, as the file says: a purchase is deferred (exit 5).
        #expect(h.run(["buy", "com.example.gems100"]).code == 5)
    }

    @Test("catalog convert writes iapctl's format, which loads back to the same products")
    func convert() throws {
        let h = CLIHarness()
        let r = h.run(["catalog", "convert", Self.example, "--output", h.path("converted.json")], useStore: false)
        #expect(r.code == 0, "\(r)")
        #expect(r.stderr.contains("note: "), "the file's unsimulated offers are listed")
        let fromStoreKit = h.run(["catalog", "show", Self.example, "--json"], useStore: false).stdout
        let fromConverted = h.run(["catalog", "show", h.path("converted.json"), "--json"], useStore: false).stdout
        #expect(fromStoreKit == fromConverted)
        #expect(try JSONParser.parse(fromConverted)["format"] == .string("iapctl-catalog"))
        #expect(h.run(["init", "--catalog", h.path("converted.json")]).code == 0)
    }

    @Test("catalog show lists the store's catalog")
    func show() {
        let h = CLIHarness()
        let r = h.run(["catalog", "show"])
        #expect(r.code == 0)
        #expect(r.stdout.hasPrefix("catalog built-in: "))
        #expect(r.stdout.contains("com.x.levelpack"))
        #expect(r.stdout.contains("levels, soundtrack"))
        #expect(r.stdout.contains("vip level 2"))
        let json = h.run(["catalog", "show", "--json"]).stdout
        let builtin = String(decoding: FileManager.default.contents(atPath: CLIHarness.fixture("catalog.json"))!, as: UTF8.self)
        #expect(json == builtin, "the built-in catalog writes back byte for byte")
    }

    @Test(
        "bad catalog files",
        arguments: [
            (
                ["catalog", "convert", "/nonexistent.storekit"], 66 as Int32,
                "error: cannot read '/nonexistent.storekit': no such file"
            ),
            (["catalog", "show", "/"], 66, "error: cannot read '/'"),
            (["catalog", "convert"], 64, "error: missing argument <FILE> for 'catalog convert'"),
            (["catalog", "frob"], 64, "error: unknown subcommand 'frob' for 'catalog'"),
        ])
    func bad(arguments: [String], code: Int32, message: String) {
        let h = CLIHarness()
        let r = h.run(arguments, useStore: false)
        #expect(r.code == code, "\(r)")
        #expect(r.stderr.hasPrefix(message), "\(r)")
    }

    @Test("a malformed .storekit file exits 65 naming the key path")
    func malformed() {
        let h = CLIHarness()
        h.write(
            "bad.storekit",
            #"{"version":{"major":3,"minor":0},"products":[{"productID":"a","type":"Consumable","displayPrice":"x","localizations":[]}],"settings":{}}"#
        )
        let r = h.run(["init", "--catalog", h.path("bad.storekit")])
        #expect(r.code == 65, "\(r)")
        #expect(r.stderr.contains("products[0]"), "\(r)")
        #expect(r.stderr.contains(h.path("bad.storekit")), "\(r)")
    }
}
