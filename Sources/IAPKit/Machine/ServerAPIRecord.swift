import IAPTime

/// What the App Store Server API told the App Store about one transaction, kept in the store
/// (`StoreState.serverAPIRecords`, by transaction id) so it survives restarts and later answers
/// reflect it.
///
/// - `appAccountToken`: Set App Account Token, on an original transaction ("set or reset the
///   appAccountToken associated with the transaction you specify in the originalTransactionId",
///   App Store Server API, set-app-account-token): every later signed transaction and renewal
///   info of that original transaction carries it instead of the one the purchase was made with.
/// - `consumption`: the latest `consumptionKept` Send Consumption Information requests (v1 and
///   v2), oldest first, as received, which Apple uses to decide a refund request; `iapctl show
///   --json` lists them. Every request is also an event (`consumptionInformationReceived`), so
///   the event log keeps them all; the state keeps a bounded window so that a backend sending
///   the same transaction's information again and again does not make each commit re-encode a
///   list that only grows (the state delta writes the changed record whole).
/// - `extensions`: the dates of the renewal-date extensions of a subscription (on its original
///   transaction id), for Apple's limit of two within 365 days.
public struct ServerAPIRecord: Hashable, Sendable, Codable {
    public var appAccountToken: String?
    public var consumption: [ConsumptionInformation]
    public var extensions: [Timestamp]

    /// How many Send Consumption Information requests the state keeps per transaction (the
    /// latest ones). Apple decides a refund request from the information it has within 12 hours
    /// of its CONSUMPTION_REQUEST; a window of ten holds every answer a backend would plausibly
    /// resend in that time.
    public static let consumptionKept = 10

    public init(appAccountToken: String? = nil, consumption: [ConsumptionInformation] = [], extensions: [Timestamp] = []) {
        self.appAccountToken = appAccountToken
        self.consumption = consumption
        self.extensions = extensions
    }
}

/// A finished Extend Subscription Renewal Dates for All Active Subscribers request: what Get
/// Status of Subscription Renewal Date Extensions answers. iapctl completes a mass extension in
/// the commit that receives it, so `completeDate` is the store's clock then.
public struct MassExtension: Hashable, Sendable, Codable {
    public var requestIdentifier: String
    public var productID: ProductID
    public var completeDate: Timestamp
    public var succeeded: Int
    public var failed: Int
    /// The storefronts the request named; nil for every storefront.
    public var storefronts: [String]?

    public init(
        requestIdentifier: String, productID: ProductID, completeDate: Timestamp, succeeded: Int, failed: Int,
        storefronts: [String]? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.productID = productID
        self.completeDate = completeDate
        self.succeeded = succeeded
        self.failed = failed
        self.storefronts = storefronts
    }
}

/// Whether a subscription may have its renewal date extended, by Apple's rules (App Store
/// Server API, "Extending the renewal date for auto-renewable subscriptions" and
/// SubscriptionExtensionIneligibleError): only an active subscription, not in a free trial, with
/// fewer than two extensions within the past 365 days; at most 90 days at a time.
public enum RenewalExtension {
    public static let maximumDays = 90
    public static let perYear = 2
    static let yearMilliseconds: Int64 = 365 * 86_400_000

    public enum Verdict: Equatable, Sendable {
        case eligible
        /// 4030004 SubscriptionExtensionIneligibleError, and why.
        case ineligible(String)
        /// 4030005 SubscriptionMaxExtensionError.
        case tooMany
    }

    public static func verdict(_ sub: Subscription, extensions: [Timestamp], now: Timestamp) -> Verdict {
        switch sub.status {
        case .active: break
        case .inGracePeriod: return .ineligible("it is in its billing grace period, with the expiry past")
        case .inBillingRetry: return .ineligible("it is in billing retry")
        case .expired: return .ineligible("it has expired")
        case .revoked: return .ineligible("it was refunded")
        }
        if sub.offer == .freeTrial { return .ineligible("it is in a free trial") }
        let recent = extensions.filter { $0.milliseconds > now.milliseconds - yearMilliseconds }
        if recent.count >= perYear { return .tooMany }
        return .eligible
    }
}

/// One Send Consumption Information request as the App Store received it: the endpoint version
/// (1 for the deprecated `/inApps/v1/transactions/consumption`, 2 for `/inApps/v2/...`), the
/// store's clock at receipt, and the request's JSON object exactly as sent (compact), so every
/// field the backend sent is shown back with its value.
public struct ConsumptionInformation: Hashable, Sendable, Codable {
    public var version: Int
    public var received: Timestamp
    public var body: String

