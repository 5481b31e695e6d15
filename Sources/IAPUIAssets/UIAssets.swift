import IAPCrypto

/// The Transaction Manager page, embedded in the binary: `index.html` (served at `GET /`, with
/// the server's token written into it), and the files it loads from `/ui/` (`app.js`,
/// `app.css`, `icon.svg`). Nothing else is loaded: no CDN, no font, no framework, so the page
/// works offline and its Content-Security-Policy can allow only the server's own origin.
package enum UIAssets {
    /// The name of the page itself; it is served only at `/`, never under `/ui/`, because
    /// without the token substituted it could not act.
    package static let pageName = "index.html"

    /// What `index.html` holds where the token goes: `<meta name="iapctl-token" content="...">`.
    package static let tokenPlaceholder = "__IAPCTL_TOKEN__"

    /// Every embedded asset, in name order.
    package static let all: [UIAsset] = EmbeddedUIAssets.files.map { file in
        guard let bytes = Base64.decode(file.base64) else {
            preconditionFailure("EmbedTool wrote invalid base64 for \(file.path)")
        }
        return UIAsset(name: file.path, bytes: bytes)
    }

    /// The asset `GET /ui/NAME` answers with, or nil (the page is not among them).
    package static func named(_ name: String) -> UIAsset? {
        guard name != pageName else { return nil }
        return all.first { $0.name == name }
    }

    /// `index.html` split at the token placeholder, which occurs exactly once.
    private static let pageParts: (head: [UInt8], tail: [UInt8]) = {
        guard let page = all.first(where: { $0.name == pageName }) else {
            preconditionFailure("Sources/IAPUIAssets/Assets has no \(pageName)")
        }
        let marker = Array(tokenPlaceholder.utf8)
        let bytes = page.bytes
        var i = 0
        while i + marker.count <= bytes.count {
            if bytes[i] == marker[0] && Array(bytes[i..<(i + marker.count)]) == marker {
                return (Array(bytes[..<i]), Array(bytes[(i + marker.count)...]))
            }
            i += 1
        }
        preconditionFailure("\(pageName) does not contain \(tokenPlaceholder)")
    }()

    /// The page with `token` in place of the placeholder. The token is the server's own random
    /// hex string, so it needs no HTML escaping.
    package static func page(token: String) -> [UInt8] {
        precondition(token.utf8.allSatisfy { $0 < 0x80 && $0 != 0x22 && $0 != 0x3C && $0 != 0x26 }, "tokens are plain ASCII")
        return pageParts.head + Array(token.utf8) + pageParts.tail
    }
}
