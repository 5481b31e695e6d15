import IAPJSON

/// Which of Apple's signed payloads a JWS holds, told by the members only that kind has, and
/// where that kind keeps the app's bundle id, environment and Apple ID (the fields
/// `SignedDataVerifier` compares with its configuration).
public enum SignedPayloadKind: String, Sendable, Equatable {
    /// `ResponseBodyV2DecodedPayload`: has `notificationType`.
    case notification
    /// `AppTransaction`: has `receiptType` (and `appTransactionId` or `originalApplicationVersion`).
    case appTransaction
    /// `JWSTransactionDecodedPayload`: has `transactionId`.
    case transaction
    /// `JWSRenewalInfoDecodedPayload`: has `autoRenewStatus` or `autoRenewProductId`, or no
    /// `bundleId` at all (the only signed payload without one; Apple's minimal test renewal info
    /// holds just `environment` and `signedDate`).
    case renewalInfo
    /// A payload with a `bundleId` but none of the members above.
    case unknown

    public init(_ payload: JSONValue) {
        if payload["notificationType"] != nil {
            self = .notification
        } else if payload["receiptType"] != nil {
            self = .appTransaction
        } else if payload["transactionId"] != nil {
            self = .transaction
        } else if payload["autoRenewStatus"] != nil || payload["autoRenewProductId"] != nil || payload["bundleId"] == nil {
            self = .renewalInfo
        } else {
            self = .unknown
        }
    }

    /// (bundle id, environment, app Apple ID) as Apple's verifier reads them from `payload`.
    func identity(_ payload: JSONValue) -> (bundleID: String?, environment: String?, appAppleID: Int64?) {
        switch self {
        case .notification:
            for key in ["data", "summary", "appData"] {
                if let part = payload[key], part.objectValue != nil {
                    return (part["bundleId"]?.stringValue, part["environment"]?.stringValue, part["appAppleId"]?.int64Value)
                }
            }
            if let token = payload["externalPurchaseToken"], token.objectValue != nil {
                let sandbox = token["externalPurchaseId"]?.stringValue?.hasPrefix("SANDBOX") ?? false
                return (token["bundleId"]?.stringValue, sandbox ? "Sandbox" : "Production", token["appAppleId"]?.int64Value)
            }
            return (nil, nil, nil)
        case .appTransaction:
            return (payload["bundleId"]?.stringValue, payload["receiptType"]?.stringValue, payload["appAppleId"]?.int64Value)
        case .transaction, .renewalInfo, .unknown:
            return (payload["bundleId"]?.stringValue, payload["environment"]?.stringValue, nil)
        }
    }
}
