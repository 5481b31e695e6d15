/// The two URLs of Apple's legacy verifyReceipt service: production
/// (`buy.itunes.apple.com/verifyReceipt`) and sandbox (`sandbox.itunes.apple.com/verifyReceipt`).
/// Apple's advice, which RMStore and DYFStoreKit follow: try production first, and on status
/// 21007 try the sandbox (REFERENCE section 6).
public enum VerifyReceiptEndpoint: String, CaseIterable, Hashable, Sendable {
    case production
    case sandbox

    /// The `environment` value of a response from this endpoint.
    public var environmentName: String { self == .production ? "Production" : "Sandbox" }
}
