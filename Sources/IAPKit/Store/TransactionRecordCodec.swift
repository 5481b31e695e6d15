import IAPCrypto
import IAPTime

/// The binary form of a transaction in the store's journal.
///
/// Fields are tagged (`tag << 3 | wire type`, as protocol buffers do), so a later version can add
/// fields that an older reader skips, and absent optionals cost nothing. The codec is hand-written
/// because `dump` decodes every stored transaction: it must cost well under a microsecond each.
enum TransactionRecordCodec {
    private enum Tag: UInt64 {
        case id = 1, originalID, productID, productType, quantity, userID, state, errorDomain, errorCode
        case errorName, errorMessage, finished, date, originalDate, storefront, price, currency, charged
        case download, expiresDate, webOrderLineItemID, revocationDate, revocationReason, isUpgraded
        case offer, reason, subscriptionGroup
        case upgradeCredit, isDeleted
        /// A 64-hex-digit user id (an `--account` SHA-256) as its 32 raw bytes.
        case userIDRaw
        // MARK: - Offers (150-199)
        case offerType = 150, offerID = 151, offerPeriod = 152, billingPlan = 153
        /// `[billing period varint][total varint][expires svarint][price svarint]` in a block.
        case commitment = 154
        // MARK: - Issue 15, life-a (200-224)
        case revocationType = 200, revocationPercentage = 201
        // MARK: - Life (issue 15, 225-249)
        /// The family member of a FAMILY_SHARED transaction.
        case familyMember = 225
        /// 1: a family member's own purchase (PURCHASED, not shared).
        case memberPurchase = 226
    }

    private static let varintWire: UInt64 = 0
    private static let bytesWire: UInt64 = 2