    public init(version: Int, received: Timestamp, body: String) {
        self.version = version
        self.received = received
        self.body = body
    }
}

/// A change the App Store Server API asked for (`Command.serverAPI`).
public enum ServerAPIRequest: Hashable, Sendable {
    /// Set App Account Token on an original transaction id.
    case setAppAccountToken(original: TransactionID, token: String)
    /// Send Consumption Information about a transaction (the received date is set by the machine).
    case consumptionInformation(TransactionID, version: Int, body: String)
    /// Extend a Subscription Renewal Date by `days` (1 to 90), for reason code `reason` (0 to 3).
    case extendRenewalDate(original: TransactionID, days: Int, reason: Int, requestIdentifier: String)
    /// Extend Subscription Renewal Dates for All Active Subscribers of a product, optionally only
    /// in some storefronts (ISO 3166-1 alpha-3 codes).
    case massExtendRenewalDate(ProductID, days: Int, reason: Int, requestIdentifier: String, storefronts: [String]?)
    /// Request a Test Notification: a TEST notification goes to the webhook.
    case requestTestNotification
    /// `serve --webhook` tried to deliver the notification of event `seq`: the outcome, as
    /// Apple's `sendAttemptResult` (SUCCESS, UNSUCCESSFUL_HTTP_RESPONSE_CODE, ...), dated by the
    /// store's clock. Kept so Get Test Notification Status and a restart see it; no event.
    case recordSendAttempt(seq: UInt64, result: String)
    /// A change of the Retention Messaging configuration.
    case retention(RetentionChange)
    /// `iapctl notifications send` for a notification iapctl has no cause for (or whose cause
    /// another part of iapctl will model): the notification alone, about `transaction` (and its
    /// subscription, when it is one) or about no transaction.
    case sendNotification(ServerNotification, transaction: TransactionID?)
}

/// One delivery attempt of a notification (`sendAttempts` of Apple's responses).
public struct SendAttempt: Hashable, Sendable, Codable {
    public var date: Timestamp
    public var result: String

    public init(date: Timestamp, result: String) {
        self.date = date
        self.result = result
    }
}

/// What an App Store Server API change did (`EventKind.serverAPI`): named `appAccountTokenSet`
/// and `consumptionInformationReceived` in `iapctl events`. Neither causes a notification.
/// `renewalExtended` (the subscription's current period now ends `days` later: a
/// RENEWAL_EXTENDED notification) and `massExtensionCompleted`.
public enum ServerAPIChange: Hashable, Sendable {
    case appAccountTokenSet(Transaction, token: String)
    case consumptionInformationReceived(Transaction, ConsumptionInformation)
    case renewalExtended(Transaction, Subscription, days: Int, reason: Int, requestIdentifier: String)
    case massExtensionCompleted(MassExtension)
    /// Request a Test Notification: the TEST notification is this event's.
    case testNotificationRequested
    case retentionChanged(RetentionChange)
    /// One subscription a mass extension could not extend (RENEWAL_EXTENSION FAILURE): its
    /// latest transaction and the subscription, unchanged.
    case massExtensionFailed(Transaction, Subscription, requestIdentifier: String)
    /// `iapctl notifications send` made this notification without a state change
    /// (`ServerAPIRequest.sendNotification`): the transaction and subscription it is about.
    case notificationSent(ServerNotification, Transaction?, Subscription?)

    public var name: String {
        switch self {
        case .appAccountTokenSet: return "appAccountTokenSet"
        case .consumptionInformationReceived: return "consumptionInformationReceived"
        case .renewalExtended: return "renewalExtended"
        case .massExtensionCompleted: return "massExtensionCompleted"
        case .testNotificationRequested: return "testNotificationRequested"
        case .retentionChanged(let change): return change.name
        case .massExtensionFailed: return "massExtensionFailed"
        case .notificationSent: return "notificationSent"
        }
    }

    public var transaction: Transaction? {
        switch self {
        case .appAccountTokenSet(let t, _), .consumptionInformationReceived(let t, _), .renewalExtended(let t, _, _, _, _),
            .massExtensionFailed(let t, _, _):
            return t
        case .notificationSent(_, let t, _): return t
        case .massExtensionCompleted, .testNotificationRequested, .retentionChanged: return nil
        }
    }
}
