import IAPKit

#if canImport(Glibc)
    import Glibc
#endif

/// The outcome of one webhook POST.
package enum WebhookAttempt: Equatable {
    /// The receiver answered 2xx.
    case delivered(status: Int)
    /// It answered otherwise, or could not be reached; the reason names which.
    case failed(String)
}

/// Sends one notification body somewhere; the HTTP client in production, a recorder in tests.
extension WebhookAttempt {
    /// Apple's `sendAttemptResult` for the attempt (App Store Server API, sendAttemptResult):
    /// SUCCESS for a 2xx, UNSUCCESSFUL_HTTP_RESPONSE_CODE for another status, NO_RESPONSE when the
    /// receiver closed without answering, INVALID_RESPONSE for an answer that is not HTTP, and
    /// SOCKET_ISSUE when the connection or the send failed (the reasons `HTTPWebhookClient` gives).
    package var sendAttemptResult: String {
        switch self {
        case .delivered: return "SUCCESS"
        case .failed(let reason):
            if reason.contains(" answered HTTP ") { return "UNSUCCESSFUL_HTTP_RESPONSE_CODE" }
            if reason.hasSuffix("closed the connection without answering") { return "NO_RESPONSE" }
            if reason.hasSuffix("did not answer HTTP") { return "INVALID_RESPONSE" }
            return "SOCKET_ISSUE"
        }
    }
}

package protocol WebhookTransport: Sendable {
    func post(_ body: [UInt8]) -> WebhookAttempt
}

/// A minimal HTTP/1.1 client over a blocking socket: one `POST` per connection
/// (`Connection: close`), JSON body, success on any 2xx, as App Store Server Notifications
/// count a delivery.
package struct HTTPWebhookClient: WebhookTransport {
    package let url: WebhookURL
    /// Bounds connecting, sending and waiting for the answer.
    package var timeout: Double = 5

    package init(url: WebhookURL, timeout: Double = 5) {
        self.url = url
        self.timeout = timeout
    }

    package func post(_ body: [UInt8]) -> WebhookAttempt {
        let fd: Int32
        do {
            fd = try Socket.connect(to: url.address, timeout: timeout)
        } catch {
            return .failed("\(error)")
        }
        defer { close(fd) }
        var request = Array(
            """
            POST \(url.path) HTTP/1.1\r
            Host: \(url.host):\(url.address.port)\r
            User-Agent: iapctl/\(iapctlVersion)\r
            Content-Type: application/json\r
            Content-Length: \(body.count)\r
            Connection: close\r
            \r

            """.utf8)
        request += body
        guard Socket.sendAll(fd, request) else { return .failed("sending to \(url): \(String(cString: strerror(errno)))") }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        // Read the answer to its end (the receiver closes), keeping only what the status needs.
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            if response.count < 1024 { response += chunk[0..<n] }
        }
        return Self.outcome(of: response, url: url)
    }

    /// Reads `HTTP/1.x NNN ...` from the start of a response.
    package static func outcome(of response: [UInt8], url: WebhookURL) -> WebhookAttempt {
        let line = response.prefix { $0 != 0x0D && $0 != 0x0A }
        let parts = line.split(separator: 0x20, maxSplits: 2)
        guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)), parts[1].count == 3,
            let status = Int(String(decoding: parts[1], as: UTF8.self))
        else {
            return .failed(response.isEmpty ? "\(url) closed the connection without answering" : "\(url) did not answer HTTP")
        }
        return (200..<300).contains(status) ? .delivered(status: status) : .failed("\(url) answered HTTP \(status)")
    }
}
