import Foundation
import Synchronization
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

    @Test("a store's load decodes products lazily, each exactly as parsed", arguments: fixtures)
    func lazyRoundTrip(name: String) throws {
        let catalog = try Self.parse(name)
        let bytes = CatalogRecord.encode(catalog, sourceSHA256: "abc")
        let (lazy, sha) = try CatalogRecord.decode(bytes, path: "catalog.bin", lazily: true)
        #expect(sha == "abc")
        // One by one (by id, in reverse), then whole: the same products either way.
        for product in catalog.products.reversed() {
            #expect(lazy[product.id] == product)
            #expect(lazy.isSelfHosted(product.id) == product.selfHosted)
        }
        #expect(Self.same(lazy, catalog))
        #expect(lazy.closest(to: ProductID("com.x.coin4")) == catalog.closest(to: ProductID("com.x.coin4")))
        #expect(lazy[ProductID("no.such.product")] == nil)
        let measured = lazy.measuringContent { Int64($0.path.utf8.count) }
        #expect(measured.products == catalog.measuringContent { Int64($0.path.utf8.count) }.products)
        #expect(CatalogRecord.encode(lazy, sourceSHA256: "abc") == bytes)
    }

    @Test("a store's catalog measures hosted content when a product is first decoded, not at load")
    func measuresOnFirstUse() throws {
        let catalog = try Self.parse("catalog.json")
        let (lazy, _) = try CatalogRecord.decode(
            CatalogRecord.encode(catalog, sourceSHA256: "abc"), path: "catalog.bin", lazily: true)
        let measuredPaths = Mutex<[String]>([])
        let measured = lazy.measuringContent { content in
            measuredPaths.withLock { $0.append(content.path) }
            return 7
        }
        let plain = try #require(catalog.products.first { $0.hostedContent.isEmpty })
        let hosted = try #require(catalog.products.first { !$0.hostedContent.isEmpty })
        #expect(measuredPaths.withLock { $0 } == [])
        #expect(measured[plain.id] == plain)
        #expect(measuredPaths.withLock { $0 } == [])
        #expect(measured[hosted.id]?.hostedContent.map(\.contentLength) == hosted.hostedContent.map { _ in 7 })
        #expect(measuredPaths.withLock { $0 } == hosted.hostedContent.map(\.path))
        // Decoded once, measured once.
        _ = measured[hosted.id]
        #expect(measuredPaths.withLock { $0 }.count == hosted.hostedContent.count)
    }

    @Test("a version-1 record (older iapctl) still reads, as the same catalog", arguments: fixtures)
    func versionOneReads(name: String) throws {
        let catalog = try Self.parse(name)
        let old = CatalogRecord.encode(catalog, sourceSHA256: "abc", version: 1)
        #expect(old.starts(with: Array("iapctl-catalog-record v1 ".utf8)))
        for lazily in [false, true] {
            let (back, sha) = try CatalogRecord.decode(old, path: "catalog.bin", lazily: lazily)
            #expect(sha == "abc")
            #expect(Self.same(back, catalog))
        }
    }

    @Test("a version-2 entry that disagrees with its product's block is refused by a strict decode")
    func entryMismatchRefused() throws {
        let catalog = try Self.parse("catalog.json")
        let good = CatalogRecord.encode(catalog, sourceSHA256: "abc")
        let body = try ChecksummedFile.decode(good, kind: CatalogRecord.kind, maximumVersion: 2, path: "catalog.bin")
        // The first entry's id is "com.x.coin42" after the digest string: change one letter of
        // it (only there) and re-checksum, so only the strict check can tell.
        var forged = body
        let id = Array("com.x.coin42".utf8)
        let at = 1 + 3 + 1 + 1
        #expect(Array(forged[at..<at + id.count]) == id)
        forged[at + id.count - 1] = UInt8(ascii: "3")
        let file = ChecksummedFile.encode(kind: CatalogRecord.kind, version: 2, body: forged)
        #expect(throws: StoreError.self) { try CatalogRecord.decode(file, path: "catalog.bin") }
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
        // A version-1 record (older iapctl) loads, and the next write rewrites it as version 2.
        let (_, sha) = try CatalogRecord.decode(record, path: "catalog.bin")
        let v1 = CatalogRecord.encode(try store.read { s throws(StoreError) in s.catalog }, sourceSHA256: sha, version: 1)
        dir.write("s/catalog.bin", v1)
        let again = try store.read { s throws(StoreError) in s.catalog.products.map(\.id) }
        #expect(again == parsed.products.map(\.id))
        #expect(dir.read("s/catalog.bin") == v1)
        try store.write { s throws(StoreError) in _ = try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1)) }
        #expect(dir.read("s/catalog.bin") == record)
        let stillClean = Doctor.check(store).isClean
        #expect(stillClean)
    }
}

/// A record forged under a valid checksum (an entry renamed, so its block decodes as another
/// product): the command that meets it fails with the damage, exit 65, commits nothing, and
/// never traps; products that decode still read.
@Suite("Catalog record: a forged product block")
struct CatalogRecordForgedTests {
    @Test("the command that meets it fails with exit 65 and commits nothing; reads fail the same way")
    func forgedBlockFailsTheCommand() throws {
        let dir = TemporaryDirectory()
        let store = Store(path: dir.path + "/s")
        try store.write { s throws(StoreError) in _ = try s.apply(.buy(ProductID("com.x.coin42"), user: nil, quantity: 1)) }
        let body = try ChecksummedFile.decode(
            dir.read("s/catalog.bin"), kind: CatalogRecord.kind, maximumVersion: 2, path: "catalog.bin")
        let id = Array("com.x.coin42".utf8)
        let at = try #require((0...(body.count - id.count)).first { Array(body[$0..<$0 + id.count]) == id })
        var forged = body
        forged[at + id.count - 1] = UInt8(ascii: "3")
        dir.write("s/catalog.bin", ChecksummedFile.encode(kind: CatalogRecord.kind, version: 2, body: forged))
        let journal = dir.read("s/journal")

        var code: ExitCode?
        do throws(StoreError) {
            try Store(path: dir.path + "/s").write { s throws(StoreError) in
                _ = try s.apply(.buy(ProductID("com.x.coin43"), user: nil, quantity: 1))
            }
        } catch {
            code = error.exitCode
            #expect(error.description.contains("com.x.coin43"))
        }
        #expect(code == .badData)
        #expect(dir.read("s/journal") == journal)

        code = nil
        do throws(StoreError) {
            _ = try Store(path: dir.path + "/s").read { s throws(StoreError) in s.catalog[ProductID("com.x.coin43")]?.type }
        } catch {
            code = error.exitCode
        }
        #expect(code == .badData)
        let vip = try Store(path: dir.path + "/s").read { s throws(StoreError) in s.catalog[ProductID("com.x.vip2")]?.id }
        #expect(vip == ProductID("com.x.vip2"))
    }
}
