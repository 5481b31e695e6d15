/// The kind of offer a transaction was bought under: StoreKit's `Transaction.OfferType` and the
/// App Store Server API's `offerType`, with Apple's raw values ("1 An introductory offer. 2 A
/// promotional offer. 3 An offer with a subscription offer code. 4 A win-back offer", App Store
/// Server API, offerType).
public enum OfferType: Int, Hashable, Sendable, CaseIterable, Codable {
    case introductory = 1
    case promotional = 2
    case code = 3
    case winBack = 4

    /// The name iapctl's JSON and text use.
    public var name: String {
        switch self {
        case .introductory: return "introductory"
        case .promotional: return "promotional"
        case .code: return "code"
        case .winBack: return "winBack"
        }
    }
}
