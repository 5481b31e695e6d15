import IAPHTTP

/// The checks that keep every page but this server's own from using it.
///
/// - `Host` must name the server by an IP literal or `localhost`, with its port: a page served
///   under another name that an attacker points at 127.0.0.1 (DNS rebinding) is refused before
///   it can read the page and its token. An IP literal cannot be rebound, so this also allows a
///   server started with `--allow-remote` to be used at its LAN address.
/// - An action must come from the page: its `Origin`, when the browser sends one, is the
///   server's own; `Sec-Fetch-Site`, when sent, says `same-origin`; it carries the token; and it
///   is `application/json`, a type no HTML form can send and that a cross-origin `fetch` cannot
///   send without a CORS preflight, which this server never grants.
package struct UIRequestCheck: Sendable {
    package let port: UInt16
    package let token: UIToken

    package init(port: UInt16, token: UIToken) {
        self.port = port
        self.token = token
    }

    /// The request's `Host`, when it names this server; else why not.
    package func host(of request: HTTPRequest) throws(UIRequestError) -> String {
        guard let host = request.headers["Host"], !host.isEmpty else {
            throw .forbidden("no Host header; the Transaction Manager answers only requests for its own address")
        }
        guard Self.isOwnAuthority(host, port: port) else {
            throw .forbidden(
                "Host '\(host)' is not this server's address; open the page at http://127.0.0.1:\(port)/ (names other than localhost are refused, against DNS rebinding)"
            )
        }
        return host
    }

    /// Whether `authority` (`127.0.0.1:8080`, `[::1]:8080`, `localhost:8080`) is an IP literal or
    /// `localhost` with this port.
    package static func isOwnAuthority(_ authority: String, port: UInt16) -> Bool {
        let hostPart: Substring
        let portPart: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            guard rest.hasPrefix(":") else { return false }
            portPart = rest.dropFirst()
            guard isIPv6(hostPart) else { return false }
        } else {
            guard let colon = authority.lastIndex(of: ":") else { return false }
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
            guard hostPart.lowercased() == "localhost" || isIPv4(hostPart) else { return false }
        }
        return UInt16(portPart) == port
    }

    private static func isIPv4(_ s: Substring) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { p in !p.isEmpty && p.count <= 3 && p.allSatisfy(\.isNumber) && Int(p)! <= 255 }
    }

    private static func isIPv6(_ s: Substring) -> Bool {
        !s.isEmpty && s.contains(":") && s.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }

    /// Everything an action must show before it runs; the host was checked already.
    package func action(_ request: HTTPRequest, host: String) throws(UIRequestError) {
        if let origin = request.headers["Origin"], origin != "http://\(host)" {
            throw .forbidden("Origin '\(origin)' is not this server (http://\(host)); actions come only from its own page")
        }
        if let site = request.headers["Sec-Fetch-Site"], site != "same-origin" {
            throw .forbidden(
                "the browser says this action comes from a \(site) page (Sec-Fetch-Site); actions come only from the server's own page"
            )
        }
        guard token.matches(request.headers["X-IAPCTL-Token"]) else {
            throw .forbidden(
                request.headers["X-IAPCTL-Token"] == nil
                    ? "no X-IAPCTL-Token header; actions need the token the server wrote into its page"
                    : "wrong X-IAPCTL-Token; actions need the token of this server's page (reload it if the server restarted)")
        }
        let type = request.headers["Content-Type"]?.split(separator: ";").first.map {
            String($0.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()).lowercased()
        }
        guard type == "application/json" else {
            throw .unsupportedMediaType(
                "Content-Type '\(request.headers["Content-Type"] ?? "none")' is not application/json; send {\"arguments\": [...]} as JSON"
            )
        }
    }
}
