/// The basicConstraints extension (RFC 5280 section 4.2.1.9): whether a certificate may sign
/// other certificates and how many intermediates may follow it. A chain check refuses an issuer
/// without `isCA`, which is what stops a leaf from minting its own certificates.
public struct BasicConstraints: Sendable, Equatable, Hashable {
    public let isCA: Bool
    /// The maximum number of non-self-issued intermediates below this CA, if limited.
    public let pathLength: Int?

    public init(isCA: Bool, pathLength: Int? = nil) {
        self.isCA = isCA
        self.pathLength = pathLength
    }

    /// Decodes the extension value `SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL }`.
    init(der bytes: [UInt8], offset: Int) throws(ASN1Error) {
        let sequence: ASN1Element
        do {
            sequence = try ASN1Element(der: bytes).expect(.sequence, "a BasicConstraints SEQUENCE")
        } catch {
            throw ASN1Error(offset: offset + error.offset, expected: error.expected)
        }
        var isCA = false
        var pathLength: Int?
        var index = 0
        if index < sequence.children.count, sequence.children[index].tag == .boolean {
            isCA = try sequence.children[index].boolValue()
            index += 1
        }
        if index < sequence.children.count {
            let element = sequence.children[index]
            guard element.tag == .integer, let value = try? element.intValue(), value >= 0 else {
                throw ASN1Error(offset: offset + element.offset, expected: "a non-negative pathLenConstraint INTEGER")
            }
            pathLength = value
            index += 1
        }
        guard index == sequence.children.count else {
            throw ASN1Error(offset: offset + sequence.children[index].offset, expected: "the end of BasicConstraints")
        }
        self.init(isCA: isCA, pathLength: pathLength)
    }
}
