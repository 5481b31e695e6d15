/// One check of a local receipt verification and its verdict, as `iapctl verify` prints it.
public struct ReceiptCheck: Hashable, Sendable {
    public enum Verdict: String, Hashable, Sendable {
        case pass, fail
        /// Not applicable to this receipt (said why in `detail`); does not fail verification.
        case skip
    }

    /// `signature`, `chain`, `appleMarkers`, `bundleId`, `appVersion`, `hash`, `transaction`, `product`.
    public let name: String
    public let verdict: Verdict
    /// What was compared, or why it failed, in one line.
    public let detail: String

    public init(_ name: String, _ verdict: Verdict, _ detail: String) {
        self.name = name
        self.verdict = verdict
        self.detail = detail
    }
}

/// Every check of one verification; valid when none failed.
public struct ReceiptVerificationReport: Hashable, Sendable {
    public let checks: [ReceiptCheck]

    public var isValid: Bool { !checks.contains { $0.verdict == .fail } }

    /// The first failed check, if any.
    public var firstFailure: ReceiptCheck? { checks.first { $0.verdict == .fail } }

    public func check(_ name: String) -> ReceiptCheck? { checks.first { $0.name == name } }
}
