/// Where streamed output goes (`dump`, `events`): the CLI passes standard output, tests a buffer.
public protocol ByteSink {
    mutating func write(_ bytes: [UInt8]) throws(StoreError)
}

/// A sink that keeps everything in memory.
public struct BufferSink: ByteSink {
    public var bytes: [UInt8] = []

    public init() {}

    public mutating func write(_ bytes: [UInt8]) throws(StoreError) { self.bytes.append(contentsOf: bytes) }

    public var string: String { String(decoding: bytes, as: UTF8.self) }
}
