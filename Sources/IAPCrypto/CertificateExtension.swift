/// One X.509 v3 extension: its OID, criticality and the DER inside `extnValue`. Apple marks its
/// receipt-signing leaf with 1.2.840.113635.100.6.11.1 and its WWDR intermediate with
/// 1.2.840.113635.100.6.2.1 (both NULL-valued), and verifiers look for exactly these.
public struct CertificateExtension: Sendable, Equatable, Hashable {
    public let oid: OID
    public let isCritical: Bool
    /// The content of the extnValue OCTET STRING (itself DER, e.g. `05 00` for a NULL marker).
    public let value: [UInt8]

    public init(oid: OID, isCritical: Bool, value: [UInt8]) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
    }
}
