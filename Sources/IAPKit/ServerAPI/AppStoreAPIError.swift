import IAPHTTP

/// The App Store Server API errors the server answers with, by Apple's `errorCode` (see Apple's
/// "Error codes" of the App Store Server API; the names are Apple's object names).
public enum AppStoreAPIError: Int, Sendable, CaseIterable {
    case generalBadRequest = 4000000
    case invalidRequestRevision = 4000005
    case invalidTransactionId = 4000006
    case invalidOriginalTransactionId = 4000008
    case startDateAfterEndDate = 4000013
    case invalidStartDate = 4000015
    case invalidEndDate = 4000016
    case invalidSort = 4000021
    case invalidProductType = 4000022
    case invalidProductId = 4000023
    case invalidSubscriptionGroupIdentifier = 4000024
    case invalidInAppOwnershipType = 4000026
    case invalidRevoked = 4000030
    case invalidStatus = 4000031
    case invalidAppAccountTokenUUID = 4000183
    case transactionIdIsNotOriginalTransactionId = 4000187
    case originalTransactionIdNotFound = 4040005
    case transactionIdNotFound = 4040010
    case generalInternal = 5000000
    case generalInternalRetryable = 5000001

    /// Apple's name for the error object.
    public var name: String {
        switch self {
        case .generalBadRequest: return "GeneralBadRequestError"
        case .invalidRequestRevision: return "InvalidRequestRevisionError"
        case .invalidTransactionId: return "InvalidTransactionIdError"
        case .invalidOriginalTransactionId: return "InvalidOriginalTransactionIdError"
        case .invalidAppAccountTokenUUID: return "InvalidAppAccountTokenUUIDError"
        case .transactionIdIsNotOriginalTransactionId: return "TransactionIdIsNotOriginalTransactionIdError"
        case .originalTransactionIdNotFound: return "OriginalTransactionIdNotFoundError"
        case .startDateAfterEndDate: return "StartDateAfterEndDateError"
        case .invalidStartDate: return "InvalidStartDateError"
        case .invalidEndDate: return "InvalidEndDateError"
        case .invalidSort: return "InvalidSortError"
        case .invalidProductType: return "InvalidProductTypeError"
        case .invalidProductId: return "InvalidProductIdError"
        case .invalidSubscriptionGroupIdentifier: return "InvalidSubscriptionGroupIdentifierError"
        case .invalidInAppOwnershipType: return "InvalidInAppOwnershipTypeError"
        case .invalidRevoked: return "InvalidRevokedError"
        case .invalidStatus: return "InvalidStatusError"
        case .transactionIdNotFound: return "TransactionIdNotFoundError"
        case .generalInternal: return "GeneralInternalError"
        case .generalInternalRetryable: return "GeneralInternalRetryableError"
        }
    }

    /// The first sentence of `errorMessage`, as Apple words it.
    public var summary: String {
        switch self {
        case .generalBadRequest: return "Bad request."
        case .invalidRequestRevision: return "Invalid request revision."
        case .invalidTransactionId: return "Invalid transaction id."
        case .invalidOriginalTransactionId: return "Invalid original transaction id."
        case .invalidAppAccountTokenUUID: return "Invalid request. The app account token field must be a valid UUID."
        case .transactionIdIsNotOriginalTransactionId:
            return "Invalid request. The transaction ID provided is not an original transaction ID."
        case .originalTransactionIdNotFound: return "Original transaction id not found."
        case .startDateAfterEndDate: return "Invalid request. The end date precedes or equals the start date."
        case .invalidStartDate: return "Invalid request. The start date is not valid."
        case .invalidEndDate: return "Invalid request. The end date is not valid."
        case .invalidSort: return "Invalid request. The sort parameter is invalid."
        case .invalidProductType: return "Invalid request. The product type parameter is invalid."
        case .invalidProductId: return "Invalid request. The product id parameter is invalid."
        case .invalidSubscriptionGroupIdentifier:
            return "Invalid request. The subscription group identifier parameter is invalid."
        case .invalidInAppOwnershipType: return "Invalid request. The in-app ownership type parameter is invalid."
        case .invalidRevoked: return "Invalid request. The revoked parameter is invalid."
        case .invalidStatus: return "Invalid request. The status parameter is invalid."
        case .transactionIdNotFound: return "Transaction id not found."
        case .generalInternal: return "An unknown error occurred."
        case .generalInternalRetryable: return "An unknown error occurred. Please try again."
        }
    }

    public var status: HTTPStatus {
        switch rawValue / 10_000 {
        case 400: return .badRequest
        case 403: return .forbidden
        case 404: return .notFound
        default: return .internalServerError
        }
    }

    /// The JSON error response, `errorMessage` being Apple's sentence followed by `detail`.
    public func response(_ detail: String) -> HTTPResponse {
        HTTPResponse.error(status, code: rawValue, message: detail.isEmpty ? summary : "\(summary) \(detail)")
    }
}
