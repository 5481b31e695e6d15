import IAPHTTP
import IAPKit

#if canImport(Glibc)
    import Glibc
#endif

/// The socket side of `iapctl serve`: a listening socket, an accept loop, and one thread per
/// connection, each feeding an `HTTPRequestParser` and answering through `handler`.
///
/// - Keep-alive and pipelining as HTTP/1.1 defines them; `Connection: close` and HTTP/1.0
///   without keep-alive end the connection after the response.
/// - A request must arrive whole within `readTimeout` of its first byte, or it is answered 408
///   and the connection closed (slow or stalled clients cannot hold a thread forever); an idle
///   keep-alive connection is closed quietly after `idleTimeout`.
/// - At most `maxConnections` at once; one more is answered 503 and closed.
/// - `stop` (or the `StopSignal` it was given, which SIGINT and SIGTERM trigger) stops accepting,
///   lets every request already received be answered, closes idle connections, and `serve`
///   returns once the last connection thread has ended.
package final class HTTPServer: @unchecked Sendable {
    package struct Configuration {
        package var address: SocketAddress
        package var readTimeout: Double = 5
        package var idleTimeout: Double = 30
        package var maxConnections = 256
        package var limits = HTTPRequestParser.Limits()

        package init(address: SocketAddress) { self.address = address }
    }

    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    package let configuration: Configuration
    package let handler: Handler
    package let stopSignal: StopSignal
    private var listenFD: Int32 = -1
    /// The address actually bound (with the kernel's port when 0 was asked).
    package private(set) var boundAddress: SocketAddress
    private let connections = Condition()
    private var active = 0
    private var servedRequests = 0

    package init(configuration: Configuration, stopSignal: StopSignal = StopSignal(), handler: @escaping Handler) {
        self.configuration = configuration
        self.stopSignal = stopSignal
        self.handler = handler
        self.boundAddress = configuration.address
    }

    deinit {
        if listenFD >= 0 { close(listenFD) }
    }

    /// Binds and listens; after this, clients can connect (their connections wait in the
    /// backlog until `serve` accepts them).
    package func bind() throws {
        let (fd, port) = try Socket.listen(on: configuration.address)
        listenFD = fd
        boundAddress.port = port
    }

    /// The URL clients use: `http://127.0.0.1:43121`.
    package var url: String { "http://\(boundAddress)" }

    /// How many requests have been answered (for tests and the benchmark).
    package var requestCount: Int {
        connections.lock()
        defer { connections.unlock() }
        return servedRequests
    }

    package func stop() { stopSignal.trigger() }

    /// Accepts connections until stopped, then waits for the connections to finish.
    package func serve() {
        precondition(listenFD >= 0, "bind() before serve()")
        while true {
            let ready = Socket.waitReadable([listenFD, stopSignal.readFD], timeout: nil)
            if ready.contains(stopSignal.readFD) { break }
            guard ready.contains(listenFD) else { continue }
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else {
                // Out of descriptors: the pending connection stays readable, so pause (or stop)
                // instead of spinning until a connection closes. Otherwise the client gave up.
                if errno == EMFILE || errno == ENFILE, stopSignal.wait(seconds: 0.05) { break }
                continue
            }
            Socket.setCloseOnExec(fd)
            Socket.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            Socket.setTimeout(fd, SO_SNDTIMEO, seconds: max(configuration.readTimeout, 1))
            connections.lock()
            let admitted = active < configuration.maxConnections
            if admitted { active += 1 }
            connections.unlock()
            guard admitted else {
                let busy = HTTPResponse.error(
                    .serviceUnavailable, message: "too many connections (\(configuration.maxConnections)); retry shortly")
                _ = Socket.sendAll(fd, busy.serialized(keepAlive: false))
                close(fd)
                continue
            }
            startThread(stackSize: 1 << 20) { [self] in
                HTTPConnection(fd: fd, server: self).run()
                connections.lock()
                active -= 1
                connections.broadcast()
                connections.unlock()
            }
        }
        close(listenFD)
        listenFD = -1
        connections.lock()
        while active > 0 { connections.wait() }
        connections.unlock()
    }

    func countRequest() {
        connections.lock()
        servedRequests += 1
        connections.unlock()
    }
}

