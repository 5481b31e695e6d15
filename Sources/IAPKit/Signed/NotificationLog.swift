import IAPJSON
import IAPTime

/// The App Store Server Notifications V2 of a store: one signed notification for each event
/// whose `EventKind.serverNotification` is not nil (SUBSCRIBED, DID_RENEW,
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
        try session.events(since: 0, into: &log)
        try log.finish()
        return log.found
    }

    private let since: UInt64
    private let session: StoreSession
    private let signer: JWSSigner
    private let appAppleID: Int64?
    private var found: [SignedNotification] = []
    private var partial: [UInt8] = []

    /// The `environment` setting at the current point of the log.
    private var environment: ReceiptEnvironment
    /// What the log has shown so far of each subscription, by original transaction id.
    private var subscriptions: [TransactionID: Tracked] = [:]

    private struct Tracked {
        /// The transaction that opened the current period.
        var latest: Transaction?
        var recentStart: Timestamp?
        /// When paid service last ended, as of the latest snapshot.
        var paidEnd: Timestamp?
        var revokedAt: Timestamp?
        /// Pay-as-you-go introductory periods still to come.
        var offerPeriodsLeft = 0
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

    private mutating func finish() throws(StoreError) {
        if !partial.isEmpty {
            let line = partial
            partial = []
            try consume(line)
        }
    }

    /// The names of the events a notification can come from, besides those carrying a
    /// `notification` object (subscription events): purchases (ONE_TIME_CHARGE) and setting changes.
    private static let purchased = Array(#""name":"transactionPurchased""#.utf8)
    private static let settingChanged = Array(#""name":"settingChanged""#.utf8)
    private static let withNotification = Array(#""notification":{"notificationType""#.utf8)

    private mutating func consume(_ line: [UInt8]) throws(StoreError) {
        let head = line.prefix(64)
        let isPurchase = Self.contains(head, Self.purchased)
        let isSetting = Self.contains(head, Self.settingChanged)
        guard isPurchase || isSetting || Self.contains(line[...], Self.withNotification) else { return }
        let event: JSONValue
        do {
            event = try JSONParser.parse(line)
        } catch {
            throw .damaged(path: session.storePath, problem: "an event line is not JSON (\(error))")
        }
        guard let seq = event["seq"]?.int64Value, seq > 0, let ms = event["timestamp"]?.int64Value else {
            throw .damaged(path: session.storePath, problem: "an event line has no seq or timestamp")
        }
        if isSetting {
            if event["setting"]?["key"]?.stringValue == SettingKey.environment.rawValue,
                let value = event["setting"]?["value"]?.stringValue, let env = ReceiptEnvironment(name: value)
            {
                environment = env
            }
            return
        }
        try record(event, seq: UInt64(seq), date: Timestamp(milliseconds: ms), isPurchase: isPurchase)
    }

    /// Folds one event into what is known of its subscription, then signs its notification when
    /// it is after `since`.
    private mutating func record(_ event: JSONValue, seq: UInt64, date: Timestamp, isPurchase: Bool) throws(StoreError) {
        let transaction = event["transaction"].flatMap(Transaction.init(json:))
        let type: String
        let subtype: String?
        if isPurchase {
            // The same rule as every other event: the EventKind's own mapping.
            guard let t = transaction, let n = EventKind.transactionUpdated(t).serverNotification else { return }
            type = n.type
            subtype = n.subtype
        } else {
            guard let n = event["notification"], let t = n["notificationType"]?.stringValue else { return }
            type = t
            subtype = n["subtype"]?.stringValue
        }
        let renewal = event["renewalInfo"].flatMap { $0.objectValue != nil ? $0 : nil }
        var info: RenewalInfo?
        var latest = transaction
        if let renewal {
            guard let original = renewal["originalTransactionIdentifier"]?.stringValue.flatMap(TransactionID.init(parsing:))
            else {
                throw .damaged(
                    path: session.storePath, problem: "event \(seq) has renewal info without an original transaction id")
            }
            let name = event["name"]?.stringValue ?? ""
            latest = try track(original, name: name, subtype: subtype, transaction: transaction, renewal: renewal)
            info = try renewalInfo(original, renewal, seq: seq)
        }
        guard seq > since else { return }
        guard let subject = latest else {
            throw .damaged(path: session.storePath, problem: "event \(seq) (\(type)) names no transaction the log shows")
        }
        let context = SignedDataContext(bundleID: session.state.bundleID, environment: environment, signedDate: date)
        let uuid = NotificationUUID.make(bundleID: context.bundleID, seq: seq, date: date)
        let content = NotificationPayload.Content(
            notificationType: type, subtype: subtype, notificationUUID: uuid, appAppleID: appAppleID,
            bundleVersion: session.state.appVersion,
            signedTransactionInfo: signer.sign(SignedTransactionPayload.bytes(subject, context: context)),
            signedRenewalInfo: info.map { signer.sign(SignedRenewalInfoPayload.bytes($0, context: context)) },
            status: info?.status)
        found.append(
            SignedNotification(
                seq: seq, date: date, notificationType: type, subtype: subtype, notificationUUID: uuid, transactionID: subject.id,
                signedPayload: signer.sign(NotificationPayload.bytes(content, context: context))))
    }

    /// Updates a subscription's tracked state from an event about it and returns the transaction
    /// its notification reports: the event's own, else the subscription's latest.
    private mutating func track(
        _ original: TransactionID, name: String, subtype: String?, transaction: Transaction?, renewal: JSONValue
    ) throws(StoreError) -> Transaction? {
        var s = subscriptions[original] ?? Tracked()
        if let t = transaction {
            switch name {
            case "subscriptionStarted":
                if subtype == "RESUBSCRIBE", let end = s.paidEnd {
                    s.recentStart = RecentSubscriptionStart.afterResubscribing(
                        current: s.recentStart ?? t.originalDate, previousEnd: end, start: t.date)
                } else if subtype != "RESUBSCRIBE" {
                    s.recentStart = t.originalDate
                }
                s.offerPeriodsLeft = offerPeriods(opening: t, after: nil, left: 0)
                s.latest = t
            case "subscriptionRenewed", "subscriptionUpgraded":
                s.offerPeriodsLeft = offerPeriods(opening: t, after: s.latest, left: s.offerPeriodsLeft)
                s.latest = t
            default:
                if t.id == s.latest?.id { s.latest = t }
                if let revoked = t.revocationDate { s.revokedAt = revoked }
            }
        }
        if let expires = renewal["expiresTimestamp"]?.int64Value {
            let end = Timestamp(milliseconds: expires)
            if renewal["status"]?.stringValue == "revoked", let revoked = s.revokedAt {
                s.paidEnd = min(end, revoked)
            } else {
                s.paidEnd = end
                s.revokedAt = nil
            }
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
        if t.reason == .renewal, previous?.offer == .payAsYouGo, previous?.productID == t.productID { return max(0, left - 1) }
        return max(0, (session.catalog[t.productID]?.introductoryOffer?.numberOfPeriods ?? 1) - 1)
    }

    /// The renewal info of an event's snapshot (`SubscriptionJSON.writeRenewalInfo`), with what
    /// the log tells about the series start and the next period's price.
    private func renewalInfo(_ original: TransactionID, _ r: JSONValue, seq: UInt64) throws(StoreError) -> RenewalInfo {
        guard let product = r["productIdentifier"]?.stringValue,
            let renewalProduct = r["autoRenewProductIdentifier"]?.stringValue,
            let autoRenew = r["autoRenewStatus"]?.boolValue, let expires = r["expiresTimestamp"]?.int64Value,
            let statusName = r["status"]?.stringValue, let status = Self.status(named: statusName)
        else {
            throw .damaged(path: session.storePath, problem: "event \(seq) has malformed renewal info")
        }
        let tracked = subscriptions[original]
        let latest = tracked?.latest
        let storefront = latest?.storefront ?? session.state.settings.storefront
        var price: Price?
        var currency: String?
        var offer: Transaction.OfferKind?
        if let p = session.catalog[ProductID(renewalProduct)], let regular = p.price(in: storefront),
            let shop = Storefront.named(storefront)
        {
            price = regular
            currency = shop.currency
            if p.id.rawValue == product, (tracked?.offerPeriodsLeft ?? 0) > 0, let intro = p.introductoryOffer,
                intro.paymentMode == .payAsYouGo, let introPrice = intro.price(in: storefront)
            {
                price = introPrice
                offer = .payAsYouGo
            }
        }
        let retrying = r["isInBillingRetryPeriod"]?.boolValue ?? false
        return RenewalInfo(
            originalTransactionID: original, productID: ProductID(product), autoRenewProductID: ProductID(renewalProduct),
            autoRenew: autoRenew, expirationIntent: r["expirationIntent"]?.int64Value.map { Int($0) },
            isInBillingRetryPeriod: status == .active ? nil : retrying,
            gracePeriodExpiresDate: r["gracePeriodExpiresTimestamp"]?.int64Value.map(Timestamp.init(milliseconds:)),
            renewalOffer: offer, renewalPrice: price, currency: currency,
            recentSubscriptionStartDate: tracked?.recentStart ?? latest?.originalDate ?? Timestamp(milliseconds: expires),
            renewalDate: Timestamp(milliseconds: expires), appAccountToken: AppAccountToken.token(for: latest?.userID),
            status: status)
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

extension NotificationLog: ByteSink {
    /// Takes the event log as `StoreSession.events` streams it, a line at a time.
    public mutating func write(_ bytes: [UInt8]) throws(StoreError) {
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            if partial.isEmpty {
                try consume(Array(bytes[start..<i]))
            } else {
                partial += bytes[start..<i]
                let line = partial
                partial = []
                try consume(line)
            }
            start = i + 1
        }
        partial += bytes[start...]
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
