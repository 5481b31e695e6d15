import Testing

@testable import IAPKit

@Suite("Catalog: choosing the reader")
struct CatalogLoaderTests {
    static let storeKitProduct =
        #"{"productID": "com.x.a", "type": "Consumable", "displayPrice": "0.99", "localizations": [{"locale": "en_US", "displayName": "A", "description": ""}]}"#
    static let iapctlProduct =
        #"{"productIdentifier": "com.x.a", "type": "consumable", "localizations": {"en_US": {"title": "A"}}, "prices": {"USA": "0.99"}}"#

    @Test(
        "content first, then the extension, then the products' shape",
        arguments: [
            ("a.json", #"{"format": "iapctl-catalog", "products": [\#(iapctlProduct)]}"#, CatalogLoader.Format.iapctl),
            ("a.storekit", #"{"format": "iapctl-catalog", "products": [\#(iapctlProduct)]}"#, .iapctl),
            ("a.json", #"{"version": {"major": 3, "minor": 0}, "products": [\#(storeKitProduct)]}"#, .storeKit),
            ("a.storekit", #"{"products": [\#(storeKitProduct)]}"#, .storeKit),
            ("a.JSON", #"{"products": [\#(iapctlProduct)]}"#, .iapctl),
            ("catalog", #"{"subscriptionGroups": [], "products": [\#(storeKitProduct)]}"#, .storeKit),
            ("catalog", #"{"products": [\#(storeKitProduct)]}"#, .storeKit),
            ("catalog", #"{"products": [\#(iapctlProduct)]}"#, .iapctl),
        ] as [(String, String, CatalogLoader.Format)])
    func sniffing(_ file: String, _ json: String, _ format: CatalogLoader.Format) throws {
        #expect(try CatalogLoader.format(of: Array(json.utf8), file: file) == format)
        let catalog = try Catalog.load(bytes: Array(json.utf8), file: file)
        #expect(catalog.products.map(\.id.rawValue) == ["com.x.a"])
        #expect(catalog.products[0].prices == [.init(storefront: "USA", price: Price(decimal: "0.99")!)])
    }

    @Test("the fixtures load through the dispatcher", arguments: ["catalog.json", "Example.storekit", "storekit/v1.storekit"])
    func fixtures(_ path: String) throws {
        let catalog = try Catalog.load(bytes: try StoreKitFixture.bytes(path), file: path)
        #expect(!catalog.products.isEmpty)
    }

    @Test("a file of neither format is refused with the fix")
    func undecidable() {
        #expect(
            throws: CatalogError(
                file: "catalog", keyPath: "",
                problem:
                    "cannot tell the catalog's format; name it .json (iapctl's format, with \"format\": \"iapctl-catalog\") or .storekit (Xcode's)"
            )
        ) {
            try Catalog.load(bytes: Array(#"{"products": []}"#.utf8), file: "catalog")
        }
        #expect(throws: CatalogError(file: "catalog", keyPath: "", problem: "expected a JSON object, found an array")) {
            try Catalog.load(bytes: Array("[]".utf8), file: "catalog")
        }
        #expect(
            throws: CatalogError(
                file: "x.storekit", keyPath: "", problem: "invalid JSON at byte 0: expected a value (check the JSON syntax)")
        ) {
            try Catalog.load(bytes: [], file: "x.storekit")
        }
    }
}
