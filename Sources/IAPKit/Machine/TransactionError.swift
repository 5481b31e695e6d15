/// The error a failed transaction (or a failed request) carries: StoreKit's `NSError` as data.
public struct TransactionError: Hashable, Sendable, Codable, CustomStringConvertible {
    public let domain: String
    public let code: Int
    public let name: String
    public let message: String

    public init(domain: String, code: Int, name: String, message: String) {
        self.domain = domain
        self.code = code
        self.name = name
        self.message = message
    }

    public static let skErrorDomain = "SKErrorDomain"

    public init(_ code: SKErrorCode) {
        self.init(domain: TransactionError.skErrorDomain, code: code.rawValue, name: code.name, message: code.message)
    }

    public var description: String { "\(domain) \(code) (\(name)): \(message)" }

    public var isCancellation: Bool { domain == TransactionError.skErrorDomain && code == SKErrorCode.paymentCancelled.rawValue }
}
