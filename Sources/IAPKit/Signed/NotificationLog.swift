import IAPJSON
import IAPTime

/// The App Store Server Notifications V2 of a store: one signed notification for each event
/// whose `EventKind.serverNotification` is not nil (SUBSCRIBED, OFFER_REDEEMED, DID_RENEW,
/// DID_CHANGE_RENEWAL_PREF, DID_CHANGE_RENEWAL_STATUS, DID_FAIL_TO_RENEW, GRACE_PERIOD_EXPIRED,
/// EXPIRED, REFUND, ONE_TIME_CHARGE), made from the event log alone.
///
/// A notification reports the event as it happened, never the store as it is now: its
/// `signedDate` is the event's date, its transaction and renewal info are the snapshots the event
/// carries (for events about a subscription as a whole, the subscription's latest transaction as
/// the log last showed it), and its environment is the `environment` setting at that point of the
/// log. So a notification never changes once its event is written: `iapctl notifications` and a
/// webhook that delivered it long ago agree, byte for byte.
///
/// What Apple puts in each (App Store Server Notifications, notificationType): SUBSCRIBED,
/// DID_RENEW, DID_CHANGE_RENEWAL_PREF, DID_CHANGE_RENEWAL_STATUS, DID_FAIL_TO_RENEW,
/// GRACE_PERIOD_EXPIRED, EXPIRED and a subscription's REFUND carry `signedTransactionInfo`,
/// `signedRenewalInfo` and `status`; ONE_TIME_CHARGE ("a notification type that indicates the
/// customer purchased a consumable, non-consumable, or non-renewing subscription") and the REFUND
/// of such a purchase carry `signedTransactionInfo` only.
public struct NotificationLog {
    /// Every notification with an event `seq` greater than `since`, oldest first, signed by
    /// `signer` (the store's chain). The whole log is read (the state of each subscription at
    /// each point is rebuilt from it), but only the notifications after `since` are signed.
    public static func notifications(
        since: UInt64, in session: StoreSession, signer: StoreTransactionSigner, appAppleID: Int64? = nil
    ) throws(StoreError) -> [SignedNotification] {
        var log = NotificationLog(
            since: since, session: session, signer: try signer.jwsSigner(for: session), appAppleID: appAppleID)
        try session.forEachEvent(since: 0) { e throws(StoreError) in
            switch e {
            case .event(let event): if let entry = Entry(event) { try log.record(entry) }
            case .legacy(_, let json): if let entry = try log.entry(legacy: json) { try log.record(entry) }
            }
        }
        return log.found
    }

    private let since: UInt64
    private let session: StoreSession
    private let signer: JWSSigner
    private let appAppleID: Int64?
    private var found: [SignedNotification] = []

    /// The `environment` setting at the current point of the log.
    private var environment: ReceiptEnvironment
    /// App account tokens the log has shown set through the App Store Server API so far.
    private var appAccountTokens: [TransactionID: String] = [:]
    /// What the log has shown so far of each subscription, by original transaction id.
    private var subscriptions: [TransactionID: Tracked] = [:]

    private struct Tracked {
        /// The transaction that opened the current period.
        var latest: Transaction?
        var recentStart: Timestamp?
        /// When paid service last ended, as of the latest snapshot.
        var paidEnd: Timestamp?
        var revokedAt: Timestamp?
        /// Pay-as-you-go offer periods still to come.
        var offerPeriodsLeft = 0
        /// The subscription's offers, as the latest `subscriptionOffersChanged` showed them.
        var offers: SubscriptionOfferState?
        /// The price increase the subscriber was told of, until the renewal that charges it.
        var priceConsent: PriceConsent?
    }

    /// What the log needs of one event: the notification it maps to (`EventKind.serverNotification`),
    /// the transaction and subscription snapshots it carries, or the setting it changed.
    struct Entry {
        enum Role {
            /// A purchase: ONE_TIME_CHARGE when charged for a non-subscription.
            case purchase
            /// A subscription began (SUBSCRIBED).
            case started
            /// A new period opened (DID_RENEW, an upgrade).
            case newPeriod
            /// Anything else about a subscription.
            case other
        }