/// One client connection: read, parse, answer, until it closes, times out, or the server stops.
struct HTTPConnection {
    let fd: Int32
    let server: HTTPServer

    func run() {
        defer { close(fd) }
        let config = server.configuration
        var parser = HTTPRequestParser(limits: config.limits)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var idleSince = Socket.monotonic()
        var requestStart = idleSince
        var stopping = false
        while true {
            while let event = parser.next() {
                switch event {
                case .expectContinue:
                    guard Socket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
                case .failure(let error):
                    _ = Socket.sendAll(fd, HTTPResponse.parseFailure(error).serialized(keepAlive: false))
                    server.countRequest()
                    linger()
                    return
                case .request(let request):
                    let response = server.handler(request)
                    if let stream = response.stream, request.method != "HEAD" {
                        // A streamed body (server-sent events): the head, then the body until it
                        // ends; the connection closes with it.
                        let head = response.serialized(headOnly: true, keepAlive: false, version: request.version)
                        server.countRequest()
                        guard Socket.sendAll(fd, head) else { return }
                        stream.produce(StreamWriter(fd: fd, stop: server.stopSignal))
                        return
                    }
                    stopping = stopping || server.stopSignal.isTriggered
                    let keepAlive = request.keepAlive && !response.closesConnection && !stopping
                    let bytes = response.serialized(
                        headOnly: request.method == "HEAD", keepAlive: keepAlive, version: request.version)
                    let sent = Socket.sendAll(fd, bytes)
                    server.countRequest()
                    guard sent, keepAlive else {
                        if sent { linger() }
                        return
                    }
                    idleSince = Socket.monotonic()
                    requestStart = idleSince
                }
            }
            // More bytes are needed. Between requests, a stop closes the connection; in the
            // middle of one, the request is still read (within the read timeout) and answered.
            let idle = parser.isIdle
            if idle && stopping && !hasPendingInput() { return }
            let deadline = idle ? idleSince + config.idleTimeout : requestStart + config.readTimeout
            let remaining = deadline - Socket.monotonic()
            let watched = stopping ? [fd] : [fd, server.stopSignal.readFD]
            let ready = remaining > 0 ? Socket.waitReadable(watched, timeout: remaining) : []
            if ready.isEmpty {
                if !idle {
                    let timeout = HTTPResponse.error(
                        .requestTimeout,
                        message: "the request did not arrive whole within \(Self.seconds(config.readTimeout)); send it faster")
                    _ = Socket.sendAll(fd, timeout.serialized(keepAlive: false))
                    server.countRequest()
                    linger()
                }
                return
            }
            if ready.contains(server.stopSignal.readFD) {
                stopping = true
                if idle && !hasPendingInput() { return }
            }
            guard ready.contains(fd) else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { return }  // the client closed (or reset) the connection
            if idle { requestStart = Socket.monotonic() }
            parser.append(buffer[0..<n])
        }
    }

    /// Whether the client has sent bytes not yet read: a request that arrived before a stop is
    /// in flight and gets its answer, even if no byte of it was read yet.
    private func hasPendingInput() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// Before closing after an error or `Connection: close`, stop sending and drain briefly what
    /// the client still sends, so the close does not reset the connection and destroy the
    /// response before the client has read it (RFC 9112 section 9.6).
    private func linger() {
        shutdown(fd, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 16 << 10)
        let deadline = Socket.monotonic() + 1
        while true {
            let remaining = deadline - Socket.monotonic()
            guard remaining > 0, !Socket.waitReadable([fd], timeout: remaining).isEmpty else { return }
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
        }
    }

    static func seconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }
}

/// What a streamed body writes to: the connection's socket, watched for the client hanging up
/// and for the server stopping.
struct StreamWriter: HTTPStreamWriter {
    let fd: Int32
    let stop: StopSignal

    func write(_ bytes: [UInt8]) -> Bool { Socket.sendAll(fd, bytes) }

    func wait(readable descriptors: [Int32], timeout: Double) -> HTTPStreamWake {
        let ready = Socket.waitReadable([fd, stop.readFD] + descriptors, timeout: timeout)
        if ready.contains(stop.readFD) { return .stopping }
        // A stream's client sends nothing more: readable means it closed (or broke the protocol).
        if ready.contains(fd) { return .clientGone }
        return ready.isEmpty ? .timedOut : .readable
    }
}
