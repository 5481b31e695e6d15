import IAPJSON

/// The JSON of receipt events (after `seq`, `name`, `date`, `timestamp`):
/// - `refreshReceiptFinished`: `request` {kind "refreshReceipt"};
/// - `refreshReceiptFailed`: `request` {kind "refreshReceipt", error};
/// - `receiptVerified` / `receiptVerificationFailed`: `verification` {method "local" |
///   "verifyReceipt", endpoint "production" | "sandbox" | null, transactionIdentifier,
///   productIdentifier, status, error};
/// - `transactionVerificationFailed`: `transaction` (its `finished` says whether it left the
///   queue) and `error`.
enum ReceiptEventJSON {
    static func write(_ event: ReceiptEvent, into w: inout JSONWriter) {
        switch event {
        case .refreshFinished:
            w.key("request")
            w.beginObject()
            w.key("kind")
            w.string("refreshReceipt")
            w.endObject()
        case .refreshFailed(let error):
            EventJSON.request("refreshReceipt", error: error, into: &w)
        case .verified(let r), .verificationFailed(let r):
            w.key("verification")
            write(r, into: &w)
        case .transactionVerificationFailed(let t, let error):
            w.key("transaction")
            TransactionJSON.write(t, into: &w)
            w.key("error")
            TransactionJSON.writeError(error, into: &w)
        }
    }

    static func write(_ r: ReceiptVerificationRecord, into w: inout JSONWriter) {
        w.beginObject()
        w.key("method")
        w.string(r.method.name)
        w.key("endpoint")
        if case .verifyReceipt(let endpoint) = r.method { w.string(endpoint.rawValue) } else { w.null() }
        w.key("transactionIdentifier")
        if let id = r.transactionID { w.decimalString(id.rawValue) } else { w.null() }
        w.key("productIdentifier")
        w.optionalString(r.productID?.rawValue)
        w.key("status")
        if let status = r.status { w.int(status) } else { w.null() }
        w.key("error")
        if let error = r.error { TransactionJSON.writeError(error, into: &w) } else { w.null() }
        w.endObject()
    }
}
