import IAPJSON

/// The public JSON shape of an event: `seq`, `name`, `date` (with its `timestamp` twin), then
/// the transaction, request or setting it is about.
public enum EventJSON {
    public static func write(_ e: Event, into w: inout JSONWriter) {
        w.beginObject()
        w.key("seq")
        w.uint(e.seq)
        w.key("name")
        w.string(e.name)
        w.key("date")
        w.timestamp(e.date)
        w.key("timestamp")
        w.int(e.date.milliseconds)
        switch e.kind {
        case .transactionUpdated(let t), .transactionFinished(let t), .transactionRedelivered(let t):
            w.key("transaction")
            TransactionJSON.write(t, into: &w)
        case .productsRequestFinished(let products, let invalid):
            w.key("request")
            w.beginObject()
            w.key("kind")
            w.string("products")
            w.key("productIdentifiers")
            w.beginArray()
            for p in products { w.string(p.rawValue) }
            w.endArray()
            w.key("invalidProductIdentifiers")
            w.beginArray()
            for p in invalid { w.string(p.rawValue) }
            w.endArray()
            w.endObject()
        case .productsRequestFailed(let error):
            request("products", error: error, into: &w)
        case .restoreFinished(let count, let user):
            w.key("request")
            w.beginObject()
            w.key("kind")
            w.string("restore")
            w.key("userIdentifier")
            w.optionalString(user?.rawValue)
            w.key("count")
            w.int(count)
            w.endObject()
        case .restoreFailed(let error, let user):
            w.key("request")
            w.beginObject()
            w.key("kind")
            w.string("restore")
            w.key("userIdentifier")
            w.optionalString(user?.rawValue)
            w.key("error")
            TransactionJSON.writeError(error, into: &w)
            w.endObject()
        case .appLaunched(let unfinished):
            w.key("request")
            w.beginObject()
            w.key("kind")
            w.string("launch")
            w.key("unfinished")
            w.int(unfinished)
            w.endObject()
        case .settingChanged(let key, let value):
            w.key("setting")
            w.beginObject()
            w.key("key")
            w.string(key)
            w.key("value")
            w.string(value)
            w.endObject()
        case .storeCreated(let origin):
            w.key("store")
            w.beginObject()
            w.key("catalog")
            w.string(origin.catalog)
            w.key("catalogSHA256")
            w.string(origin.catalogSHA256)
            w.key("bundleID")
            w.string(origin.bundleID)
            w.key("appVersion")
            w.string(origin.appVersion)
            w.key("signing")
            w.string(origin.signingSHA256 == nil ? "built-in" : "own")
            w.key("signingSHA256")
            w.optionalString(origin.signingSHA256)
            w.endObject()
        case .download(_, let transaction, let product, let d):
            w.key("download")
            DownloadRowJSON.write(d, transaction: transaction, product: product, into: &w)
        case .contentDownload(_, let c):
            w.key("download")
            DownloadRowJSON.write(c, into: &w)
        case .storePayment(_, let payment):
            w.key("storePayment")
            StoredPaymentJSON.write(payment, into: &w)
        case .transactionFinishPostponed(let t):
            w.key("transaction")
            TransactionJSON.write(t, into: &w)
        case .transactionDeliveryFailed(let t, let error):
            w.key("transaction")
            TransactionJSON.write(t, into: &w)
            w.key("error")
            TransactionJSON.writeError(error, into: &w)
        case .interruptedPurchaseResolved(let original, let resolved):
            w.key("request")
            w.beginObject()
            w.key("kind")
            w.string("resolve")
            w.key("transactionIdentifier")
            w.decimalString(original.rawValue)
            w.key("resolvedTransactionIdentifier")
            w.decimalString(resolved.rawValue)
            w.endObject()
        case .faultAdded(let fault), .faultFired(let fault):
            w.key("fault")
            FaultJSON.write(fault, into: &w)
        case .faultsCleared(let count):
            w.key("request")
            w.beginObject()
            w.key("kind")
            w.string("faultClear")
            w.key("count")
            w.int(count)
            w.endObject()
        case .productConsumed(let product, let count, let balance):
            w.key("ledger")
            w.beginObject()
            w.key("productIdentifier")
            w.string(product.rawValue)
            w.key("consumed")
            w.int(count)
            w.key("balance")
            w.int(balance)
            w.endObject()
        case .receipt(let event):
            ReceiptEventJSON.write(event, into: &w)
        case .clockAdvanced(let from, let to):
            w.key("clock")
            w.beginObject()
            w.key("from")
            TransactionJSON.optionalDate(from, "fromTimestamp", into: &w)
            w.key("to")
            TransactionJSON.optionalDate(to, "toTimestamp", into: &w)
            w.endObject()
        case .subscriptionStarted(let t, let s, _), .subscriptionRenewed(let t, let s, _):
            transactionAndSubscription(t, s, e.kind, into: &w)
        case .subscriptionUpgraded(let from, let to, let s):
            w.key("upgradedTransaction")
            TransactionJSON.write(from, into: &w)
            transactionAndSubscription(to, s, e.kind, into: &w)
        case .renewalPreferenceChanged(let s, let from, let change):
            w.key("previousRenewalProductIdentifier")
            w.string(from.rawValue)
            w.key("change")
            w.optionalString(change?.rawValue)
            transactionAndSubscription(nil, s, e.kind, into: &w)
        case .autoRenewStatusChanged(let s), .renewalFailed(let s), .gracePeriodExpired(let s), .subscriptionExpired(let s):
            transactionAndSubscription(nil, s, e.kind, into: &w)
        case .transactionRevoked(let t, let s):
            transactionAndSubscription(t, s, e.kind, into: &w)
        case .transactionDeleted(let t):
            w.key("transaction")
            TransactionJSON.write(t, into: &w)
        case .transactionsCleared(let count):
            w.key("request")
            w.beginObject()
            w.key("kind")
            w.string("clear")
            w.key("count")
            w.int(count)
            w.endObject()
        case .offerKeyAdded(let key), .offerKeyRemoved(let key):
            w.key("offerKey")
            OfferJSON.writeKey(key, into: &w)
        case .offerRedeemed(let t, let s, let offer, let change):
            w.key("offer")
            OfferJSON.writeRef(offer, into: &w)
            w.key("change")
            w.optionalString(change?.rawValue)
            transactionAndSubscription(t, s, e.kind, into: &w)
        case .subscriptionOffersChanged(let original, let offers):
            w.key("originalTransactionIdentifier")
            w.decimalString(original.rawValue)
            w.key("offers")
            OfferJSON.writeSubscriptionOffers(offers, into: &w)
        case .life(let change):
            LifeJSON.writeEventFields(change, e.kind, into: &w)
        case .family(let change):
            switch change {
            case .memberAdded(let name), .memberRemoved(let name):
                w.key("familyMember")
                w.string(name)
            case .transactionShared(let t), .transactionRevoked(let t), .memberPurchased(let t), .revocationCleared(let t),
                .transactionDeleted(let t):
                w.key("familyMember")
                w.optionalString(t.familyMember)
                w.key("transaction")
                TransactionJSON.write(t, into: &w)
            }
        case .serverAPI(let change):
            if let t = change.transaction {
                w.key("transaction")
                TransactionJSON.write(t, into: &w)
            }
            switch change {
            case .appAccountTokenSet(_, let token):
                w.key("appAccountToken")
                w.string(token)
            case .consumptionInformationReceived(_, let info):
                w.key("consumptionInformation")
                ConsumptionInformationJSON.write(info, into: &w)
            case .renewalExtended(_, let s, let days, let reason, let request):
                w.key("extendByDays")
                w.int(days)
                w.key("extendReasonCode")
                w.int(reason)
                w.key("requestIdentifier")
                w.string(request)
                w.key("subscription")
                SubscriptionJSON.write(s, into: &w)
            case .massExtensionCompleted(let m):
                w.key("massExtension")
                MassExtensionJSON.write(m, into: &w)
            case .massExtensionFailed(_, let s, let request):
                w.key("requestIdentifier")
                w.string(request)
                w.key("subscription")
                SubscriptionJSON.write(s, into: &w)
            case .notificationSent(let n, _, let s):
                w.key("notification")
                ServerNotificationJSON.write(n, into: &w)
                if let s {
                    w.key("subscription")
                    SubscriptionJSON.write(s, into: &w)
                }
            case .testNotificationRequested:
                w.key("request")
                w.beginObject()
                w.key("kind")
                w.string("testNotification")
                w.endObject()
            case .retentionChanged(let change):
                w.key("retention")
                w.beginArray()
                for f in change.fields { w.string(f) }
                w.endArray()
            }
        }
        w.endObject()
    }

    /// The transaction (if any), the subscription's renewal information after the change (if
    /// any), and the App Store Server Notification the event corresponds to.
    static func transactionAndSubscription(_ t: Transaction?, _ s: Subscription?, _ kind: EventKind, into w: inout JSONWriter) {
        if let t {
            w.key("transaction")
            TransactionJSON.write(t, into: &w)
        }
        w.key("renewalInfo")
        if let s { SubscriptionJSON.writeRenewalInfo(s, into: &w) } else { w.null() }
        w.key("notification")
        ServerNotificationJSON.write(kind.serverNotification, into: &w)
    }

    static func request(_ kind: String, error: TransactionError, into w: inout JSONWriter) {
        w.key("request")
        w.beginObject()
        w.key("kind")
        w.string(kind)
        w.key("error")
        TransactionJSON.writeError(error, into: &w)
        w.endObject()
    }

    public static func bytes(_ e: Event) -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        write(e, into: &w)
        return w.bytes
    }
}
