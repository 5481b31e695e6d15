import IAPTime

// The binary forms of the working state's parts (see `BinaryRecord`). Each writes its fields in
// declaration order; a field added later goes at the end of a new record version, never between.

extension TransactionError: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.string(domain)
        w.int(code)
        w.string(name)
        w.string(message)
    }

    static func decode(from r: inout ByteReader) -> TransactionError? {
        guard let domain = r.string(), let code = r.int(), let name = r.string(), let message = r.string() else { return nil }
        return TransactionError(domain: domain, code: code, name: name, message: message)
    }
}

extension Fault: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.int(id)
        w.string(point.rawValue)
        w.record(error)
        w.int(remaining)
        w.optional(productID) { $0.product($1) }
    }

    static func decode(from r: inout ByteReader) -> Fault? {
        guard let id = r.int(), let point = r.string().flatMap(FaultPoint.init(rawValue:)),
            let error = r.record(TransactionError.self),
            let remaining = r.int(), let product = r.optional({ $0.product() })
        else { return nil }
        return Fault(id: id, point: point, error: error, remaining: remaining, productID: product)
    }
}

extension StoredPayment: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.product(productID)
        w.optional(userID) { $0.user($1) }
        w.int(quantity)
        w.timestamp(date)
    }

    static func decode(from r: inout ByteReader) -> StoredPayment? {
        guard let product = r.product(), let user = r.optional({ $0.user() }), let quantity = r.int(), let date = r.timestamp()
        else { return nil }
        return StoredPayment(productID: product, userID: user, quantity: quantity, date: date)
    }
}

extension InterruptedPurchase: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.id(transactionID)
        w.product(productID)
        w.optional(userID) { $0.user($1) }
        w.int(quantity)
    }

    static func decode(from r: inout ByteReader) -> InterruptedPurchase? {
        guard let id = r.id(), let product = r.product(), let user = r.optional({ $0.user() }), let quantity = r.int() else {
            return nil
        }
        return InterruptedPurchase(transactionID: id, productID: product, userID: user, quantity: quantity)
    }
}

extension LedgerEntry: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.int(purchases)
        w.int(units)
        w.int(consumed)
    }

    static func decode(from r: inout ByteReader) -> LedgerEntry? {
        guard let p = r.int(), let u = r.int(), let c = r.int() else { return nil }
        return LedgerEntry(purchases: p, units: u, consumed: c)
    }
}

extension DownloadState {
    static func code(_ raw: UInt64) -> DownloadState? {
        switch raw {
        case 0: return .waiting
        case 1: return .active
        case 2: return .paused
        case 3: return .finished
        case 4: return .failed
        case 5: return .cancelled
        default: return nil
        }
    }
}

extension ContentDownload: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.id(transactionID)
        w.product(productID)
        w.varint(UInt64(state.rawCode))
        w.int(progressBasisPoints)
        w.optional(error) { $0.record($1) }
    }

    static func decode(from r: inout ByteReader) -> ContentDownload? {
        guard let id = r.id(), let product = r.product(), let state = r.varint().flatMap(DownloadState.code),
            let progress = r.int(), let error = r.optional({ $0.record(TransactionError.self) })
        else { return nil }
        return ContentDownload(
            transactionID: id, productID: product, phase: DownloadPhase(state, error: error), progressBasisPoints: progress)
    }
}

extension NonRenewingEntitlement: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.product(productID)
        w.id(firstID)
        w.id(latestID)
        w.timestamp(expiresDate)
        w.int(purchases)
        w.optional(revocation) { w, r in
            w.timestamp(r.date)
            w.int(r.reason)
        }
    }

    static func decode(from r: inout ByteReader) -> NonRenewingEntitlement? {
        guard let product = r.product(), let first = r.id(), let latest = r.id(), let expires = r.timestamp(),
            let purchases = r.int(),
            let revocation = r.optional({ r -> Revocation? in
                guard let date = r.timestamp(), let reason = r.int() else { return nil }
                return Revocation(date: date, reason: reason)
            })
        else { return nil }
        var e = NonRenewingEntitlement(
            productID: product, firstID: first, latestID: latest, expiresDate: expires, purchases: purchases)
        e.revocation = revocation
        return e
    }
}

extension StoreState.Ownership: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.id(originalID)
        w.timestamp(originalDate)
        w.optional(userID) { $0.user($1) }
    }

    static func decode(from r: inout ByteReader) -> StoreState.Ownership? {
        guard let id = r.id(), let date = r.timestamp(), let user = r.optional({ $0.user() }) else { return nil }
        return StoreState.Ownership(originalID: id, originalDate: date, userID: user)
    }
}

