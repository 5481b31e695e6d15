import IAPJSON

/// Answers a legacy `verifyReceipt` request (REFERENCE section 6) the way `iapctl verify-receipt`
/// does: the receipt engine implements it and `iapctl serve` injects it. The server checks the
/// request's shape first (`VerifyReceiptRequest.parse`), so an implementation only sees a POST
/// whose JSON carries decodable `receipt-data`.
public protocol ReceiptVerifying: Sendable {
    /// The whole JSON response body: `{"status": 0, "environment": ..., "receipt": ...}`, or a
    /// non-zero status. Apple answers every verifyReceipt call with HTTP 200 and puts the outcome
    /// in `status`.
    func verifyReceipt(_ request: VerifyReceiptRequest, session: StoreSession) throws -> [UInt8]
}

/// A `verifyReceipt` request body whose shape is right.
public struct VerifyReceiptRequest: Sendable, Equatable {
    /// The receipt, base64-decoded.
    public let receipt: [UInt8]
    /// The app's shared secret (`password`), required by Apple for auto-renewable subscriptions.
    public let password: String?
    /// `exclude-old-transactions`: only the latest renewal of each subscription in
    /// `latest_receipt_info`.
    public let excludeOldTransactions: Bool
    /// Whether it came to `/sandbox/verifyReceipt` rather than `/verifyReceipt` (production);
    /// a receipt of the other environment answers 21007 or 21008.
    public let sandbox: Bool

    public init(receipt: [UInt8], password: String?, excludeOldTransactions: Bool, sandbox: Bool) {
        self.receipt = receipt
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
        self.sandbox = sandbox
    }

    /// A status-only refusal: the `status` and why, for the `Iapctl-Reason` response header.
    public struct Refusal: Error, Equatable, Sendable {
        public let status: Int
        public let reason: String
    }

    /// 21000: the request was not a readable JSON POST.
    public static let unreadable = 21000
    /// 21002: `receipt-data` is missing or malformed.
    public static let malformedReceiptData = 21002

    /// Checks the body of a POST to verifyReceipt: a JSON object with `receipt-data` as a
    /// non-empty base64 string, `password` a string if present, `exclude-old-transactions` a
    /// boolean if present.
    public static func parse(body: [UInt8], sandbox: Bool) -> Result<VerifyReceiptRequest, Refusal> {
        guard !body.isEmpty else {
            return .failure(Refusal(status: unreadable, reason: "empty body; POST a JSON object with receipt-data"))
        }
        guard let json = try? JSONParser.parse(body), json.objectValue != nil else {
            return .failure(Refusal(status: unreadable, reason: "the body is not a JSON object"))
        }
        var password: String?
        if let p = json["password"], p != .null {
            guard let text = p.stringValue else {
                return .failure(Refusal(status: unreadable, reason: "password is not a string"))
            }
            password = text
        }
        var exclude = false
        if let e = json["exclude-old-transactions"], e != .null {
            guard let flag = e.boolValue else {
                return .failure(Refusal(status: unreadable, reason: "exclude-old-transactions is not true or false"))
            }
            exclude = flag
        }
        guard let data = json["receipt-data"] else {
            return .failure(Refusal(status: malformedReceiptData, reason: "receipt-data is missing"))
        }
        guard let text = data.stringValue else {
            return .failure(
                Refusal(status: malformedReceiptData, reason: "receipt-data is \(data.kindName), not a base64 string"))
        }
        guard let receipt = ServerBase64.decodeStandard(text), !receipt.isEmpty else {
            return .failure(Refusal(status: malformedReceiptData, reason: "receipt-data is not base64 (RFC 4648) or is empty"))
        }
        return .success(
            VerifyReceiptRequest(receipt: receipt, password: password, excludeOldTransactions: exclude, sandbox: sandbox))
    }
}
