/// A purchase that failed because the user had to act outside the app first (accept new terms,
/// fix a payment method). Resolving it yields a new, purchased transaction, as Apple's
/// "Testing an interrupted purchase" describes: the first transaction fails, then a new one
/// succeeds.
public struct InterruptedPurchase: Hashable, Sendable, Codable {
    /// The failed transaction.
    public let transactionID: TransactionID
    public let productID: ProductID
    public let userID: UserID?
    public let quantity: Int

    public init(transactionID: TransactionID, productID: ProductID, userID: UserID?, quantity: Int) {
        self.transactionID = transactionID
        self.productID = productID
        self.userID = userID
        self.quantity = quantity
    }
}