    static func encode(_ t: Transaction, into w: inout ByteWriter) {
        func v(_ tag: Tag, _ value: UInt64) {
            w.varint(tag.rawValue << 3 | varintWire)
            w.varint(value)
        }
        func sv(_ tag: Tag, _ value: Int64) { v(tag, UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
        func s(_ tag: Tag, _ value: String) {
            w.varint(tag.rawValue << 3 | bytesWire)
            w.string(value)
        }
        v(.id, t.id.rawValue)
        if t.originalID != t.id { v(.originalID, t.originalID.rawValue) }
        s(.productID, t.productID.rawValue)
        v(.productType, UInt64(productTypeCode(t.productType)))
        if t.quantity != 1 { v(.quantity, UInt64(t.quantity)) }
        if let user = t.userID {
            let text = user.rawValue
            if text.utf8.count == 64, let raw = Hex.decode(text), Hex.encode(raw) == text {
                w.varint(Tag.userIDRaw.rawValue << 3 | bytesWire)
                w.varint(32)
                w.raw(raw)
            } else {
                s(.userID, text)
            }
        }
        v(.state, UInt64(t.state.rawValue))
        if let e = t.state.error {
            s(.errorDomain, e.domain)
            sv(.errorCode, Int64(e.code))
            s(.errorName, e.name)
            s(.errorMessage, e.message)
        }
        if t.finished { v(.finished, 1) }
        sv(.date, t.date.milliseconds)
        if t.originalDate != t.date { sv(.originalDate, t.originalDate.milliseconds) }
        s(.storefront, t.storefront)
        sv(.price, t.price.milliunits)
        s(.currency, t.currency)
        if t.charged { v(.charged, 1) }
        for d in t.downloads {
            w.varint(Tag.download.rawValue << 3 | bytesWire)
            w.block { encodeDownload(d, into: &$0) }
        }
        if let e = t.expiresDate { sv(.expiresDate, e.milliseconds) }
        if let n = t.webOrderLineItemID { v(.webOrderLineItemID, n) }
        if let r = t.revocationDate { sv(.revocationDate, r.milliseconds) }
        if let r = t.revocationReason { sv(.revocationReason, Int64(r)) }
        if t.isUpgraded { v(.isUpgraded, 1) }
        if let o = t.offer { s(.offer, o.rawValue) }
        if t.reason != .purchase { v(.reason, 1) }
        if let g = t.subscriptionGroup { s(.subscriptionGroup, g) }
        if let c = t.upgradeCredit { sv(.upgradeCredit, c.milliunits) }
        if t.isDeleted { v(.isDeleted, 1) }
        if let o = t.offerType, o != .introductory || t.offer == nil { v(.offerType, UInt64(o.rawValue)) }
        if let id = t.offerID { s(.offerID, id.rawValue) }
        if let p = t.offerPeriod { s(.offerPeriod, p.iso8601) }
        if let b = t.billingPlan { s(.billingPlan, b.rawValue) }
        if let r = t.revocationType { v(.revocationType, r.code) }
        if let p = t.revocationPercentage { v(.revocationPercentage, UInt64(max(0, p))) }
        if let m = t.familyMember { s(.familyMember, m) }
        if t.isMemberPurchase { v(.memberPurchase, 1) }
        if let c = t.commitment {
            w.varint(Tag.commitment.rawValue << 3 | bytesWire)
            w.block { b in
                b.varint(UInt64(c.billingPeriodNumber))
                b.varint(UInt64(c.totalBillingPeriods))
                b.svarint(c.expiresDate.milliseconds)
                b.svarint(c.price.milliunits)
            }
        }
    }

    /// One hosted download: identifier, version, state code, bytes done and total, and the
    /// error of a failed one.
    static func encodeDownload(_ d: Download, into inner: inout ByteWriter) {
        inner.string(d.contentIdentifier)
        inner.string(d.contentVersion)
        inner.varint(UInt64(d.state.rawCode))
        inner.svarint(d.downloadedBytes)
        inner.svarint(d.contentLength)
        if let e = d.error {
            inner.u8(1)
            inner.string(e.domain)
            inner.svarint(Int64(e.code))
            inner.string(e.name)
            inner.string(e.message)
        } else {
            inner.u8(0)
        }
    }

    static func decodeDownload(from inner: inout ByteReader) -> Download? {
        guard let cid = inner.string(), let version = inner.string(), let stateRaw = inner.varint(),
            let done = inner.svarint(), let length = inner.svarint(), let hasError = inner.u8(),
            let state = DownloadState.code(stateRaw)
        else { return nil }
        var error: TransactionError?
        if hasError == 1 {
            guard let d = inner.string(), let c = inner.svarint(), let nm = inner.string(), let m = inner.string()
            else { return nil }
            error = TransactionError(domain: d, code: Int(truncatingIfNeeded: c), name: nm, message: m)
        } else if hasError != 0 {
            return nil
        }
        return Download(
            contentIdentifier: cid, contentVersion: version, phase: DownloadPhase(state, error: error), downloadedBytes: done,
            contentLength: length)
    }

    static func productTypeCode(_ type: ProductType) -> Int {
        switch type {
        case .consumable: return 0
        case .nonConsumable: return 1
        case .autoRenewable: return 2
        case .nonRenewing: return 3
        }
    }

    /// A record's id and whether it is in the payment queue (neither finished nor deleted),
    /// read without decoding the rest: what loading needs of each transaction the journal's tail
    /// changed (`CommitRecord.foldQueue`). Nil when the record's framing is malformed or it has
    /// no id; the full `decode` checks the rest when the transaction is read.
    static func queueStatus(_ bytes: UnsafeRawBufferPointer) -> (id: TransactionID, inQueue: Bool)? {
        var r = ByteReader(bytes)
        var id: UInt64?
        var finished = false
        var deleted = false
        while !r.isAtEnd {
            guard let key = r.varint() else { return nil }
            switch key & 7 {
            case varintWire:
                guard let value = r.varint() else { return nil }
                switch Tag(rawValue: key >> 3) {
                case .id: id = value
                case .finished: finished = value != 0
                case .isDeleted: deleted = value != 0
                default: break
                }
            case bytesWire:
                guard let n = r.varint(), n <= UInt64(bytes.count), r.skip(Int(n)) else { return nil }
            default: return nil
            }
        }
        guard let id else { return nil }
        return (TransactionID(id), !finished && !deleted)
    }

    /// Decodes a record payload; nil when it is not a well-formed transaction.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Transaction? {
        var r = ByteReader(bytes)
        var id: UInt64?
        var originalID: UInt64?
        var productID: String?
        var productType: ProductType?
        var quantity = 1
        var userID: String?
        var stateCode: UInt64?
        var errorDomain: String?
        var errorCode = 0
        var errorName = ""
        var errorMessage = ""
        var finished = false
        var date: Int64?
        var originalDate: Int64?
        var storefront: String?
        var price: Int64 = 0
        var currency: String?
        var charged = false
        var downloads: [Download] = []
        var expires: Int64?
        var webOrder: UInt64?
        var revocation: Int64?
        var revocationReason: Int?
        var upgraded = false
        var offer: Transaction.OfferKind?
        var reason = Transaction.Reason.purchase
        var group: String?
        var credit: Int64?
        var deleted = false
        var offerType: OfferType?
        var offerID: String?
        var offerPeriod: SubscriptionPeriod?
        var billingPlan: BillingPlanType?
        var commitment: TransactionCommitment?
        var revocationType: RevocationType?
        var revocationPercentage: Int?
        var familyMember: String?
        var memberPurchase = false
        func zigzag(_ u: UInt64) -> Int64 { Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1))) }
        while !r.isAtEnd {
            guard let key = r.varint() else { return nil }
            let wire = key & 7
            let tag = Tag(rawValue: key >> 3)
            if wire == varintWire {
                guard let value = r.varint() else { return nil }
                switch tag {
                case .id: id = value
                case .originalID: originalID = value
                case .productType:
                    switch value {
                    case 0: productType = .consumable
                    case 1: productType = .nonConsumable
                    case 2: productType = .autoRenewable
                    case 3: productType = .nonRenewing
                    default: return nil
                    }
                case .quantity: guard value <= 1000 else { return nil }; quantity = Int(value)
                case .state: stateCode = value
                case .errorCode: errorCode = Int(truncatingIfNeeded: zigzag(value))
                case .finished: finished = value != 0
                case .date: date = zigzag(value)
                case .originalDate: originalDate = zigzag(value)
                case .price: price = zigzag(value)
                case .charged: charged = value != 0
                case .expiresDate: expires = zigzag(value)
                case .webOrderLineItemID: webOrder = value
                case .revocationDate: revocation = zigzag(value)
                case .revocationReason: revocationReason = Int(truncatingIfNeeded: zigzag(value))
                case .isUpgraded: upgraded = value != 0
                case .reason: reason = value == 1 ? .renewal : .purchase
                case .upgradeCredit: credit = zigzag(value)
                case .isDeleted: deleted = value != 0
                case .memberPurchase: memberPurchase = value != 0
                case .offerType:
                    guard let type = OfferType(rawValue: Int(truncatingIfNeeded: value)) else { return nil }
                    offerType = type
                case .revocationType:
                    guard let type = RevocationType(code: value) else { return nil }
                    revocationType = type
                case .revocationPercentage:
                    guard value <= 100_000 else { return nil }
                    revocationPercentage = Int(value)
                default: break
                }
            } else if wire == bytesWire {
                if tag == .download {
                    guard let block = r.block() else { return nil }
                    var inner = ByteReader(block)
                    guard let d = decodeDownload(from: &inner) else { return nil }
                    downloads.append(d)
                    continue
                }
                if tag == .commitment {
                    guard let block = r.block() else { return nil }
                    var inner = ByteReader(block)
                    guard let number = inner.varint(), let total = inner.varint(), number <= 1000, total <= 1000,
                        let expires = inner.svarint(), let price = inner.svarint()
                    else { return nil }
                    commitment = TransactionCommitment(
                        billingPeriodNumber: Int(number), totalBillingPeriods: Int(total),
                        expiresDate: Timestamp(milliseconds: expires), price: Price(milliunits: price))
                    continue
                }
                if tag == .userIDRaw {
                    guard let block = r.block(), block.count == 32 else { return nil }
                    userID = Hex.encode(block)
                    continue
                }
                guard let text = r.string() else { return nil }
                switch tag {
                case .productID: productID = text
                case .userID: userID = text
                case .errorDomain: errorDomain = text
                case .errorName: errorName = text
                case .errorMessage: errorMessage = text
                case .storefront: storefront = text
                case .currency: currency = text
                case .offer: offer = Transaction.OfferKind(rawValue: text)
                case .subscriptionGroup: group = text
                case .offerID: offerID = text
                case .offerPeriod:
                    guard let period = SubscriptionPeriod(iso8601: text) else { return nil }
                    offerPeriod = period
                case .billingPlan:
                    guard let plan = BillingPlanType(rawValue: text) else { return nil }
                    billingPlan = plan
                case .familyMember: familyMember = text
                default: break
                }
            } else {
                return nil
            }
        }
        guard let id, let productID, let productType, let stateCode, let date, let storefront, let currency else { return nil }
        let state: TransactionState
        switch stateCode {
        case 0: state = .purchasing
        case 1: state = .purchased
        case 2:
            guard let errorDomain else { return nil }
            state = .failed(TransactionError(domain: errorDomain, code: errorCode, name: errorName, message: errorMessage))
        case 3: state = .restored
        case 4: state = .deferred
        default: return nil
        }
        var t = Transaction(
            id: TransactionID(id), originalID: TransactionID(originalID ?? id), productID: ProductID(productID),
            productType: productType, quantity: quantity, userID: userID.map(UserID.init), state: state,
            disposition: deleted ? .deleted(wasFinished: finished) : finished ? .finished : .queued,
            date: Timestamp(milliseconds: date), originalDate: Timestamp(milliseconds: originalDate ?? date),
            storefront: storefront, price: Price(milliunits: price), currency: currency, charged: charged, downloads: downloads,
            expiresDate: expires.map(Timestamp.init(milliseconds:)), webOrderLineItemID: webOrder,
            revocationDate: revocation.map(Timestamp.init(milliseconds:)), revocationReason: revocationReason,
            isUpgraded: upgraded, offer: offer, reason: reason, subscriptionGroup: group,
            upgradeCredit: credit.map(Price.init(milliunits:)), offerType: offerType,
            offerID: offerID.map(OfferID.init), offerPeriod: offerPeriod, billingPlan: billingPlan, commitment: commitment)
        t.revocationType = revocationType
        t.revocationPercentage = revocationPercentage
        t.familyMember = familyMember
        t.isMemberPurchase = memberPurchase
        return t
    }
}
