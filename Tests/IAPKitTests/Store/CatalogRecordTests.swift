import Foundation
import Testing

@testable import IAPKit

/// The store's binary catalog record (`catalog.bin`, `CatalogRecord`): every fixture catalog
/// reads back exactly as parsed from its JSON or `.storekit` text, and every damaged byte of a
/// record is detected (refused, never read as another catalog).
@Suite("Catalog record codec")
struct CatalogRecordTests {
    static let fixtures = [
        "catalog.json", "offers/catalog.json", "Example.storekit", "storekit/v1.storekit", "storekit/v2.storekit",
        "storekit/v5.storekit", "storekit/v6.storekit", "storekit/errors.storekit",
    ]

    static func parse(_ name: String) throws -> Catalog {
        try CatalogFormats.read(try StoreKitFixture.bytes(name), file: name)
    }

    static func same(_ a: Catalog, _ b: Catalog) -> Bool {
        a.products == b.products && a.settings.map { [$0.key, $0.value] } == b.settings.map { [$0.key, $0.value] }
            && a.offerKeys == b.offerKeys
    }

    @Test("round trip of every fixture catalog", arguments: fixtures)
    func roundTrip(name: String) throws {
        let catalog = try Self.parse(name)
        let bytes = CatalogRecord.encode(catalog, sourceSHA256: "abc")
        let (back, sha) = try CatalogRecord.decode(bytes, path: "catalog.bin")
        #expect(sha == "abc")
        #expect(Self.same(back, catalog))
        #expect(CatalogRecord.encode(back, sourceSHA256: "abc") == bytes)
    }

    @Test("every byte flipped, every truncation and an append are refused with exit 65")
    func everyByteDamaged() throws {
        let catalog = try Self.parse("offers/catalog.json")
        let pristine = CatalogRecord.encode(catalog, sourceSHA256: "0123456789abcdef")
        var refused = 0
        var damaged: [[UInt8]] = []
        for i in 0..<pristine.count {
            var flipped = pristine
            flipped[i] ^= 0x10
            damaged.append(flipped)
            damaged.append(Array(pristine[0..<i]))
        }
        damaged.append(pristine + [0])
        for bytes in damaged {
            do {
                let (back, sha) = try CatalogRecord.decode(bytes, path: "catalog.bin")
                Issue.record("damage not detected: read \(back.products.count) products, digest \(sha)")
            } catch {
                #expect(error.exitCode == .badData)
                refused += 1
            }
        }
        #expect(refused == damaged.count)
    }

    @Test("a store loads its catalog from the record and doctor checks it; a damaged record is exit 65")
    func storeUsesRecord() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try store.write { s throws(StoreError) in _ = try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1)) }
        let record = dir.read("s/catalog.bin")
        #expect(!record.isEmpty)
        let products = try store.read { s throws(StoreError) in s.catalog.products.map(\.id) }
        let parsed = try Self.parse("catalog.json")
        #expect(products == parsed.products.map(\.id))
        let clean = Doctor.check(store).isClean
        #expect(clean)
        var bad = record
        bad[bad.count - 3] ^= 1
        dir.write("s/catalog.bin", bad)
        var code: ExitCode?
        do throws(StoreError) {
            try store.read { _ throws(StoreError) in () }
        } catch {
            code = error.exitCode
        }
        #expect(code == .badData)
        let findings = Doctor.check(store).findings
        #expect(findings.contains { !$0.ok && $0.file.hasSuffix("catalog.bin") })
        // A store without a record (older) loads from the JSON copy; its next write makes one.
        try FileManager.default.removeItem(atPath: dir.path + "/s/catalog.bin")
        try store.read { _ throws(StoreError) in () }
        #expect(dir.read("s/catalog.bin").isEmpty)
        try store.write { s throws(StoreError) in _ = try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1)) }
        #expect(dir.read("s/catalog.bin") == record)
    }
}