extension Transaction.OfferKind {
    static func decode(_ text: String) -> Transaction.OfferKind? { Transaction.OfferKind(rawValue: text) }
}

extension Subscription: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.id(originalID)
        w.timestamp(originalDate)
        w.string(group)
        w.optional(userID) { $0.user($1) }
        w.product(productID)
        w.id(latestID)
        w.timestamp(periodStart)
        w.timestamp(expiresDate)
        w.varint(webOrderLineItemID)
        w.price(periodPrice)
        w.string(currency)
        w.optional(offer) { $0.string($1.rawValue) }
        switch status {
        case .active: w.u8(0)
        case .inGracePeriod(let until, let retryUntil):
            w.u8(1)
            w.timestamp(until)
            w.timestamp(retryUntil)
        case .inBillingRetry(let until):
            w.u8(2)
            w.timestamp(until)
        case .expired(let intent):
            w.u8(3)
            w.int(intent.rawValue)
        case .revoked(let date, let reason):
            w.u8(4)
            w.timestamp(date)
            w.int(reason)
        }
        w.bool(autoRenew)
        w.product(renewalProductID)
        w.int(offerPeriodsLeft)
        w.timestamp(cycleAnchor)
        w.record(cyclePeriod)
        w.int(cycles)
        w.optional(upgradeCredit) { $0.price($1) }
        w.int(renewals)
        w.optional(recentStartDate) { $0.timestamp($1) }
    }

    static func decode(from r: inout ByteReader) -> Subscription? {
        guard let originalID = r.id(), let originalDate = r.timestamp(), let group = r.string(),
            let userID = r.optional({ $0.user() }), let productID = r.product(), let latestID = r.id(),
            let periodStart = r.timestamp(), let expiresDate = r.timestamp(), let webOrder = r.varint(),
            let periodPrice = r.price(), let currency = r.string(),
            let offer = r.optional({ $0.string().flatMap(Transaction.OfferKind.decode) })
        else { return nil }
        let status: Status
        switch r.u8() {
        case 0?: status = .active
        case 1?:
            guard let until = r.timestamp(), let retry = r.timestamp() else { return nil }
            status = .inGracePeriod(until: until, retryUntil: retry)
        case 2?:
            guard let until = r.timestamp() else { return nil }
            status = .inBillingRetry(until: until)
        case 3?:
            guard let intent = r.int().flatMap(ExpirationIntent.init(rawValue:)) else { return nil }
            status = .expired(intent)
        case 4?:
            guard let date = r.timestamp(), let reason = r.int() else { return nil }
            status = .revoked(date: date, reason: reason)
        default: return nil
        }
        guard let autoRenew = r.bool(), let renewalProductID = r.product(), let offerPeriodsLeft = r.int(),
            let cycleAnchor = r.timestamp(), let cyclePeriod = r.record(SubscriptionPeriod.self), let cycles = r.int(),
            let upgradeCredit = r.optional({ $0.price() }), let renewals = r.int(),
            let recentStart = r.optional({ $0.timestamp() })
        else { return nil }
        return Subscription(
            originalID: originalID, originalDate: originalDate, group: group, userID: userID, productID: productID,
            latestID: latestID, periodStart: periodStart, expiresDate: expiresDate, webOrderLineItemID: webOrder,
            periodPrice: periodPrice, currency: currency, offer: offer, status: status, autoRenew: autoRenew,
            renewalProductID: renewalProductID, offerPeriodsLeft: offerPeriodsLeft, cycleAnchor: cycleAnchor,
            cyclePeriod: cyclePeriod, cycles: cycles, upgradeCredit: upgradeCredit, renewals: renewals,
            recentStartDate: recentStart)
    }
}

extension SubscriptionPeriod: BinaryRecord {
    func encode(into w: inout ByteWriter) { w.string(iso8601) }

    static func decode(from r: inout ByteReader) -> SubscriptionPeriod? { r.string().flatMap(SubscriptionPeriod.init(iso8601:)) }
}

