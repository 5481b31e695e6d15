import Foundation
import IAPUIAssets
import Testing

/// The Transaction Manager page as embedded in the binary: the same bytes as the files in
/// `Sources/IAPUIAssets/Assets` (one source of truth), every asset with a media type a browser
/// accepts under `nosniff`, and nothing that loads from anywhere but the server itself.
@Suite("UI assets")
struct UIAssetsTests {
    static let assetsDirectory = CLIHarness.packageRoot + "/Sources/IAPUIAssets/Assets"

    static var filesOnDisk: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: assetsDirectory)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("every file in Sources/IAPUIAssets/Assets is embedded, byte for byte, in name order")
    func embeddedMatchesDisk() throws {
        #expect(UIAssets.all.map(\.name) == Self.filesOnDisk)
        #expect(Set(UIAssets.all.map(\.name)).isSuperset(of: ["index.html", "app.js", "app.css", "icon.svg"]))
        for asset in UIAssets.all {
            let disk = try Data(contentsOf: URL(fileURLWithPath: Self.assetsDirectory + "/" + asset.name))
            #expect(asset.bytes == [UInt8](disk), "\(asset.name) differs from the file: rebuild")
        }
    }

    @Test("each asset has a known media type; the page is only served at /, with the token in it")
    func typesAndPage() {
        for asset in UIAssets.all {
            #expect(asset.contentType != "application/octet-stream", "\(asset.name) has no media type")
        }
        #expect(UIAssets.named("app.js")?.contentType == "text/javascript; charset=utf-8")
        #expect(UIAssets.named("app.css")?.contentType == "text/css; charset=utf-8")
        #expect(UIAssets.named("icon.svg")?.contentType == "image/svg+xml")
        #expect(UIAssets.named("index.html") == nil)
        #expect(UIAssets.named("nope.js") == nil)
        let token = String(repeating: "ab12", count: 16)
        let page = String(decoding: UIAssets.page(token: token), as: UTF8.self)
        #expect(page.contains("<meta name=\"iapctl-token\" content=\"\(token)\">"))
        #expect(!page.contains(UIAssets.tokenPlaceholder))
        #expect(page.components(separatedBy: token).count == 2, "the token appears once")
    }

    /// The only absolute URL allowed is SVG's XML namespace, which names and never loads.
    @Test("no asset refers to another origin: no http(s) URL, no CSS url() or @import, page links only to /ui/")
    func nothingFromElsewhere() throws {
        for asset in UIAssets.all where asset.contentType.hasPrefix("text/") || asset.name.hasSuffix(".svg") {
            let text = String(decoding: asset.bytes, as: UTF8.self).replacingOccurrences(
                of: "http://www.w3.org/2000/svg", with: "")
            #expect(!text.contains("http://") && !text.contains("https://"), "\(asset.name) names another origin")
            #expect(
                !text.contains("//cdn") && !text.contains("@import") && !text.contains("url("), "\(asset.name) loads something")
        }
        let html = String(decoding: UIAssets.page(token: "t"), as: UTF8.self)
        let links = try Regex(#"(?:src|href)="([^"]*)""#)
        for match in html.matches(of: links) {
            let target = String(match.output[1].substring ?? "")
            #expect(target.hasPrefix("/ui/") || target.hasPrefix("#"), "index.html links to \(target)")
        }
    }
}
