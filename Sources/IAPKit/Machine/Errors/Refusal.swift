import IAPTime

/// A state change the lifecycle forbids (`StoreError.refused`, exit 4): the value at fault and
/// how to get past it. `description` is the line the CLI prints after `error: `.
public enum Refusal: Hashable, Sendable, CustomStringConvertible {
    // MARK: - The store

    /// `createStore` on a state that already has history.
    case storeHasHistory

    // MARK: - Apple-hosted downloads

    /// `download MOVE --content` on a download the move does not apply to.
    case downloadMove(DownloadMove, content: String, of: TransactionID, state: DownloadState)
    /// `download MOVE` when no download of the transaction is in a state the move applies to;
    /// `states` lists each download's state.
    case noDownloadToMove(DownloadMove, of: TransactionID, states: String)
    /// Progress reported for a download that is not active.
    case progressOfInactiveDownload(content: String, of: TransactionID, state: DownloadState)
    /// `download run --content` on a download that is not active.
    case downloadNotActive(content: String, of: TransactionID, state: DownloadState)
    /// `download run` when no download of the transaction is active.
    case noActiveDownload(of: TransactionID, states: String)
    /// Downloads of a finished transaction.
    case downloadsOfFinished(TransactionID)

    // MARK: - Self-hosted content

    /// A content download step for a transaction without self-hosted content; `why` says which.
    case noSelfHostedContent(TransactionID, why: String)
    /// A content download step (`what`: "a start", "progress", ...) its state does not allow.
    case contentStep(String, of: TransactionID, state: DownloadState)

    // MARK: - Faults, the ledger, store payments

    /// `fault add` with every fault slot in use.
    case tooManyFaults(Int)
    /// `consume` of a product that is not a consumable.
    case consumeNonConsumable(ProductID, ProductType)
    /// `consume` of more than the balance.
    case consumeAboveBalance(ProductID, count: Int, balance: Int)
    /// `promote` with store-payments defer and every stored-payment slot in use.
    case tooManyStoredPayments(Int)

    // MARK: - Ask to Buy, interrupted purchases

    /// `approve`/`decline` (`verb`) of a finished transaction.
    case approveFinished(verb: String, TransactionID)
    /// `approve`/`decline` (`verb`) of a transaction that is not deferred.
    case approveNotDeferred(verb: String, TransactionID, state: String)
    /// `resolve` of a transaction with nothing to resolve; `what` is its state.
    case nothingToResolve(TransactionID, what: String)

    // MARK: - The clock

    /// `clock set` to a date before the clock.
    case clockBackwards(from: Timestamp, to: Timestamp)
    /// A command would move the clock past the last date iapctl writes, by its clock step.
    case clockPastLimit(limit: Timestamp, at: Timestamp, step: String)
    /// A transaction (`what`) would expire past the last date iapctl writes; `fix` says what to do.
    case expiresPastLimit(what: String, limit: Timestamp, fix: String)

    // MARK: - Subscriptions (`original`, `product` name the subscription)

    /// `auto-renew` on an expired or revoked subscription (`status`).
    case autoRenewOfEnded(original: TransactionID, product: ProductID, status: String)
    /// `expire` of an expired or revoked subscription.
    case alreadyEnded(original: TransactionID, product: ProductID, status: String)
    /// `renew` of a subscription with a billing issue.
    case renewWithBillingIssue(original: TransactionID, product: ProductID, status: String)
    /// `renew` of an expired or revoked subscription.
    case renewEnded(original: TransactionID, product: ProductID, status: String)
    /// `resolve-billing` of a subscription without a billing issue.
    case noBillingIssue(original: TransactionID, product: ProductID, status: String)
    /// A renewal into a product not sold in the storefront.
    case notRenewable(original: TransactionID, product: ProductID, renewal: ProductID, storefront: String)

    // MARK: - Refunds

    /// A refund of a transaction already refunded on `date`.
    case alreadyRefunded(TransactionID, on: Timestamp)
    /// A refund of a restored copy; the purchase to refund is `original`.
    case refundRestored(TransactionID, original: TransactionID)
    /// A refund of a transaction that is not purchased (`state`).
    case refundNotPurchased(TransactionID, state: String)
    /// A refund of a transaction nothing was charged for.
    case refundUncharged(TransactionID)
    /// A refund or deletion of a family member's own purchase.
    case memberOwnPurchase(TransactionID, member: String)
    /// `refund request` while one is open since `since`.
    case refundRequestOpen(TransactionID, since: Timestamp)
    /// `refund approve|decline` (`verb`) without a refund request.
    case noRefundRequest(TransactionID, verb: String)
    /// `refund approve|decline` of a request already answered (`status`).
    case refundRequestAnswered(TransactionID, status: String)
    /// `refund reverse` of a transaction that was not refunded.
    case notRefunded(TransactionID)

    // MARK: - Price increases (issue 15)