extension ReceiptVerificationRecord: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        switch method {
        case .local: w.u8(0)
        case .verifyReceipt(let endpoint):
            w.u8(1)
            w.string(endpoint.rawValue)
        }
        w.optional(transactionID) { $0.id($1) }
        w.optional(productID) { $0.product($1) }
        w.optional(status) { $0.int($1) }
        w.optional(error) { $0.record($1) }
    }

    static func decode(from r: inout ByteReader) -> ReceiptVerificationRecord? {
        let method: Method
        switch r.u8() {
        case 0?: method = .local
        case 1?:
            guard let endpoint = r.string().flatMap(VerifyReceiptEndpoint.init(rawValue:)) else { return nil }
            method = .verifyReceipt(endpoint)
        default: return nil
        }
        guard let id = r.optional({ $0.id() }), let product = r.optional({ $0.product() }), let status = r.optional({ $0.int() }),
            let error = r.optional({ $0.record(TransactionError.self) })
        else { return nil }
        return ReceiptVerificationRecord(method: method, transactionID: id, productID: product, status: status, error: error)
    }
}

extension Settings: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.bool(paymentsAllowed)
        w.string(storefront)
        w.optional(locale) { $0.string($1) }
        w.svarint(clockStepMilliseconds)
        w.bool(nonRenewingQuantity)
        w.bool(askToBuy)
        w.bool(interruptedPurchases)
        w.optional(failTransactions) { $0.record($1) }
        w.string(storePayments.rawValue)
        w.bool(finishAfterDownloads)
        w.optional(downloader) { $0.string($1) }
        w.string(environment.rawValue)
        w.optional(deviceID) { $0.string($1) }
        w.optional(sharedSecret) { $0.string($1) }
        w.bool(autoFinish)
        w.bool(billingIssues)
        w.bool(gracePeriod)
        w.string(restoreRenewals.rawValue)
    }

    static func decode(from r: inout ByteReader) -> Settings? {
        var s = Settings()
        guard let paymentsAllowed = r.bool(), let storefront = r.string(), let locale = r.optional({ $0.string() }),
            let clockStep = r.svarint(), let nonRenewingQuantity = r.bool(), let askToBuy = r.bool(),
            let interrupted = r.bool(), let fail = r.optional({ $0.record(TransactionError.self) }),
            let storePayments = r.string().flatMap(StorePaymentPolicy.init(rawValue:)), let finishAfter = r.bool(),
            let downloader = r.optional({ $0.string() }),
            let environment = r.string().flatMap(ReceiptEnvironment.init(rawValue:)),
            let deviceID = r.optional({ $0.string() }), let sharedSecret = r.optional({ $0.string() }),
            let autoFinish = r.bool(), let billingIssues = r.bool(), let gracePeriod = r.bool(),
            let restoreRenewals = r.string().flatMap(RestoreRenewals.init(rawValue:))
        else { return nil }
        s.paymentsAllowed = paymentsAllowed
        s.storefront = storefront
        s.locale = locale
        s.clockStepMilliseconds = clockStep
        s.nonRenewingQuantity = nonRenewingQuantity
        s.askToBuy = askToBuy
        s.interruptedPurchases = interrupted
        s.failTransactions = fail
        s.storePayments = storePayments
        s.finishAfterDownloads = finishAfter
        s.downloader = downloader
        s.environment = environment
        s.deviceID = deviceID
        s.sharedSecret = sharedSecret
        s.autoFinish = autoFinish
        s.billingIssues = billingIssues
        s.gracePeriod = gracePeriod
        s.restoreRenewals = restoreRenewals
        return s
    }
}

extension ServerAPIRecord: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.optional(appAccountToken) { $0.string($1) }
        w.varint(UInt64(consumption.count))
        for c in consumption {
            w.int(c.version)
            w.timestamp(c.received)
            w.string(c.body)
        }
        w.varint(UInt64(extensions.count))
        for date in extensions { w.timestamp(date) }
    }

    static func decode(from r: inout ByteReader) -> ServerAPIRecord? {
        guard let token = r.optional({ $0.string() }), let n = r.varint(), n <= UInt64(r.bytes.count - r.index) else {
            return nil
        }
        var consumption: [ConsumptionInformation] = []
        for _ in 0..<n {
            guard let version = r.int(), let received = r.timestamp(), let body = r.string() else { return nil }
            consumption.append(ConsumptionInformation(version: version, received: received, body: body))
        }
        guard let m = r.varint(), m <= UInt64(r.bytes.count - r.index) else { return nil }
        var extensions: [Timestamp] = []
        for _ in 0..<m {
            guard let date = r.timestamp() else { return nil }
            extensions.append(date)
        }
        return ServerAPIRecord(appAccountToken: token, consumption: consumption, extensions: extensions)
    }
}