        var seq: UInt64
        var date: Timestamp
        var role: Role
        var notification: ServerNotification? = nil
        var transaction: Transaction? = nil
        var renewal: Renewal? = nil
        var environment: ReceiptEnvironment? = nil
        /// A subscription's offers changed (`subscriptionOffersChanged`).
        var offers: (original: TransactionID, state: SubscriptionOfferState)? = nil
        /// A notification sent on demand without a transaction: its data has the app only.
        var aboutNoTransaction = false
        /// The completed mass extension a RENEWAL_EXTENSION SUMMARY reports.
        var summary: MassExtension? = nil
        /// An app account token set through the App Store Server API, for an original id.
        var appAccountToken: (original: TransactionID, token: String)? = nil
        /// A subscriber's price increase status changed (issue 15).
        var priceConsent: (original: TransactionID, consent: PriceConsent)? = nil
        /// A CONSUMPTION_REQUEST's reason, when it is one of Apple's codes.
        var consumptionRequestReason: String? = nil

        init(seq: UInt64, date: Timestamp, role: Role) {
            self.seq = seq
            self.date = date
            self.role = role
        }

        /// The typed mapping: what each event kind contributes (nil: nothing to notify).
        init?(_ e: Event) {
            self.init(seq: e.seq, date: e.date, role: .other)
            switch e.kind {
            case .transactionUpdated(let t):
                guard t.state == .purchased else { return nil }
                role = .purchase
                transaction = t
            case .settingChanged(let key, let value):
                guard key == SettingKey.environment.rawValue, let env = ReceiptEnvironment(name: value) else { return nil }
                environment = env
                return
            case .subscriptionStarted(let t, let s, _):
                role = .started
                transaction = t
                renewal = Renewal(s)
            case .subscriptionRenewed(let t, let s, _), .subscriptionUpgraded(_, let t, let s):
                role = .newPeriod
                transaction = t
                renewal = Renewal(s)
            case .transactionRevoked(let t, let s):
                transaction = t
                renewal = s.map(Renewal.init)
            case .renewalPreferenceChanged(let s, _, _), .autoRenewStatusChanged(let s), .renewalFailed(let s),
                .gracePeriodExpired(let s), .subscriptionExpired(let s):
                renewal = Renewal(s)
            case .offerRedeemed(let t, let s, _, _):
                transaction = t
                renewal = Renewal(s)
            case .subscriptionOffersChanged(let original, let state):
                offers = (original, state)
                return
            case .family(let change):
                // REVOKE carries the member's revoked FAMILY_SHARED transaction.
                switch change {
                case .transactionRevoked(let t): transaction = t
                case .memberPurchased(let t):
                    role = .purchase
                    transaction = t
                    if t.productType == .autoRenewable, let expires = t.expiresDate {
                        // The member's own subscription starts: one period, auto-renew off.
                        role = .started
                        renewal = Renewal(
                            original: t.originalID, product: t.productID, renewalProduct: t.productID, autoRenew: false,
                            expires: expires, status: .active, expirationIntent: nil, isInBillingRetry: false,
                            gracePeriodExpires: nil)
                    }
                case .memberAdded, .memberRemoved, .transactionShared, .revocationCleared, .transactionDeleted: return nil
                }
            case .transactionFinished, .transactionRedelivered, .productsRequestFinished, .productsRequestFailed,
                .restoreFinished, .restoreFailed, .appLaunched, .download, .contentDownload, .storePayment,
                .transactionFinishPostponed, .transactionDeliveryFailed, .interruptedPurchaseResolved, .faultAdded,
                .faultFired, .faultsCleared, .productConsumed, .receipt, .clockAdvanced, .transactionDeleted,
                .transactionsCleared, .offerKeyAdded, .offerKeyRemoved, .storeCreated:
                return nil
            case .life(let change):
                switch change {
                case .refundRequested(let t, let q):
                    transaction = t
                    consumptionRequestReason = q.reason.flatMap { RefundRequest.appleReasons.contains($0) ? $0 : nil }
                case .refundDeclined(let t, _):
                    transaction = t
                case .refundReversed(let t, let s):
                    transaction = t
                    renewal = s.map(Renewal.init)
                case .priceIncreaseAnnounced: return nil
                case .priceConsentChanged(let s, let c):
                    renewal = Renewal(s)
                    priceConsent = (s.originalID, c)
                }
            case .serverAPI(let change):
                switch change {
                case .appAccountTokenSet(let t, let token):
                    // Later notifications of that original transaction carry it.
                    appAccountToken = (t.id, token)
                    return
                case .renewalExtended(let t, let s, _, _, _):
                    transaction = t
                    renewal = Renewal(s)
                case .testNotificationRequested: break
                case .massExtensionCompleted(let m): summary = m
                case .massExtensionFailed(let t, let s, _):
                    transaction = t
                    renewal = Renewal(s)
                case .notificationSent(_, let t, let s):
                    transaction = t
                    renewal = s.map(Renewal.init)
                    aboutNoTransaction = t == nil
                case .consumptionInformationReceived, .retentionChanged: return nil
                }
            }
            notification = e.kind.serverNotification
        }
    }