    /// `price-increase` of a product that is not auto-renewable.
    case priceIncreaseOfNonSubscription(ProductID, ProductType)
    /// `price-increase` to a price (`price`, formatted) not above the current one.
    case priceNotAbove(price: String, product: ProductID, storefront: String, current: String, currency: String)
    /// `price-consent` on a transaction that is not a subscription's.
    case consentOfNonSubscription(TransactionID, ProductType)
    /// `price-consent` with no price increase to answer; `renewal` is the product to raise.
    case noPriceIncrease(original: TransactionID, renewal: ProductID)
    /// `price-consent` after the increase was accepted (`price`, formatted, in `currency`).
    case priceIncreaseAccepted(original: TransactionID, price: String, currency: String)
    /// `price-consent` on an ended subscription (`status`).
    case consentOfEnded(original: TransactionID, status: String)
    /// `price-consent decline` after declining.
    case priceIncreaseDeclined(original: TransactionID)

    // MARK: - The App Store Server API

    /// `extendByDays` outside 1...maximum.
    case extendByDays(Int, maximum: Int)
    /// A renewal date extension the subscription is not eligible for (`why`).
    case notExtendable(original: TransactionID, why: String)
    /// A third renewal date extension within 365 days.
    case extendedTwice(original: TransactionID)

    // MARK: - Store directories

    /// `init` over an existing store without `--force`.
    case storeExists(path: String)
    /// `doctor --salvage` into a directory that holds a store.
    case salvageOverStore(path: String)

    // MARK: - Signed data, notifications sent on demand

    /// Signed data for a transaction the App Store never saw (`state`).
    case unsigned(TransactionID, state: String)
    /// `notifications send REVOKE` for a transaction not shared with the family.
    case revokeUnshared(TransactionID)
    /// `notifications send` of an auto-renew change (`notification`) to the status it has.
    case autoRenewAlready(original: TransactionID, on: Bool, notification: String)
    /// `notifications send` of a subscription notification for a `type` purchase.
    case notificationOfNonSubscription(notification: String, TransactionID, ProductType)

