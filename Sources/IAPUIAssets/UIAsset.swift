/// One file of the Transaction Manager page as the server sends it: its name under `/ui/`, its
/// media type and its bytes (embedded at build time from `Sources/IAPUIAssets/Assets/`).
package struct UIAsset: Sendable, Equatable {
    /// The file name, which is also its path under `/ui/` (`app.js` is `GET /ui/app.js`).
    package let name: String
    /// The `Content-Type` to send: UTF-8 text for the page, its script and its style sheet.
    package let contentType: String
    package let bytes: [UInt8]

    package init(name: String, bytes: [UInt8]) {
        self.name = name
        self.contentType = UIAsset.contentType(forName: name)
        self.bytes = bytes
    }

    /// The media type by extension. Browsers refuse a module script or a style sheet whose type
    /// is wrong when `X-Content-Type-Options: nosniff` is set, so every asset needs a known one.
    package static func contentType(forName name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "json": return "application/json"
        default: return "application/octet-stream"
        }
    }
}
