/// StoreKit's `SKError.Code` (domain `SKErrorDomain`), with the raw values Apple's headers give.
public enum SKErrorCode: Int, CaseIterable, Sendable {
    case unknown = 0
    case clientInvalid = 1
    case paymentCancelled = 2
    case paymentInvalid = 3
    case paymentNotAllowed = 4
    case storeProductNotAvailable = 5
    case cloudServicePermissionDenied = 6
    case cloudServiceNetworkConnectionFailed = 7
    case cloudServiceRevoked = 8
    case privacyAcknowledgementRequired = 9
    case unauthorizedRequestData = 10
    case invalidOfferIdentifier = 11
    case invalidSignature = 12
    case missingOfferParams = 13
    case invalidOfferPrice = 14
    case overlayCancelled = 15
    case overlayInvalidConfiguration = 16
    case overlayTimeout = 17
    case ineligibleForOffer = 18
    case unsupportedPlatform = 19
    case overlayPresentedInBackgroundScene = 20

    /// The case name, as Swift spells it (`paymentNotAllowed`).
    public var name: String { String(describing: self) }

    /// A user-facing message in the spirit of StoreKit's localized descriptions.
    public var message: String {
        switch self {
        case .unknown: return "An unknown error occurred."
        case .clientInvalid: return "The client is not allowed to issue the request."
        case .paymentCancelled: return "The user cancelled the payment request."
        case .paymentInvalid: return "The purchase identifier was invalid."
        case .paymentNotAllowed: return "This device is not allowed to make the payment."
        case .storeProductNotAvailable: return "The product is not available in the current storefront."
        case .cloudServicePermissionDenied: return "The user has not allowed access to cloud service information."
        case .cloudServiceNetworkConnectionFailed: return "The device could not connect to the network."
        case .cloudServiceRevoked: return "The user has revoked permission to use this cloud service."
        case .privacyAcknowledgementRequired: return "The user has not yet acknowledged Apple's privacy policy."
        case .unauthorizedRequestData:
            return "The app is attempting to use a property for which it does not have the required entitlement."
        case .invalidOfferIdentifier: return "The offer identifier is invalid."
        case .invalidSignature: return "The signature in a payment discount is not valid."
        case .missingOfferParams: return "Parameters are missing in a payment discount."
        case .invalidOfferPrice: return "The price of the selected offer is not valid."
        case .overlayCancelled: return "The user cancelled the overlay."
        case .overlayInvalidConfiguration: return "The overlay configuration is not valid."
        case .overlayTimeout: return "The overlay timed out."
        case .ineligibleForOffer: return "The user is not eligible for the subscription offer."
        case .unsupportedPlatform: return "The platform does not support the request."
        case .overlayPresentedInBackgroundScene: return "The overlay was presented in a background scene."
        }
    }
}
