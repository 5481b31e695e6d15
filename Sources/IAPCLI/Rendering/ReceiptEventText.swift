import IAPKit

/// How receipt events read for people, one line each.
enum ReceiptEventText {
    static func line(_ event: ReceiptEvent) -> String {
        switch event {
        case .refreshFinished:
            return "receipt refreshed"
        case .refreshFailed(let error):
            return "receipt refresh failed: \(error)"
        case .verified(let r):
            return "receipt verified (\(describe(r)))"
        case .verificationFailed(let r):
            return "receipt verification failed (\(describe(r)))\(r.error.map { ": \($0)" } ?? "")"
        case .transactionVerificationFailed(let t, let error):
            return t.finished
                ? "finished  \(t.id)  \(t.productID)  reported failed: verification failed: \(error)"
                : "kept      \(t.id)  \(t.productID)  in the queue: verification could not be completed (\(error)); it comes back at the next launch"
        }
    }

    static func describe(_ r: ReceiptVerificationRecord) -> String {
        var parts: [String] = []
        switch r.method {
        case .local: parts.append("local")
        case .verifyReceipt(let endpoint): parts.append("verifyReceipt \(endpoint.rawValue)")
        }
        if let status = r.status { parts.append("status \(status)") }
        if let id = r.transactionID { parts.append("transaction \(id)") }
        if let p = r.productID { parts.append("product \(p)") }
        return parts.joined(separator: ", ")
    }
}
