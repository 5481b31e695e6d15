import IAPTime

/// The binary form of an event inside a commit frame (docs/store.md, "Event records").
///
/// `[kind varint][date: svarint delta from the previous event of the frame][fields]`. The `seq`
/// is not stored: a frame holds consecutive events from its first `seq`. A transaction an event
/// carries is a varint reference to a version in the same frame (`CommitRecord.versions`), so a
/// purchase that is both the event's subject and the stored latest version is written once.
///
/// Kinds are numbered explicitly below; a new `EventKind` case needs a new number here, and the
/// switch in `encode` (exhaustive, no `default:`) makes the compiler ask for it.
enum EventRecordCodec {
    /// Writes `event`; `ref` returns the frame's version index of a transaction snapshot.
    static func encode(
        _ event: Event, previousDate: Timestamp, into w: inout ByteWriter, ref: (Transaction) -> Int
    ) {
        func kind(_ k: UInt64) {
            w.varint(k)
            w.svarint(event.date.milliseconds &- previousDate.milliseconds)
        }
        func t(_ transaction: Transaction) { w.varint(UInt64(ref(transaction))) }
        func products(_ ids: [ProductID]) {
            w.varint(UInt64(ids.count))
            for p in ids { w.product(p) }
        }
        func user(_ u: UserID?) { w.optional(u) { $0.user($1) } }
        switch event.kind {
        case .transactionUpdated(let x):
            kind(1)
            t(x)
        case .transactionFinished(let x):
            kind(2)
            t(x)
        case .transactionRedelivered(let x):
            kind(3)
            t(x)
        case .productsRequestFinished(let valid, let invalid):
            kind(4)
            products(valid)
            products(invalid)
        case .productsRequestFailed(let error):
            kind(5)
            w.record(error)
        case .restoreFinished(let count, let u):
            kind(6)
            w.int(count)
            user(u)
        case .restoreFailed(let error, let u):
            kind(7)
            w.record(error)
            user(u)
        case .appLaunched(let unfinished):
            kind(8)
            w.int(unfinished)
        case .settingChanged(let key, let value):
            kind(9)
            w.string(key)
            w.string(value)
        case .download(let change, let transaction, let product, let d):
            kind(10)
            w.string(change.rawValue)
            w.id(transaction)
            w.product(product)
            TransactionRecordCodec.encodeDownload(d, into: &w)
        case .contentDownload(let change, let content):
            kind(11)
            w.string(change.rawValue)
            w.record(content)
        case .storePayment(let decision, let payment):
            kind(12)
            w.string(decision.rawValue)
            w.record(payment)
        case .transactionFinishPostponed(let x):
            kind(13)
            t(x)
        case .transactionDeliveryFailed(let x, let error):
            kind(14)
            t(x)
            w.record(error)
        case .interruptedPurchaseResolved(let original, let resolved):
            kind(15)
            w.id(original)
            w.id(resolved)
        case .faultAdded(let fault):
            kind(16)
            w.record(fault)
        case .faultFired(let fault):
            kind(17)
            w.record(fault)
        case .faultsCleared(let count):
            kind(18)
            w.int(count)
        case .productConsumed(let product, let count, let balance):
            kind(19)
            w.product(product)
            w.int(count)
            w.int(balance)
        case .receipt(let e):
            switch e {
            case .refreshFinished: kind(20)
            case .refreshFailed(let error):
                kind(21)
                w.record(error)
            case .verified(let record):
                kind(22)
                w.record(record)
            case .verificationFailed(let record):
                kind(23)
                w.record(record)
            case .transactionVerificationFailed(let x, let error):
                kind(24)
                t(x)
                w.record(error)
            }
        case .clockAdvanced(let from, let to):
            kind(25)
            w.timestamp(from)
            w.timestamp(to)
        case .subscriptionStarted(let x, let s, let resubscribed):
            kind(26)
            t(x)
            w.record(s)
            w.bool(resubscribed)
        case .subscriptionRenewed(let x, let s, let recovered):
            kind(27)
            t(x)
            w.record(s)
            w.bool(recovered)
        case .subscriptionUpgraded(let from, let to, let s):
            kind(28)
            t(from)
            t(to)
            w.record(s)
        case .renewalPreferenceChanged(let s, let from, let change):
            kind(29)
            w.record(s)
            w.product(from)
            w.optional(change) { $0.string($1.rawValue) }
        case .autoRenewStatusChanged(let s):
            kind(30)
            w.record(s)
        case .renewalFailed(let s):
            kind(31)
            w.record(s)
        case .gracePeriodExpired(let s):
            kind(32)
            w.record(s)
        case .subscriptionExpired(let s):
            kind(33)
            w.record(s)
        case .transactionRevoked(let x, let s):
            kind(34)
            t(x)
            w.optional(s) { $0.record($1) }
        case .transactionDeleted(let x):
            kind(35)
            t(x)
        case .serverAPI(let change):
            // Issue 13's kinds are numbered from 100.
            switch change {
            case .appAccountTokenSet(let x, let token):
                kind(100)
                t(x)
                w.string(token)
            case .consumptionInformationReceived(let x, let info):
                kind(101)
                t(x)
                w.int(info.version)
                w.timestamp(info.received)
                w.string(info.body)
            case .renewalExtended(let x, let s, let days, let reason, let request):
                kind(102)
                t(x)
                w.record(s)
                w.int(days)
                w.int(reason)
                w.string(request)
            case .massExtensionCompleted(let m):
                kind(103)
                w.record(m)
            case .testNotificationRequested:
                kind(104)
            case .retentionChanged(let change):
                kind(105)
                w.int(change.code)
                w.varint(UInt64(change.fields.count))
                for f in change.fields { w.string(f) }
            case .massExtensionFailed(let x, let s, let request):
                kind(106)
                t(x)
                w.record(s)
                w.string(request)
            case .notificationSent(let n, let x, let s):
                kind(107)
                w.string(n.type)
                w.optional(n.subtype) { $0.string($1) }
                w.u8(x == nil ? 0 : 1)
                if let x { t(x) }
                w.optional(s) { $0.record($1) }
            }
        case .transactionsCleared(let count):
            kind(36)
            w.int(count)
        case .storeCreated(let origin):
            // The start is the event's date.
            kind(37)
            w.string(origin.catalog)
            w.string(origin.catalogSHA256)
            w.string(origin.bundleID)
            w.string(origin.appVersion)
            w.optional(origin.signingSHA256) { $0.string($1) }
        // MARK: - Offers (150-199)
        case .offerKeyAdded(let key):
            kind(150)
            w.record(key)
        case .offerKeyRemoved(let key):
            kind(151)
            w.record(key)
        case .offerRedeemed(let x, let s, let offer, let change):
            kind(152)
            t(x)
            w.record(s)
            offer.encode(into: &w)
            w.optional(change) { $0.string($1.rawValue) }
        case .subscriptionOffersChanged(let original, let offers):
            kind(153)
            w.id(original)
            w.record(offers)
        // MARK: - Issue 15, life-a (200-224)
        case .life(let change):
            switch change {
            case .refundRequested(let x, let q):
                kind(200)
                t(x)
                w.record(q)
            case .refundDeclined(let x, let q):
                kind(201)
                t(x)
                w.record(q)
            case .refundReversed(let x, let s):
                kind(202)
                t(x)
                w.optional(s) { $0.record($1) }
            case .priceIncreaseAnnounced(let p, let n):
                kind(203)
                w.record(p)
                w.int(n)
            case .priceConsentChanged(let s, let c):
                kind(204)
                w.record(s)
                w.record(c)
            }
        // Issue 15 (life-b): kinds 225-229.
        case .family(let change):
            switch change {
            case .memberAdded(let name):
                kind(225)
                w.string(name)
            case .memberRemoved(let name):
                kind(226)
                w.string(name)
            case .transactionShared(let x):
                kind(227)
                t(x)
            case .transactionRevoked(let x):
                kind(228)
                t(x)
            case .memberPurchased(let x):
                kind(229)
                t(x)
            // Issue 15 (life-c): kinds 230-249.
            case .revocationCleared(let x):
                kind(230)
                t(x)
            case .transactionDeleted(let x):
                kind(231)
                t(x)
            }
        }
    }

