import IAPKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the CLI writes: standard output or standard error of the process, or a buffer in tests.
public protocol Console: AnyObject {
    func write(_ bytes: [UInt8])
    /// Whether a person is watching (progress bars only draw on a terminal).
    var isTerminal: Bool { get }
    func flush()
}

extension Console {
    public func write(_ text: String) { write(Array(text.utf8)) }

    public func line(_ text: String = "") { write(Array((text + "\n").utf8)) }
}

/// A buffered console over a file descriptor. Writes that fail with EPIPE (the reader went away,
/// as with `iapctl dump | head`) are dropped quietly.
public final class FileConsole: Console {
    private let fd: Int32
    private var buffer: [UInt8] = []
    public let isTerminal: Bool

    public init(fd: Int32) {
        self.fd = fd
        isTerminal = isatty(fd) == 1
        buffer.reserveCapacity(64 << 10)
    }

    deinit { flush() }

    public func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 64 << 10 || isTerminal { flush() }
    }

    public func flush() {
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, buffer.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                break
            }
            done += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A console that keeps what was written, for tests and scenario runs.
public final class BufferConsole: Console {
    public private(set) var bytes: [UInt8] = []
    public var isTerminal: Bool

    public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    public func write(_ bytes: [UInt8]) { self.bytes.append(contentsOf: bytes) }

    public func flush() {}

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public func clear() { bytes.removeAll() }
}

/// Adapts a console to IAPKit's streaming sink.
struct ConsoleSink: ByteSink {
    let console: Console

    mutating func write(_ bytes: [UInt8]) throws(StoreError) { console.write(bytes) }
}
