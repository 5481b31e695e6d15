import Foundation
import IAPKit
import Testing

@testable import IAPJSON

/// A store's creation, its catalog's settings and faults, and `init --storefront` leave events
/// through the built binary, and the store they make (and its salvage) is clean.
@Suite("Store creation events, end to end")
struct StoreCreationEventsTests {
    static func events(_ h: CLIHarness, store: String? = nil) -> [JSONValue] {
        let r = store.map { h.run(["--store", $0, "events"], useStore: false) } ?? h.run(["events"])
        return r.stdout.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
    }

    @Test("init on the built-in catalog: storeCreated is event 1, dated the clock's start; doctor calls the store clean")
    func builtin() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--bundle-id", "com.example.shop", "--app-version", "3.0"]).code == 0)
        let events = Self.events(h)
        #expect(events.count == 1)
        let created = try #require(events.first)
        #expect(created["seq"] == .number("1"))
        #expect(created["name"] == .string("storeCreated"))
        #expect(created["date"] == .string("2026-01-01T00:00:00Z"))
        #expect(created["store"]?["catalog"] == .string("built-in"))
        #expect(created["store"]?["bundleID"] == .string("com.example.shop"))
        #expect(created["store"]?["appVersion"] == .string("3.0"))
        #expect(created["store"]?["signing"] == .string("built-in"))
        #expect(created["store"]?["signingSHA256"] == .null)
        #expect(h.run(["doctor"]).code == 0)
        // The first command of a store with no `init` creates it the same way.
        let other = CLIHarness()
        #expect(other.run(["buy", "com.x.coin42"]).code == 0)
        #expect(other.eventNames() == ["storeCreated", "transactionPurchasing", "transactionPurchased"])
    }

    @Test("a .storekit file's settings and _storeKitErrors become settingChanged and faultAdded events after storeCreated")
    func catalogSettings() throws {
        let h = CLIHarness()
        let catalog = CLIHarness.fixture("storekit/errors.storekit")
        #expect(h.run(["init", "--catalog", catalog, "--storefront", "JPN"]).code == 0)
        let names = h.eventNames()
        #expect(names.first == "storeCreated")
        let faults = try #require(h.run(["fault", "list", "--json"]).json?.arrayValue)
        #expect(!faults.isEmpty)
        #expect(names.filter { $0 == "faultAdded" }.count == faults.count)
        let events = Self.events(h)
        let settings = events.filter { $0["name"] == .string("settingChanged") }.compactMap { $0["setting"] }
        #expect(settings.last?["key"] == .string("storefront") && settings.last?["value"] == .string("JPN"))
        #expect(settings.contains { $0["key"] == .string("locale") })
        #expect(events.first?["store"]?["catalog"] == .string(catalog))
        #expect(h.run(["doctor"]).code == 0)
        // Salvage writes the same first commit: the new store is clean and has the same events.
        #expect(h.run(["doctor", "--salvage", h.path("copy")]).code == 0)
        #expect(h.run(["--store", h.path("copy"), "doctor"], useStore: false).code == 0)
        #expect(Self.events(h, store: h.path("copy")) == events)
    }
}
