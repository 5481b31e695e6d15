/// The `--webhook` target: `http://HOST:PORT/PATH` on a loopback address.
///
/// Only loopback is accepted: the webhook carries the store's purchases, and the server is a
/// test fixture for a backend running on the same machine. Plain `http` only (there is no TLS
/// client in iapctl, and none is needed on loopback).
package struct WebhookURL: Equatable, CustomStringConvertible {
    package let address: SocketAddress
    /// The host as written (for the Host header).
    package let host: String
    package let path: String

    package var description: String { "http://\(host):\(address.port)\(path)" }

    /// Parses `text`, or throws a one-line reason naming it and the fix.
    package init(parsing text: String) throws(WebhookURLError) {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") else {
            if lower.hasPrefix("https://") {
                throw WebhookURLError(
                    "--webhook '\(text)' uses https; use http:// on a loopback address (no TLS is needed on this machine)")
            }
            throw WebhookURLError(
                "--webhook '\(text)' is not an http:// URL; give one such as http://127.0.0.1:8080/notifications")
        }
        let rest = text.dropFirst(7)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let pathPart = rest.dropFirst(authority.count)
        var host = Substring(authority)
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw WebhookURLError("--webhook '\(text)' has an unclosed '[' in its host")
            }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw WebhookURLError("--webhook '\(text)' has junk after its host")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        var port: UInt16 = 80
        if let portText {
            guard let p = UInt16(portText), p > 0 else {
                throw WebhookURLError("--webhook '\(text)' has port '\(portText)'; give 1 to 65535")
            }
            port = p
        }
        guard !host.isEmpty, !authority.contains("@") else {
            throw WebhookURLError("--webhook '\(text)' has no host; give one such as http://127.0.0.1:8080/notifications")
        }
        guard let address = SocketAddress(host: String(host), port: port) else {
            throw WebhookURLError(
                "--webhook host '\(host)' is not a loopback address; use 127.0.0.1, ::1 or localhost (the webhook only posts to this machine)"
            )
        }
        guard address.isLoopback else {
            throw WebhookURLError(
                "--webhook host '\(host)' is not a loopback address; use 127.0.0.1, ::1 or localhost (the webhook only posts to this machine)"
            )
        }
        self.address = address
        self.host = String(host)
        self.path = pathPart.isEmpty ? "/" : (pathPart.hasPrefix("?") ? "/" + pathPart : String(pathPart))
    }
}

package struct WebhookURLError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
