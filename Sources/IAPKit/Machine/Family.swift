import IAPTime

/// The store account's Family Sharing group (`iapctl family`): the members, and what the
/// account's family-shareable purchases gave each of them.
///
/// Apple: "Family Sharing allows a customer to share access to auto-renewable subscriptions or
/// non-consumables with up to five family members ... When users share a purchase through Family
/// Sharing, each family member gets their own unique receipts and transactions" (StoreKit,
/// "Supporting Family Sharing in your app"). So a member's transaction has its own
/// `transactionId` and its own `originalTransactionId` (the member's first transaction of that
/// shared purchase; a renewal of a shared subscription keeps it, as the purchaser's renewals keep
/// theirs), `inAppOwnershipType` FAMILY_SHARED, and no charge.
///
/// The members' devices are not simulated: a member's transactions are recorded as delivered and
/// finished (never in the account's payment queue) and read with `--member NAME`.
public struct Family: Hashable, Sendable, Codable {
    /// The members other than the account, in the order they joined.
    public var members: [Member] = []
    /// What each member has through the family now, in the order it was shared. A revoked share
    /// leaves this list (its revoked transaction stays in history).
    public var shares: [Share] = []

    public init() {}

    public var isEmpty: Bool { members.isEmpty && shares.isEmpty }

    public func member(named name: String) -> Member? { members.first { $0.name == name } }

    public struct Member: Hashable, Sendable, Codable {
        public let name: String
        public let joined: Timestamp

        public init(name: String, joined: Timestamp) {
            self.name = name
            self.joined = joined
        }
    }

    /// One purchase of the account shared with one member.
    public struct Share: Hashable, Sendable, Codable {
        public let member: String
        /// The purchaser's original transaction id (a non-consumable's purchase, a subscription's
        /// first period).
        public let purchaserOriginalID: TransactionID
        /// The purchaser's transaction the member's latest one mirrors (a subscription's current
        /// period): a later purchaser transaction of the same original id renews the share.
        public var purchaserLatestID: TransactionID
        /// The member's latest transaction of this share (its original id is the member's own).
        public var latest: Transaction

        public init(member: String, purchaserOriginalID: TransactionID, purchaserLatestID: TransactionID, latest: Transaction) {
            self.member = member
            self.purchaserOriginalID = purchaserOriginalID
            self.purchaserLatestID = purchaserLatestID
            self.latest = latest
        }
    }

    /// Apple's limit: the organizer and up to five members.
    public static let maximumMembers = 5

    /// Whether `name` can name a member: 1-32 characters, letters, digits, `.`, `_` and `-`,
    /// starting with a letter or digit (it is printed in tables and used as an option value).
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, (1...32).contains(name.unicodeScalars.count) else { return false }
        func alnum(_ c: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
        }
        guard alnum(first) else { return false }
        return name.unicodeScalars.allSatisfy { alnum($0) || $0 == "." || $0 == "_" || $0 == "-" }
    }
}

/// `iapctl family add|remove`.
public enum FamilyRequest: Hashable, Sendable {
    case add(String)
    case remove(String)
    /// `buy ID --member NAME`: the member buys a one-time product for itself.
    case buy(ProductID, member: String)
}

/// What a `family` command did: the member, and the transactions shared with or revoked from it.
public struct FamilyResult: Hashable, Sendable {
    public let member: String
    public let added: Bool
    public let shared: [Transaction]
    public let revoked: [Transaction]
}

/// A Family Sharing event (event kinds 225-228).
public enum FamilyChange: Hashable, Sendable {
    /// `family add`: a member joined.
    case memberAdded(String)
    /// `family remove`: a member left (their shared transactions are revoked first).
    case memberRemoved(String)
    /// A member got a FAMILY_SHARED transaction: a purchase shared, a member that joined after
    /// it, or the renewal of a shared subscription.
    case transactionShared(Transaction)
    /// A member's shared transaction was revoked (REVOKE, `revocationType` FAMILY_REVOKE): the
    /// member left, or the purchaser's transaction was refunded.
    case transactionRevoked(Transaction)
    /// A member bought a one-time product itself (`buy --member`): its own PURCHASED
    /// transaction, next to any FAMILY_SHARED one of the same product (ONE_TIME_CHARGE).
    case memberPurchased(Transaction)
    /// `refund reverse` of the purchaser's transaction cleared a member's FAMILY_REVOKE
    /// revocation (the same transaction, its revocation date and reason removed); no
    /// notification (Apple documents none for the member).
    case revocationCleared(Transaction)
    /// `delete` of the purchaser's transaction deleted a member's copy of it (a tombstone).
    case transactionDeleted(Transaction)