    /// The renewal state an event's subscription snapshot shows.
    struct Renewal {
        var original: TransactionID
        var product: ProductID
        var renewalProduct: ProductID
        var autoRenew: Bool
        var expires: Timestamp
        var status: SubscriptionStatus
        var expirationIntent: Int?
        var isInBillingRetry: Bool
        var gracePeriodExpires: Timestamp?

        init(_ s: Subscription) {
            original = s.originalID
            product = s.productID
            renewalProduct = s.renewalProductID
            autoRenew = s.autoRenew
            expires = s.expiresDate
            switch s.status {
            case .active: status = .active
            case .inGracePeriod: status = .gracePeriod
            case .inBillingRetry: status = .billingRetry
            case .expired: status = .expired
            case .revoked: status = .revoked
            }
            expirationIntent = s.expirationIntent?.rawValue
            isInBillingRetry = s.isInBillingRetry
            gracePeriodExpires = s.gracePeriodExpiresDate
        }

        init(
            original: TransactionID, product: ProductID, renewalProduct: ProductID, autoRenew: Bool, expires: Timestamp,
            status: SubscriptionStatus, expirationIntent: Int?, isInBillingRetry: Bool, gracePeriodExpires: Timestamp?
        ) {
            self.original = original
            self.product = product
            self.renewalProduct = renewalProduct
            self.autoRenew = autoRenew
            self.expires = expires
            self.status = status
            self.expirationIntent = expirationIntent
            self.isInBillingRetry = isInBillingRetry
            self.gracePeriodExpires = gracePeriodExpires
        }
    }

    private init(since: UInt64, session: StoreSession, signer: JWSSigner, appAppleID: Int64?) {
        self.since = since
        self.session = session
        self.signer = signer
        self.appAppleID = appAppleID
        // The log records every change of the setting; before the first, it had its default.
        environment = Settings().environment
    }

    // MARK: - Reading the log

    /// A format-1 event line (the JSON iapctl 0.1.0 journaled) as an entry; nil for events no
    /// notification comes from.
    private func entry(legacy line: [UInt8]) throws(StoreError) -> Entry? {
        let head = line.prefix(64)
        let isPurchase = Self.contains(head, Self.purchased)
        let isSetting = Self.contains(head, Self.settingChanged)
        guard isPurchase || isSetting || Self.contains(line[...], Self.withNotification) else { return nil }
        let event: JSONValue
        do {
            event = try JSONParser.parse(line)
        } catch {
            throw .damaged(path: session.storePath, problem: "an event line is not JSON (\(error))")
        }
        guard let seq = event["seq"]?.int64Value, seq > 0, let ms = event["timestamp"]?.int64Value else {
            throw .damaged(path: session.storePath, problem: "an event line has no seq or timestamp")
        }
        var entry = Entry(seq: UInt64(seq), date: Timestamp(milliseconds: ms), role: .other)
        if isSetting {
            guard event["setting"]?["key"]?.stringValue == SettingKey.environment.rawValue,
                let value = event["setting"]?["value"]?.stringValue, let env = ReceiptEnvironment(name: value)
            else { return nil }
            entry.environment = env
            return entry
        }
        entry.transaction = event["transaction"].flatMap(Transaction.init(json:))
        if isPurchase {
            entry.role = .purchase
            entry.notification = entry.transaction.flatMap { EventKind.transactionUpdated($0).serverNotification }
            return entry
        }
        guard let n = event["notification"], let type = n["notificationType"]?.stringValue else { return nil }
        entry.notification = ServerNotification(type, n["subtype"]?.stringValue)
        switch event["name"]?.stringValue {
        case "subscriptionStarted": entry.role = .started
        case "subscriptionRenewed", "subscriptionUpgraded": entry.role = .newPeriod
        default: entry.role = .other
        }
        if let r = event["renewalInfo"], r.objectValue != nil {
            guard let original = r["originalTransactionIdentifier"]?.stringValue.flatMap(TransactionID.init(parsing:)) else {
                throw .damaged(
                    path: session.storePath, problem: "event \(seq) has renewal info without an original transaction id")
            }
            guard let product = r["productIdentifier"]?.stringValue,
                let renewalProduct = r["autoRenewProductIdentifier"]?.stringValue,
                let autoRenew = r["autoRenewStatus"]?.boolValue, let expires = r["expiresTimestamp"]?.int64Value,
                let statusName = r["status"]?.stringValue, let status = Self.status(named: statusName)
            else {
                throw .damaged(path: session.storePath, problem: "event \(seq) has malformed renewal info")
            }
            entry.renewal = Renewal(
                original: original, product: ProductID(product), renewalProduct: ProductID(renewalProduct),
                autoRenew: autoRenew, expires: Timestamp(milliseconds: expires), status: status,
                expirationIntent: r["expirationIntent"]?.int64Value.map { Int($0) },
                isInBillingRetry: r["isInBillingRetryPeriod"]?.boolValue ?? false,
                gracePeriodExpires: r["gracePeriodExpiresTimestamp"]?.int64Value.map(Timestamp.init(milliseconds:)))
        }
        return entry
    }

