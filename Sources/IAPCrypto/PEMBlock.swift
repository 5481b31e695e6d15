/// One `-----BEGIN label-----` ... `-----END label-----` block: its label and decoded bytes.
public struct PEMBlock: Sendable, Equatable, Hashable {
    /// The label, e.g. `CERTIFICATE`, `EC PRIVATE KEY`, `PRIVATE KEY`, `PUBLIC KEY`.
    public let label: String
    /// The DER (or other binary) content.
    public let bytes: [UInt8]
    /// Where the BEGIN line starts in the decoded text, for error messages; 0 for built blocks.
    public let offset: Int

    public init(label: String, bytes: [UInt8], offset: Int = 0) {
        self.label = label
        self.bytes = bytes
        self.offset = offset
    }

    public static func == (a: PEMBlock, b: PEMBlock) -> Bool { a.label == b.label && a.bytes == b.bytes }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(label)
        hasher.combine(bytes)
    }
}