    public var name: String {
        switch self {
        case .memberAdded: return "familyMemberAdded"
        case .memberRemoved: return "familyMemberRemoved"
        case .transactionShared: return "familyTransactionShared"
        case .transactionRevoked: return "familyTransactionRevoked"
        case .memberPurchased: return "familyMemberPurchased"
        case .revocationCleared: return "familyRevocationCleared"
        case .transactionDeleted: return "familyTransactionDeleted"
        }
    }

    public var transaction: Transaction? {
        switch self {
        case .memberAdded, .memberRemoved: return nil
        case .transactionShared(let t), .transactionRevoked(let t), .memberPurchased(let t), .revocationCleared(let t),
            .transactionDeleted(let t):
            return t
        }
    }
}

/// Why a `family` command or a `--member` option was refused.
public enum FamilyError: Hashable, Sendable, CustomStringConvertible {
    case badName(String)
    case duplicate(String)
    case full(String)
    case unknownMember(String, known: [String])
    case noFamily(String)
    case memberTransaction(TransactionID, member: String, purchaser: TransactionID)
    case memberSubscription(ProductID, member: String)

    public var exitCode: ExitCode {
        switch self {
        case .badName: return .usage
        case .duplicate, .full, .memberTransaction, .memberSubscription: return .notAllowed
        case .unknownMember, .noFamily: return .notFound
        }
    }

    public var description: String {
        switch self {
        case .badName(let name):
            return
                "bad family member name '\(name)'; use 1-32 letters, digits, '.', '_' or '-', starting with a letter or digit"
        case .duplicate(let name):
            return "'\(name)' is already a member of the family (see 'iapctl family list')"
        case .full(let name):
            return
                "cannot add '\(name)': a family has at most \(Family.maximumMembers) members besides the organizer (remove one with 'iapctl family remove NAME')"
        case .unknownMember(let name, let known):
            let close = Suggestions.nearest(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
            return "unknown family member '\(name)'\(close) (members: \(known.joined(separator: ", ")))"
        case .noFamily(let name):
            return "unknown family member '\(name)': the account has no family (add one with 'iapctl family add \(name)')"
        case .memberSubscription(let id, let member):
            return
                "cannot buy '\(id)' for \(member): a member's own non-renewing subscriptions are not simulated (only consumables, non-consumables and auto-renewable subscriptions)"
        case .memberTransaction(let id, let member, let purchaser):
            return
                "transaction \(id) is \(member)'s FAMILY_SHARED copy; refund the purchaser's transaction \(purchaser) (that revokes it) or remove the member with 'iapctl family remove \(member)'"
        }
    }
}

extension StoreState {
    /// The family, or an empty one.
    public var familyGroup: Family {
        get { family ?? Family() }
        // Changed in place, not copied whole by a get and a set (see `StoreState.offers`).
        _modify {
            var value = family ?? Family()
            family = nil
            defer { family = value.isEmpty ? nil : value }
            yield &value
        }
    }

    /// Checks a `--member NAME` value: the member must be in the family.
    public func checkMember(_ name: String) throws(StoreError) {
        guard let family, !family.members.isEmpty else { throw .family(.noFamily(name)) }
        guard family.member(named: name) != nil else {
            throw .family(.unknownMember(name, known: family.members.map(\.name)))
        }
    }
}

extension StoreState {
    /// The account's subscription a family member's shared subscription transaction `t` mirrors:
    /// the purchaser's subscription of the member's current share, else (the share has ended:
    /// revoked, or the member left) the account's subscription of the same product or, after an
    /// upgrade, of the same group (the first by original id). Nil for anything else.
    public func purchaserSubscription(ofShared t: Transaction) -> Subscription? {
        guard t.productType == .autoRenewable, let member = t.familyMember, !t.isMemberPurchase else { return nil }
        if let share = familyGroup.shares.first(where: { $0.member == member && $0.latest.originalID == t.originalID }),
            let sub = subscriptions[share.purchaserOriginalID]
        {
            return sub
        }
        let all = subscriptions.values.sorted { $0.originalID < $1.originalID }
        return all.first { $0.productID == t.productID }
            ?? all.first { t.subscriptionGroup != nil && $0.group == t.subscriptionGroup }
    }
}
