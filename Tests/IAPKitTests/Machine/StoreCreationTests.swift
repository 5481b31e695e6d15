import IAPKit
import Testing

@testable import IAPTime

/// A store's creation and its catalog's settings are commands like any other: whole-state
/// checks of what they change, the events they leave, and the refusals that change nothing.
@Suite("Store creation and catalog settings on the state machine")
struct StoreCreationTests {
    static let start = Timestamp.defaultStart.adding(milliseconds: 86_400_000)
    static let origin = StoreOrigin(
        catalog: "shop.storekit", catalogSHA256: String(repeating: "ab", count: 32), bundleID: "com.example.shop",
        appVersion: "2.1", start: start, signingSHA256: String(repeating: "cd", count: 32))

    static func machine() throws -> Machine { Machine(catalog: try BuiltinCatalog.load(), state: StoreState()) }

    @Test("createStore sets the app, the clock and the signing chain, and is the storeCreated event 1")
    func create() throws {
        var m = try Self.machine()
        let effects = try m.apply(.createStore(Self.origin), archive: MemoryArchive())
        var expected = StoreState(bundleID: "com.example.shop", appVersion: "2.1", start: Self.start)
        expected.signingSHA256 = Self.origin.signingSHA256
        expected.nextEventSeq = 2
        #expect(m.state == expected)
        #expect(effects.events == [Event(seq: 1, date: Self.start, kind: .storeCreated(Self.origin))])
        #expect(effects.outcome == .done && effects.transactions.isEmpty)
    }

    @Test("a store is created once: createStore on a state with history is refused and changes nothing")
    func createTwice() throws {
        var m = try Self.machine()
        _ = try m.apply(.createStore(Self.origin), archive: MemoryArchive())
        let before = m.state
        #expect(throws: StoreError.refused(.storeHasHistory)) {
            _ = try m.apply(.createStore(Self.origin), archive: MemoryArchive())
        }
        #expect(m.state == before)
    }

    @Test("catalog settings apply in order: settings as settingChanged, fault entries as faultAdded that never run out")
    func catalogSettings() throws {
        var m = try Self.machine()
        let settings = [
            CatalogSetting(key: "ask-to-buy", value: "true"), CatalogSetting(key: "fault", value: "purchase paymentCancelled"),
            CatalogSetting(key: "storefront", value: "JPN"),
        ]
        let effects = try m.apply(.applyCatalogSettings(settings, catalog: "shop.storekit"), archive: MemoryArchive())
        let fault = Fault(
            id: 1, point: .purchase, error: TransactionError(spec: "paymentCancelled")!, remaining: Int(Int32.max),
            productID: nil)
        var expected = StoreState()
        expected.settings.askToBuy = true
        expected.settings.storefront = "JPN"
        expected.faults = [fault]
        expected.nextFaultID = 2
        expected.nextEventSeq = 4
        #expect(m.state == expected)
        #expect(
            effects.events.map(\.kind) == [
                .settingChanged(key: "ask-to-buy", value: "true"), .faultAdded(fault),
                .settingChanged(key: "storefront", value: "JPN"),
            ])
        #expect(effects.events.map(\.seq) == [1, 2, 3])
    }

    @Test("a bad catalog setting refuses them all, naming the catalog file and the key; nothing changes")
    func badCatalogSetting() throws {
        var m = try Self.machine()
        let before = m.state
        let unknown = [CatalogSetting(key: "ask-to-buy", value: "true"), CatalogSetting(key: "turbo", value: "on")]
        #expect(
            throws: StoreError.badCatalog(
                CatalogError(
                    file: "shop.storekit", keyPath: "settings.turbo",
                    problem: "unknown setting 'turbo'; known: \(SettingKey.names.joined(separator: ", "))"))
        ) { _ = try m.apply(.applyCatalogSettings(unknown, catalog: "shop.storekit"), archive: MemoryArchive()) }
        #expect(m.state == before)
        let badFault = [CatalogSetting(key: "fault", value: "purchase")]
        #expect(throws: StoreError.self) {
            _ = try m.apply(.applyCatalogSettings(badFault, catalog: "shop.storekit"), archive: MemoryArchive())
        }
        let badValue = [CatalogSetting(key: "fault", value: "restore 300"), CatalogSetting(key: "ask-to-buy", value: "maybe")]
        #expect(throws: StoreError.self) {
            _ = try m.apply(.applyCatalogSettings(badValue, catalog: "shop.storekit"), archive: MemoryArchive())
        }
        #expect(m.state == before)
    }
}