    public var description: String {
        switch self {
        case .unsigned(let id, let state):
            return
                "transaction \(id) is \(state): only purchased and restored transactions have signed data (the payment never reached the App Store)"
        case .revokeUnshared(let id):
            return
                "REVOKE comes from refunding a purchase shared with the family; \(id) is not one (see 'iapctl family list' and 'iapctl dump --member NAME')"
        case .autoRenewAlready(let original, let on, let notification):
            return
                "auto-renew of subscription \(original) is already \(on ? "on" : "off"), so it cannot change to make \(notification)"
        case .notificationOfNonSubscription(let notification, let id, let type):
            return "\(notification) is about an auto-renewable subscription; \(id) is a \(type) purchase"
        case .storeExists(let path):
            return "a store already exists at \(path); pass --force to replace it (its transactions will be lost)"
        case .salvageOverStore(let path):
            return "a store already exists at \(path); salvage into a new directory"
        case .priceIncreaseOfNonSubscription(let id, let type):
            return "'\(id)' is \(type.rawValue); price increases apply to auto-renewable subscriptions (see 'iapctl products')"
        case .priceNotAbove(let price, let id, let storefront, let current, let currency):
            return
                "\(price) is not above \(id)'s price in \(storefront) (\(current) \(currency)); a price increase must raise it"
        case .consentOfNonSubscription(let id, let type):
            return
                "transaction \(id) is a \(type.rawValue) purchase; price consent is a subscription's (see 'iapctl subscriptions')"
        case .noPriceIncrease(let original, let renewal):
            return
                "subscription \(original) has no price increase to answer; raise one with 'iapctl price-increase \(renewal) PRICE'"
        case .priceIncreaseAccepted(let original, let price, let currency):
            return
                "subscription \(original) already accepted the price increase to \(price) \(currency) (or it needed no consent); it renews at that price"
        case .consentOfEnded(let original, let status):
            return "subscription \(original) is \(status); there is no renewal left to consent to"
        case .priceIncreaseDeclined(let original):
            return "subscription \(original) already declined the price increase; it expires at the renewal unless it accepts"
        case .extendByDays(let days, let maximum):
            return "extendByDays \(days) is not 1 to \(maximum)"
        case .notExtendable(let original, let why):
            return "subscription \(original) cannot be extended: \(why)"
        case .extendedTwice(let original):
            return "subscription \(original) was already extended twice within 365 days"
        case .storeHasHistory:
            return
                "the store already exists: a store is created once, before its first event (replace it with 'iapctl init --force')"
        case .downloadMove(let move, let content, let id, let current):
            return
                "cannot \(move.rawValue) download '\(content)' of transaction \(id): it is \(current.rawValue); \(move.rawValue) moves a \(move.from) download"
        case .noDownloadToMove(let move, let id, let states):
            return
                "cannot \(move.rawValue) any download of transaction \(id): \(states); \(move.rawValue) moves \(move.from) downloads"
        case .progressOfInactiveDownload(let content, let id, let state):
            return
                "download '\(content)' of transaction \(id) is \(state.rawValue); only an active download makes progress (start or resume it first)"
        case .downloadNotActive(let content, let id, let state):
            let fix = state == .waiting ? "start" : state == .paused ? "resume" : ""
            let hint = fix.isEmpty ? "it has ended" : "\(fix) it with 'iapctl download \(fix) \(id) --content \(content)'"
            return "download '\(content)' of transaction \(id) is \(state.rawValue), not active; \(hint)"
        case .noActiveDownload(let id, let states):
            return
                "no active download of transaction \(id): \(states); start or resume them with 'iapctl download start|resume \(id)'"
        case .downloadsOfFinished(let id):
            return "transaction \(id) is finished; downloads exist only until their transaction is finished"
        case .noSelfHostedContent(let id, let why):
            return "transaction \(id) has no self-hosted content to download: \(why)"
        case .contentStep(let what, let id, let state):
            return "cannot record \(what) for the self-hosted content of transaction \(id): it is \(state.rawValue)"
        case .tooManyFaults(let n):
            return "\(n) faults are already armed; remove them with 'iapctl fault clear' first"
        case .consumeNonConsumable(let id, let type):
            return "cannot consume '\(id)': it is \(type.rawValue); only consumables are consumed"
        case .consumeAboveBalance(let id, let count, let balance):
            return "cannot consume \(count) of '\(id)': its balance is \(balance) (see 'iapctl ledger')"
        case .tooManyStoredPayments(let n):
            return "\(n) store payments are already stored; add them with 'iapctl accept-stored' first"
        case .approveFinished(let verb, let id):
            return
                "cannot \(verb) transaction \(id): it is finished; only deferred (Ask to Buy) transactions can be approved or declined"
        case .approveNotDeferred(let verb, let id, let state):
            return
                "cannot \(verb) transaction \(id): it is \(state); only deferred (Ask to Buy) transactions can be approved or declined"
        case .nothingToResolve(let id, let what):
            return "nothing to resolve for transaction \(id): it is \(what), not an interrupted purchase waiting to be resolved"
        case .clockBackwards(let from, let to):
            return "cannot move the clock back from \(from) to \(to); the simulated clock only moves forward"
        case .clockPastLimit(let limit, let at, let step):
            return
                "the clock would move past \(limit.rfc3339), the last date iapctl writes: it is at \(at.rfc3339) and each payment or restore moves it by \(step) (lower that with 'iapctl config set clock-step 0')"
        case .expiresPastLimit(let what, let limit, let fix):
            return "\(what) would expire after \(limit.rfc3339), the last date iapctl writes; \(fix)"
        case .autoRenewOfEnded(let original, let product, let status):
            return
                "\(Self.subscription(original, product)) is \(status); auto-renew applies to a live subscription (buy \(product) to subscribe again)"
        case .alreadyEnded(let original, let product, let status):
            return "\(Self.subscription(original, product)) is already \(status)"
        case .renewWithBillingIssue(let original, let product, let status):
            return
                "\(Self.subscription(original, product)) has a billing issue (\(status)); recover it with 'iapctl resolve \(original)'"
        case .renewEnded(let original, let product, let status):
            return "\(Self.subscription(original, product)) is \(status); buy \(product) to subscribe again"
        case .noBillingIssue(let original, let product, let status):
            return
                "\(Self.subscription(original, product)) is \(status); only a subscription in billing retry or its grace period has a billing issue to resolve"
        case .notRenewable(let original, let product, let renewal, let storefront):
            return "\(Self.subscription(original, product)) cannot renew: \(renewal) is not sold in storefront \(storefront)"
        case .alreadyRefunded(let id, let date):
            return "transaction \(id) was already refunded on \(date)"
        case .refundRestored(let id, let original):
            return "cannot refund transaction \(id): it is a restored copy; refund the original purchase \(original)"
        case .refundNotPurchased(let id, let state):
            return "cannot refund transaction \(id): it is \(state); only purchased transactions can be refunded"
        case .refundUncharged(let id):
            return
                "cannot refund transaction \(id): nothing was charged for it (a free trial, a repeat purchase of something owned, or a plan change that waits for the renewal)"
        case .memberOwnPurchase(let id, let member):
            return
                "cannot refund or delete transaction \(id): it is \(member)'s own purchase, and a member's refunds are not simulated"
        case .refundRequestOpen(let id, let since):
            return
                "transaction \(id) already has a refund request open since \(since.rfc3339); answer it with 'iapctl refund approve \(id)' or 'iapctl refund decline \(id)'"
        case .noRefundRequest(let id, let verb):
            return "transaction \(id) has no refund request to \(verb); open one with 'iapctl refund request \(id)'"
        case .refundRequestAnswered(let id, let status):
            return
                "the refund request of transaction \(id) is already \(status); open a new one with 'iapctl refund request \(id)'"
        case .notRefunded(let id):
            return "transaction \(id) was not refunded; only a refunded transaction's refund can be reversed"
        }
    }

    /// How a subscription is named in these messages.
    private static func subscription(_ original: TransactionID, _ product: ProductID) -> String {
        "subscription \(original) (\(product))"
    }
}
