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
    case invalidAccountTenure = 4000032
    case invalidAppAccountToken = 4000033
    case invalidConsumptionStatus = 4000034
    case invalidCustomerConsented = 4000035
    case invalidDeliveryStatus = 4000036
    case invalidLifetimeDollarsPurchased = 4000037
    case invalidLifetimeDollarsRefunded = 4000038
    case invalidPlatform = 4000039
    case invalidPlayTime = 4000040
    case invalidSampleContentProvided = 4000041
    case invalidUserStatus = 4000042
    case invalidTransactionTypeNotSupported = 4000047
    case invalidExtendByDays = 4000009
    case invalidExtendReasonCode = 4000010
    case invalidRequestIdentifier = 4000011
    case invalidEmptyStorefrontCountryCodeList = 4000027
    case invalidStorefrontCountryCode = 4000028
    case subscriptionExtensionIneligible = 4030004
    case subscriptionMaxExtension = 4030005
    case familySharedSubscriptionExtensionIneligible = 4030007
    case statusRequestNotFound = 4040009
    case invalidTestNotificationToken = 4000020
    case serverNotificationURLNotFound = 4040007
    case testNotificationNotFound = 4040008
    case startDateTooFarInPast = 4000012
    case invalidPaginationToken = 4000014
    case invalidNotificationType = 4000018
    case multipleFiltersSupplied = 4000019
    case invalidImage = 4000161
    case headerTooLong = 4000162
    case bodyTooLong = 4000163
    case invalidLocale = 4000164
    case altTextTooLong = 4000175
    case badRequestRealtimeUrl = 4000215
    case badRequestImageSize = 4000216
    case badRequestTooManyBulletPoints = 4000218
    case badRequestBulletPointTextTooLong = 4000219
    case badRequestAboveImageRequiresAnImage = 4000224
    case imageInUse = 4030019
    case imageNotFound = 4040014
    case messageNotFound = 4040015
    case defaultMessageNotFound = 4040020
    case realtimeUrlNotFound = 4040021
    case imageAlreadyExists = 4090000
    case messageAlreadyExists = 4090001
    case invalidPerformanceTestRequest = 4000211
    case invalidRequestId = 4000212
    case performanceTestRunNotFound = 4040018
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
        case .invalidAccountTenure: return "InvalidAccountTenureError"
        case .invalidAppAccountToken: return "InvalidAppAccountTokenError"
        case .invalidConsumptionStatus: return "InvalidConsumptionStatusError"
        case .invalidCustomerConsented: return "InvalidCustomerConsentedError"
        case .invalidDeliveryStatus: return "InvalidDeliveryStatusError"
        case .invalidLifetimeDollarsPurchased: return "InvalidLifetimeDollarsPurchasedError"
        case .invalidLifetimeDollarsRefunded: return "InvalidLifetimeDollarsRefundedError"
        case .invalidPlatform: return "InvalidPlatformError"
        case .invalidPlayTime: return "InvalidPlayTimeError"
        case .invalidSampleContentProvided: return "InvalidSampleContentProvidedError"
        case .invalidUserStatus: return "InvalidUserStatusError"
        case .invalidTransactionTypeNotSupported: return "InvalidTransactionTypeNotSupportedError"
        case .invalidExtendByDays: return "InvalidExtendByDaysError"
        case .invalidExtendReasonCode: return "InvalidExtendReasonCodeError"
        case .invalidRequestIdentifier: return "InvalidRequestIdentifierError"
        case .invalidEmptyStorefrontCountryCodeList: return "InvalidEmptyStorefrontCountryCodeListError"
        case .invalidStorefrontCountryCode: return "InvalidStorefrontCountryCodeError"
        case .subscriptionExtensionIneligible: return "SubscriptionExtensionIneligibleError"
        case .subscriptionMaxExtension: return "SubscriptionMaxExtensionError"
        case .familySharedSubscriptionExtensionIneligible: return "FamilySharedSubscriptionExtensionIneligibleError"
        case .statusRequestNotFound: return "StatusRequestNotFoundError"
        case .invalidTestNotificationToken: return "InvalidTestNotificationTokenError"
        case .serverNotificationURLNotFound: return "ServerNotificationURLNotFoundError"
        case .testNotificationNotFound: return "TestNotificationNotFoundError"
        case .startDateTooFarInPast: return "StartDateTooFarInPastError"
        case .invalidPaginationToken: return "InvalidPaginationTokenError"
        case .invalidNotificationType: return "InvalidNotificationTypeError"
        case .multipleFiltersSupplied: return "MultipleFiltersSuppliedError"
        case .invalidImage: return "InvalidImageError"
        case .headerTooLong: return "HeaderTooLongError"
        case .bodyTooLong: return "BodyTooLongError"
        case .invalidLocale: return "InvalidLocaleError"
        case .altTextTooLong: return "AltTextTooLongError"
        case .badRequestRealtimeUrl: return "BadRequestRealtimeUrlError"
        case .badRequestImageSize: return "BadRequestImageSizeError"
        case .badRequestTooManyBulletPoints: return "BadRequestTooManyBulletPointsError"
        case .badRequestBulletPointTextTooLong: return "BadRequestBulletPointTextTooLongError"
        case .badRequestAboveImageRequiresAnImage: return "BadRequestAboveImageRequiresAnImageError"
        case .imageInUse: return "ImageInUseError"
        case .imageNotFound: return "ImageNotFoundError"
        case .messageNotFound: return "MessageNotFoundError"
        case .defaultMessageNotFound: return "DefaultMessageNotFoundError"
        case .realtimeUrlNotFound: return "RealtimeUrlNotFoundError"
        case .imageAlreadyExists: return "ImageAlreadyExistsError"
        case .messageAlreadyExists: return "MessageAlreadyExistsError"
        case .invalidPerformanceTestRequest: return "InvalidPerformanceTestRequestError"
        case .invalidRequestId: return "InvalidRequestIdError"
        case .performanceTestRunNotFound: return "PerformanceTestRunNotFoundError"
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
        case .invalidAccountTenure: return "Invalid request. The account tenure field is invalid."
        case .invalidAppAccountToken: return "Invalid request. The app account token field is invalid."
        case .invalidConsumptionStatus: return "Invalid request. The consumption status field is invalid."
        case .invalidCustomerConsented:
            return "Invalid request. The customer consented field is invalid or doesn't indicate that the customer consented."
        case .invalidDeliveryStatus: return "Invalid request. The delivery status field is invalid."
        case .invalidLifetimeDollarsPurchased: return "Invalid request. The lifetime dollars purchased field is invalid."
        case .invalidLifetimeDollarsRefunded: return "Invalid request. The lifetime dollars refunded field is invalid."
        case .invalidPlatform: return "Invalid request. The platform field is invalid."
        case .invalidPlayTime: return "Invalid request. The playtime field is invalid."
        case .invalidSampleContentProvided: return "Invalid request. The sample content provided field is invalid."
        case .invalidUserStatus: return "Invalid request. The user status field is invalid."
        case .invalidTransactionTypeNotSupported: return "Invalid request. The transaction type isn't supported by this endpoint."
        case .invalidExtendByDays: return "Invalid request. The extend by days value is invalid."
        case .invalidExtendReasonCode: return "Invalid request. The extend reason code is invalid."
        case .invalidRequestIdentifier: return "Invalid request. The request identifier is invalid."
        case .invalidEmptyStorefrontCountryCodeList: return "Invalid request. The storefront country code list is empty."
        case .invalidStorefrontCountryCode: return "Invalid request. A storefront country code is invalid."
        case .subscriptionExtensionIneligible: return "Forbidden - subscription state ineligible for extension."
        case .subscriptionMaxExtension: return "Forbidden - subscription has reached maximum extension count."
        case .familySharedSubscriptionExtensionIneligible:
            return
                "Forbidden - the subscription isn't directly eligible for a renewal date extension because the user obtained it through Family Sharing."
        case .statusRequestNotFound:
            return
                "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination."
        case .invalidTestNotificationToken: return "Invalid request. The test notification token is invalid."
        case .serverNotificationURLNotFound:
            return
                "No App Store Server Notification URL found for provided app. Check that a URL is configured in App Store Connect for this environment."
        case .testNotificationNotFound:
            return "Either the test notification token is expired or the notification and status are not yet available."
        case .startDateTooFarInPast: return "Invalid request. The start date is earlier than the allowed start date."
        case .invalidPaginationToken: return "Invalid request. The pagination token is invalid."
        case .invalidNotificationType: return "Invalid request. The notification type or subtype is invalid."
        case .multipleFiltersSupplied: return "Invalid request. Too many filters were supplied."
        case .invalidImage: return "Invalid request. The image that you uploaded is invalid."
        case .headerTooLong: return "Invalid request. The header text is too long."
        case .bodyTooLong: return "Invalid request. The body text is too long."
        case .invalidLocale: return "Invalid request. The locale is invalid."
        case .altTextTooLong: return "Invalid request. The alternative text for an image is too long."
        case .badRequestRealtimeUrl: return "Invalid request. The realtime URL is invalid."
        case .badRequestImageSize: return "Invalid request. The image size is invalid."
        case .badRequestTooManyBulletPoints: return "Invalid request. There are too many bullet points."
        case .badRequestBulletPointTextTooLong: return "Invalid request. A bullet point's text is too long."
        case .badRequestAboveImageRequiresAnImage: return "Invalid request. The ABOVE_IMAGE header position requires an image."
        case .imageInUse: return "The image is in use by a message."
        case .imageNotFound: return "The system can't find the image identifier."
        case .messageNotFound: return "The system can't find the message identifier."
        case .defaultMessageNotFound: return "The system can't find the default message."
        case .realtimeUrlNotFound: return "The system can't find the realtime URL."
        case .imageAlreadyExists: return "The image identifier already exists."
        case .messageAlreadyExists: return "The message identifier already exists."
        case .invalidPerformanceTestRequest: return "Invalid request. The performance test request is invalid."
        case .invalidRequestId: return "Invalid request. The request id is invalid."
        case .performanceTestRunNotFound: return "The system can't find the performance test run."
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
        case 409: return .conflict
        default: return .internalServerError
        }
    }

    /// The JSON error response, `errorMessage` being Apple's sentence followed by `detail`.
    public func response(_ detail: String) -> HTTPResponse {
        HTTPResponse.error(status, code: rawValue, message: detail.isEmpty ? summary : "\(summary) \(detail)")
    }
}