    /// The names of the events a notification can come from, besides those carrying a
    /// `notification` object (subscription events): purchases (ONE_TIME_CHARGE) and setting changes.
    private static let purchased = Array(#""name":"transactionPurchased""#.utf8)
    private static let settingChanged = Array(#""name":"settingChanged""#.utf8)
    private static let withNotification = Array(#""notification":{"notificationType""#.utf8)

    /// Folds one entry into what is known of its subscription, then signs its notification when
    /// it is after `since`.
    private mutating func record(_ entry: Entry) throws(StoreError) {
        if let env = entry.environment {
            environment = env
            return
        }
        if let offers = entry.offers {
            subscriptions[offers.original, default: Tracked()].offers = offers.state
            return
        }
        if let set = entry.appAccountToken {
            appAccountTokens[set.original] = set.token
            return
        }
        if let c = entry.priceConsent { subscriptions[c.original, default: Tracked()].priceConsent = c.consent }
        guard let n = entry.notification else { return }
        let seq = entry.seq
        let date = entry.date
        var info: RenewalInfo?
        var latest = entry.transaction
        if let renewal = entry.renewal {
            latest = try track(renewal, role: entry.role, subtype: n.subtype, transaction: entry.transaction)
            info = renewalInfo(renewal, at: date)
        }
        guard seq > since else { return }
        // TEST carries no transaction (its data has the app and the environment only).
        guard latest != nil || n.type == "TEST" || entry.summary != nil || entry.aboutNoTransaction else {
            throw .damaged(path: session.storePath, problem: "event \(seq) (\(n.type)) names no transaction the log shows")
        }
        let subject = latest
        let type = n.type
        let subtype = n.subtype
        var context = SignedDataContext(
            bundleID: session.state.bundleID, environment: environment, signedDate: date,
            appTransactionID: AppTransactionID.of(bundleID: session.state.bundleID))
        context.appAccountTokens = appAccountTokens
        let uuid = NotificationUUID.make(bundleID: context.bundleID, seq: seq, date: date)
        var content = NotificationPayload.Content(
            notificationType: type, subtype: subtype, notificationUUID: uuid, appAppleID: appAppleID,
            bundleVersion: session.state.appVersion,
            signedTransactionInfo: subject.map { signer.sign(SignedTransactionPayload.bytes($0, context: context)) },
            signedRenewalInfo: info.map { signer.sign(SignedRenewalInfoPayload.bytes($0, context: context)) },
            status: info?.status, summary: entry.summary)
        content.consumptionRequestReason = entry.consumptionRequestReason
        found.append(
            SignedNotification(
                seq: seq, date: date, notificationType: type, subtype: subtype, notificationUUID: uuid,
                transactionID: subject?.id,
                signedPayload: signer.sign(NotificationPayload.bytes(content, context: context))))
    }

    /// Updates a subscription's tracked state from an event about it and returns the transaction
    /// its notification reports: the event's own, else the subscription's latest.
    private mutating func track(
        _ renewal: Renewal, role: Entry.Role, subtype: String?, transaction: Transaction?
    ) throws(StoreError) -> Transaction? {
        let original = renewal.original
        var s = subscriptions[original] ?? Tracked()
        if let t = transaction {
            switch role {
            case .started:
                if subtype == "RESUBSCRIBE", let end = s.paidEnd {
                    s.recentStart = RecentSubscriptionStart.afterResubscribing(
                        current: s.recentStart ?? t.originalDate, previousEnd: end, start: t.date)
                } else if subtype != "RESUBSCRIBE" {
                    s.recentStart = t.originalDate
                }
                s.offerPeriodsLeft = offerPeriods(opening: t, after: nil, left: 0)
                s.latest = t
            case .newPeriod:
                // The renewal that charges a raised price ends the increase (issue 15).
                if t.reason == .renewal { s.priceConsent = nil }
                s.offerPeriodsLeft = offerPeriods(opening: t, after: s.latest, left: s.offerPeriodsLeft)
                s.latest = t
            case .purchase, .other:
                if t.id == s.latest?.id { s.latest = t }
                if let revoked = t.revocationDate { s.revokedAt = revoked }
            }
        }
        // An ended subscription has no price increase left to answer (issue 15).
        if renewal.status == .expired || renewal.status == .revoked { s.priceConsent = nil }
        let end = renewal.expires
        if renewal.status == .revoked, let revoked = s.revokedAt {
            s.paidEnd = min(end, revoked)
        } else {
            s.paidEnd = end
            s.revokedAt = nil
        }
        if s.latest == nil, let sub = session.state.subscriptions[original] {
            // A log that starts mid-subscription (a salvaged store): the engine's record.
            s.latest = try session.transaction(sub.latestID)
        }
        subscriptions[original] = s
        return transaction ?? s.latest
    }

    /// Pay-as-you-go periods left after `t` opens a period: the machine's rule (the first
    /// period under the offer leaves `numberOfPeriods - 1`, each renewal under it one fewer).
    private func offerPeriods(opening t: Transaction, after previous: Transaction?, left: Int) -> Int {
        guard t.offer == .payAsYouGo else { return 0 }
        if t.reason == .renewal, let previous, previous.offer == .payAsYouGo, previous.productID == t.productID,
            previous.offerType == t.offerType, previous.offerID == t.offerID, left > 0
        {
            return left - 1
        }
        let ref = SubscriptionOfferState.OfferRef(
            type: t.offerType ?? .introductory, id: t.offerID, product: t.productID, billingPlan: t.billingPlan ?? .upFront)
        return max(0, (SubscriptionTerms.terms(of: ref, in: session.catalog)?.numberOfPeriods ?? 1) - 1)
    }

    /// The renewal info of an event's snapshot (`SubscriptionJSON.writeRenewalInfo`), with what
    /// the log tells about the series start and the next period's price.
    private func renewalInfo(_ r: Renewal, at date: Timestamp) -> RenewalInfo {
        let tracked = subscriptions[r.original]
        let latest = tracked?.latest
        let storefront = latest?.storefront ?? session.state.settings.storefront
        var info = RenewalInfo(
            snapshot: RenewalInfo.Snapshot(
                original: r.original, product: r.product, renewalProduct: r.renewalProduct, autoRenew: r.autoRenew,
                status: r.status, expirationIntent: r.expirationIntent, isInBillingRetry: r.isInBillingRetry,
                gracePeriodExpires: r.gracePeriodExpires, expires: r.expires, currentOffer: latest?.offer,
                offerPeriodsLeft: tracked?.offerPeriodsLeft ?? 0,
                recentStart: tracked?.recentStart ?? latest?.originalDate ?? r.expires,
                userID: latest?.userID),
            offers: tracked?.offers, storefront: storefront, catalog: session.catalog, now: date)
        info.applyPriceIncreases(session.state.priceIncreases, storefront: storefront, asOf: date)
        if let c = tracked?.priceConsent { info.apply(c) }
        return info
    }

    /// The API status of a `Subscription.Status` name as events spell it.
    static func status(named name: String) -> SubscriptionStatus? {
        switch name {
        case "active": return .active
        case "expired": return .expired
        case "inBillingRetry": return .billingRetry
        case "inGracePeriod": return .gracePeriod
        case "revoked": return .revoked
        default: return nil
        }
    }

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var i = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }
}

/// `iapctl serve --webhook`'s notifications: each signed notification after `since`, as the body
/// the App Store POSTs (`{"signedPayload": ...}`), numbered by its event's `seq`.
public struct SignedNotificationSource: NotificationSource {
    public let signer: StoreTransactionSigner
    public let appAppleID: Int64?

    public init(signer: StoreTransactionSigner, appAppleID: Int64? = nil) {
        self.signer = signer
        self.appAppleID = appAppleID
    }

    public func notifications(since: UInt64, in session: StoreSession) throws -> [(seq: UInt64, body: [UInt8])] {
        try NotificationLog.notifications(since: since, in: session, signer: signer, appAppleID: appAppleID).map {
            ($0.seq, $0.requestBody)
        }
    }
}