extension MassExtension: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.string(requestIdentifier)
        w.product(productID)
        w.timestamp(completeDate)
        w.int(succeeded)
        w.int(failed)
        w.optional(storefronts) { w, list in
            w.varint(UInt64(list.count))
            for code in list { w.string(code) }
        }
    }

    static func decode(from r: inout ByteReader) -> MassExtension? {
        guard let request = r.string(), let product = r.product(), let date = r.timestamp(), let succeeded = r.int(),
            let failed = r.int(),
            let storefronts = r.optional({ r -> [String]? in
                guard let n = r.varint(), n <= UInt64(r.bytes.count - r.index) else { return nil }
                var list: [String] = []
                for _ in 0..<n {
                    guard let code = r.string() else { return nil }
                    list.append(code)
                }
                return list
            })
        else { return nil }
        return MassExtension(
            requestIdentifier: request, productID: product, completeDate: date, succeeded: succeeded, failed: failed,
            storefronts: storefronts)
    }
}

extension RetentionMessaging: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.varint(UInt64(images.count))
        for id in images.keys.sorted() {
            w.string(id)
            w.string(images[id]!)
        }
        w.varint(UInt64(messages.count))
        for id in messages.keys.sorted() {
            let m = messages[id]!
            w.string(id)
            w.string(m.body)
            w.varint(UInt64(m.imageIDs.count))
            for image in m.imageIDs { w.string(image) }
        }
        w.varint(UInt64(defaults.count))
        for key in defaults.keys.sorted() {
            w.string(key)
            w.string(defaults[key]!)
        }
        w.optional(realtimeURL) { $0.string($1) }
        w.varint(UInt64(performanceTests.count))
        for id in performanceTests.keys.sorted() {
            let fields = performanceTests[id]!
            w.varint(UInt64(fields.count))
            for f in fields { w.string(f) }
        }
    }

    static func decode(from r: inout ByteReader) -> RetentionMessaging? {
        var out = RetentionMessaging()
        func count() -> UInt64? { r.varint().flatMap { $0 <= UInt64(r.bytes.count - r.index) ? $0 : nil } }
        guard let nImages = count() else { return nil }
        for _ in 0..<nImages {
            guard let id = r.string(), let size = r.string() else { return nil }
            out.images[id] = size
        }
        guard let nMessages = count() else { return nil }
        for _ in 0..<nMessages {
            guard let id = r.string(), let body = r.string(), let n = count() else { return nil }
            var images: [String] = []
            for _ in 0..<n {
                guard let image = r.string() else { return nil }
                images.append(image)
            }
            out.messages[id] = RetentionMessage(body: body, imageIDs: images)
        }
        guard let nDefaults = count() else { return nil }
        for _ in 0..<nDefaults {
            guard let key = r.string(), let message = r.string() else { return nil }
            out.defaults[key] = message
        }
        guard let url = r.optional({ $0.string() }) else { return nil }
        out.realtimeURL = url
        guard let nTests = count() else { return nil }
        for _ in 0..<nTests {
            guard let n = count() else { return nil }
            var fields: [String] = []
            for _ in 0..<n {
                guard let f = r.string() else { return nil }
                fields.append(f)
            }
            guard let id = fields.first else { return nil }
            out.performanceTests[id] = fields
        }
        return out
    }
}

extension Family: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.varint(UInt64(members.count))
        for m in members {
            w.string(m.name)
            w.timestamp(m.joined)
        }
        w.varint(UInt64(shares.count))
        for share in shares {
            w.string(share.member)
            w.id(share.purchaserOriginalID)
            w.id(share.purchaserLatestID)
            w.block { TransactionRecordCodec.encode(share.latest, into: &$0) }
        }
    }

    static func decode(from r: inout ByteReader) -> Family? {
        var out = Family()
        func count() -> UInt64? { r.varint().flatMap { $0 <= UInt64(r.bytes.count - r.index) ? $0 : nil } }
        guard let nMembers = count() else { return nil }
        for _ in 0..<nMembers {
            guard let name = r.string(), let joined = r.timestamp() else { return nil }
            out.members.append(Family.Member(name: name, joined: joined))
        }
        guard let nShares = count() else { return nil }
        for _ in 0..<nShares {
            guard let member = r.string(), let original = r.id(), let latestID = r.id(), let block = r.block(),
                let latest = TransactionRecordCodec.decode(block)
            else { return nil }
            out.shares.append(
                Family.Share(member: member, purchaserOriginalID: original, purchaserLatestID: latestID, latest: latest))
        }
        return out
    }
}
