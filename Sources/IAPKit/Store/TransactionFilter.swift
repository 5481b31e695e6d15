/// The `dump` filters: every given condition must hold.
public struct TransactionFilter: Sendable {
    public var product: ProductID?
    public var state: String?
    public var unfinishedOnly = false
    public var user: UserID?
    /// Whose transactions: nil the account's own, else a family member's FAMILY_SHARED ones.
    public var member: String?

    public init(
        product: ProductID? = nil, state: String? = nil, unfinishedOnly: Bool = false, user: UserID? = nil,
        member: String? = nil
    ) {
        self.product = product
        self.state = state
        self.unfinishedOnly = unfinishedOnly
        self.user = user
        self.member = member
    }

    /// Whether `t` passes; deleted transactions (tombstones) never do.
    public func matches(_ t: Transaction) -> Bool {
        if t.isDeleted { return false }
        if t.familyMember != member { return false }
        if let product, t.productID != product { return false }
        if let state, t.state.name != state { return false }
        if unfinishedOnly && t.finished { return false }
        if let user, t.userID != user { return false }
        return true
    }
}