    /// Reads one event; `version` resolves a reference to the frame's transaction versions.
    static func decode(
        from r: inout ByteReader, seq: UInt64, previousDate: Timestamp, version: (Int) -> Transaction?
    ) -> Event? {
        guard let k = r.varint(), let delta = r.svarint() else { return nil }
        let date = Timestamp(milliseconds: previousDate.milliseconds &+ delta)
        func t() -> Transaction? { r.varint().flatMap { $0 < UInt64(Int.max) ? version(Int($0)) : nil } }
        func products() -> [ProductID]? {
            guard let n = r.varint(), n <= UInt64(r.bytes.count - r.index) else { return nil }
            var out: [ProductID] = []
            for _ in 0..<n {
                guard let p = r.product() else { return nil }
                out.append(p)
            }
            return out
        }
        func error() -> TransactionError? { r.record(TransactionError.self) }
        func sub() -> Subscription? { r.record(Subscription.self) }
        let kind: EventKind
        switch k {
        case 1:
            guard let x = t() else { return nil }
            kind = .transactionUpdated(x)
        case 2:
            guard let x = t() else { return nil }
            kind = .transactionFinished(x)
        case 3:
            guard let x = t() else { return nil }
            kind = .transactionRedelivered(x)
        case 4:
            guard let valid = products(), let invalid = products() else { return nil }
            kind = .productsRequestFinished(products: valid, invalid: invalid)
        case 5:
            guard let e = error() else { return nil }
            kind = .productsRequestFailed(e)
        case 6:
            guard let count = r.int(), let u = r.optional({ $0.user() }) else { return nil }
            kind = .restoreFinished(count: count, user: u)
        case 7:
            guard let e = error(), let u = r.optional({ $0.user() }) else { return nil }
            kind = .restoreFailed(e, user: u)
        case 8:
            guard let n = r.int() else { return nil }
            kind = .appLaunched(unfinished: n)
        case 9:
            guard let key = r.string(), let value = r.string() else { return nil }
            kind = .settingChanged(key: key, value: value)
        case 10:
            guard let change = r.string().flatMap(DownloadChange.init(rawValue:)), let id = r.id(), let product = r.product(),
                let d = TransactionRecordCodec.decodeDownload(from: &r)
            else { return nil }
            kind = .download(change, transaction: id, product: product, d)
        case 11:
            guard let change = r.string().flatMap(DownloadChange.init(rawValue:)), let c = r.record(ContentDownload.self) else {
                return nil
            }
            kind = .contentDownload(change, c)
        case 12:
            guard let decision = r.string().flatMap(StorePaymentDecision.init(rawValue:)), let p = r.record(StoredPayment.self)
            else { return nil }
            kind = .storePayment(decision, p)
        case 13:
            guard let x = t() else { return nil }
            kind = .transactionFinishPostponed(x)
        case 14:
            guard let x = t(), let e = error() else { return nil }
            kind = .transactionDeliveryFailed(x, e)
        case 15:
            guard let a = r.id(), let b = r.id() else { return nil }
            kind = .interruptedPurchaseResolved(original: a, resolved: b)
        case 16:
            guard let f = r.record(Fault.self) else { return nil }
            kind = .faultAdded(f)
        case 17:
            guard let f = r.record(Fault.self) else { return nil }
            kind = .faultFired(f)
        case 18:
            guard let n = r.int() else { return nil }
            kind = .faultsCleared(count: n)
        case 19:
            guard let p = r.product(), let count = r.int(), let balance = r.int() else { return nil }
            kind = .productConsumed(p, count: count, balance: balance)
        case 20: kind = .receipt(.refreshFinished)
        case 21:
            guard let e = error() else { return nil }
            kind = .receipt(.refreshFailed(e))
        case 22:
            guard let v = r.record(ReceiptVerificationRecord.self) else { return nil }
            kind = .receipt(.verified(v))
        case 23:
            guard let v = r.record(ReceiptVerificationRecord.self) else { return nil }
            kind = .receipt(.verificationFailed(v))
        case 24:
            guard let x = t(), let e = error() else { return nil }
            kind = .receipt(.transactionVerificationFailed(x, e))
        case 25:
            guard let from = r.timestamp(), let to = r.timestamp() else { return nil }
            kind = .clockAdvanced(from: from, to: to)
        case 26:
            guard let x = t(), let s = sub(), let flag = r.bool() else { return nil }
            kind = .subscriptionStarted(x, s, resubscribed: flag)
        case 27:
            guard let x = t(), let s = sub(), let flag = r.bool() else { return nil }
            kind = .subscriptionRenewed(x, s, recovered: flag)
        case 28:
            guard let a = t(), let b = t(), let s = sub() else { return nil }
            kind = .subscriptionUpgraded(from: a, to: b, s)
        case 29:
            guard let s = sub(), let from = r.product(),
                let change = r.optional({ $0.string().flatMap(GroupChange.init(rawValue:)) })
            else { return nil }
            kind = .renewalPreferenceChanged(s, from: from, change: change)
        case 30:
            guard let s = sub() else { return nil }
            kind = .autoRenewStatusChanged(s)
        case 31:
            guard let s = sub() else { return nil }
            kind = .renewalFailed(s)
        case 32:
            guard let s = sub() else { return nil }
            kind = .gracePeriodExpired(s)
        case 33:
            guard let s = sub() else { return nil }
            kind = .subscriptionExpired(s)
        case 34:
            guard let x = t(), let s = r.optional({ $0.record(Subscription.self) }) else { return nil }
            kind = .transactionRevoked(x, s)
        case 35:
            guard let x = t() else { return nil }
            kind = .transactionDeleted(x)
        case 36:
            guard let n = r.int() else { return nil }
            kind = .transactionsCleared(count: n)
        case 37:
            guard let catalog = r.string(), let sha = r.string(), let bundleID = r.string(), let appVersion = r.string(),
                let signing = r.optional({ $0.string() })
            else { return nil }
            kind = .storeCreated(
                StoreOrigin(
                    catalog: catalog, catalogSHA256: sha, bundleID: bundleID, appVersion: appVersion, start: date,
                    signingSHA256: signing))
        case 150:
            guard let key = r.record(OfferKeyRecord.self) else { return nil }
            kind = .offerKeyAdded(key)
        case 151:
            guard let key = r.record(OfferKeyRecord.self) else { return nil }
            kind = .offerKeyRemoved(key)
        case 152:
            guard let x = t(), let s = sub(), let offer = SubscriptionOfferState.OfferRef.decode(from: &r),
                let change = r.optional({ $0.string().flatMap(GroupChange.init(rawValue:)) })
            else { return nil }
            kind = .offerRedeemed(x, s, offer: offer, change: change)
        case 153:
            guard let original = r.id(), let offers = r.record(SubscriptionOfferState.self) else { return nil }
            kind = .subscriptionOffersChanged(original: original, offers)
        case 200:
            guard let x = t(), let q = r.record(RefundRequest.self) else { return nil }
            kind = .life(.refundRequested(x, q))
        case 201:
            guard let x = t(), let q = r.record(RefundRequest.self) else { return nil }
            kind = .life(.refundDeclined(x, q))
        case 202:
            guard let x = t(), let s = r.optional({ $0.record(Subscription.self) }) else { return nil }
            kind = .life(.refundReversed(x, s))
        case 203:
            guard let p = r.record(PriceIncrease.self), let n = r.int() else { return nil }
            kind = .life(.priceIncreaseAnnounced(p, subscribers: n))
        case 204:
            guard let s = sub(), let c = r.record(PriceConsent.self) else { return nil }
            kind = .life(.priceConsentChanged(s, c))
        case 100:
            guard let x = t(), let token = r.string() else { return nil }
            kind = .serverAPI(.appAccountTokenSet(x, token: token))
        case 101:
            guard let x = t(), let version = r.int(), let received = r.timestamp(), let body = r.string() else { return nil }
            kind = .serverAPI(
                .consumptionInformationReceived(x, ConsumptionInformation(version: version, received: received, body: body)))
        case 102:
            guard let x = t(), let s = sub(), let days = r.int(), let reason = r.int(), let request = r.string() else {
                return nil
            }
            kind = .serverAPI(.renewalExtended(x, s, days: days, reason: reason, requestIdentifier: request))
        case 103:
            guard let m = r.record(MassExtension.self) else { return nil }
            kind = .serverAPI(.massExtensionCompleted(m))
        case 104:
            kind = .serverAPI(.testNotificationRequested)
        case 105:
            guard let code = r.int(), let n = r.varint(), n <= UInt64(r.bytes.count - r.index) else { return nil }
            var fields: [String] = []
            for _ in 0..<n {
                guard let f = r.string() else { return nil }
                fields.append(f)
            }
            guard let change = RetentionChange(code: code, fields: fields) else { return nil }
            kind = .serverAPI(.retentionChanged(change))
        case 106:
            guard let x = t(), let s = sub(), let request = r.string() else { return nil }
            kind = .serverAPI(.massExtensionFailed(x, s, requestIdentifier: request))
        case 107:
            guard let type = r.string(), let subtype = r.optional({ $0.string() }), let has = r.u8(), has <= 1 else {
                return nil
            }
            var x: Transaction?
            if has == 1 {
                guard let found = t() else { return nil }
                x = found
            }
            guard let s = r.optional({ $0.record(Subscription.self) }) else { return nil }
            kind = .serverAPI(.notificationSent(ServerNotification(type, subtype), x, s))
        case 225:
            guard let name = r.string() else { return nil }
            kind = .family(.memberAdded(name))
        case 226:
            guard let name = r.string() else { return nil }
            kind = .family(.memberRemoved(name))
        case 227:
            guard let x = t() else { return nil }
            kind = .family(.transactionShared(x))
        case 228:
            guard let x = t() else { return nil }
            kind = .family(.transactionRevoked(x))
        case 229:
            guard let x = t() else { return nil }
            kind = .family(.memberPurchased(x))
        case 230:
            guard let x = t() else { return nil }
            kind = .family(.revocationCleared(x))
        case 231:
            guard let x = t() else { return nil }
            kind = .family(.transactionDeleted(x))
        default: return nil
        }
        return Event(seq: seq, date: date, kind: kind)
    }
}
