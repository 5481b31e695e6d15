import IAPTime

/// The working state as a list of changes (docs/store.md, "State deltas").
///
/// `encode(from: old, to: new)` writes only what differs: changed scalars (counters and the
/// clock as differences), the settings when any changed, and per-key upserts and removals of the
/// maps (ownership, ledger, subscriptions, groups, non-renewing entitlements). A commit frame
/// carries one such delta, so a purchase costs a few bytes of state however large the maps are.
/// `encode(from: nil, to: state)` writes every field against `StateDeltaCodec.base`: that is the
/// checkpoint's body, and folding a store's whole journal from `base` gives its state.
///
/// The payment queue is not in a delta: it is the unfinished transactions, so it follows from
/// the latest transaction versions each frame lists (`CommitRecord.finals`). The checkpoint
/// lists the queue's ids; their transactions are read through the index.
///
/// Layout: `[field tag varint][value]...[0]`. Tags are numbered below, once; an unknown tag is a
/// newer format, and decoding refuses it.
enum StateDeltaCodec {
    private enum Field: UInt64 {
        case end = 0
        case bundleID, appVersion, originalAppVersion, clock, nextTransactionID, nextEventSeq, nextWebOrderLineItemID
        case settings, ownershipUpsert, ownershipRemove, faults, nextFaultID, storedPayments, interruptedPurchases
        case ledgerUpsert, ledgerRemove, contentDownloads, postponedFinishes, signingSHA256
        case subscriptionUpsert, subscriptionRemove, groupUpsert, groupRemove, nonRenewingUpsert, nonRenewingRemove
        // MARK: - Offers (150-199)
        case offerKeyUpsert = 150, offerKeyRemove = 151, spentNonceUpsert = 152, spentNonceRemove = 153
        case subscriptionOffersUpsert = 154, subscriptionOffersRemove = 155, offerRequestUpsert = 156
        case offerRequestRemove = 157
        // Issue 13 (the App Store Server API) numbers its fields from 100.
        case serverAPIRecordUpsert = 100, serverAPIRecordRemove, massExtensions, sendAttempts, retention
        // Issue 15, life-a (200-224): whole values, they stay small.
        case refundRequests = 200, priceIncreases = 201, priceConsents = 202
        // Issue 15 (life-b) numbers its fields from 225.
        case family = 225
    }

    /// The state every store's journal folds from: empty strings, counters and clock at zero,
    /// default settings. Frozen: changing it would change what old deltas mean, so a checkpoint
    /// writes every field rather than rely on it.
    static var base: StoreState {
        var s = StoreState(bundleID: "", appVersion: "", start: Timestamp(milliseconds: 0))
        s.nextTransactionID = TransactionID(0)
        s.nextEventSeq = 0
        s.nextWebOrderLineItemID = 0
        return s
    }

    static func encode(from old: StoreState?, to new: StoreState, into w: inout ByteWriter) {
        // Borrowed, not copied: `old ?? base` made a copy of the whole state (a retain and a
        // release of every field) for every commit.
        if let old {
            encode(changesFrom: old, to: new, into: &w)
        } else {
            encode(changesFrom: base, full: true, to: new, into: &w)
        }
    }

    /// The changes from `o` to `new`, or with `full` every field of `new` (`o` then being `base`).
    static func encode(changesFrom o: StoreState, full: Bool = false, to new: StoreState, into w: inout ByteWriter) {
        func tag(_ f: Field) { w.varint(f.rawValue) }
        if full || o.bundleID != new.bundleID {
            tag(.bundleID)
            w.string(new.bundleID)
        }
        if full || o.appVersion != new.appVersion {
            tag(.appVersion)
            w.string(new.appVersion)
        }
        if full || o.originalAppVersion != new.originalAppVersion {
            tag(.originalAppVersion)
            w.string(new.originalAppVersion)
        }
        if full || o.clock != new.clock {
            tag(.clock)
            w.svarint(new.clock.milliseconds &- o.clock.milliseconds)
        }
        if full || o.nextTransactionID != new.nextTransactionID {
            tag(.nextTransactionID)
            w.svarint(Int64(bitPattern: new.nextTransactionID.rawValue &- o.nextTransactionID.rawValue))
        }
        if full || o.nextEventSeq != new.nextEventSeq {
            tag(.nextEventSeq)
            w.svarint(Int64(bitPattern: new.nextEventSeq &- o.nextEventSeq))
        }
        if full || o.nextWebOrderLineItemID != new.nextWebOrderLineItemID {
            tag(.nextWebOrderLineItemID)
            w.svarint(Int64(bitPattern: new.nextWebOrderLineItemID &- o.nextWebOrderLineItemID))
        }
        if full || o.settings != new.settings {
            tag(.settings)
            w.record(new.settings)
        }
        map(o.ownership, new.ownership, full, upsert: .ownershipUpsert, remove: .ownershipRemove, into: &w) { $0.product($1) }
        if full || o.faults != new.faults {
            tag(.faults)
            w.array(new.faults)
        }
        if full || o.nextFaultID != new.nextFaultID {
            tag(.nextFaultID)
            w.int(new.nextFaultID)
        }
        if full || o.storedPayments != new.storedPayments {
            tag(.storedPayments)
            w.array(new.storedPayments)
        }
        if full || o.interruptedPurchases != new.interruptedPurchases {
            tag(.interruptedPurchases)
            w.array(new.interruptedPurchases)
        }
        map(o.ledger, new.ledger, full, upsert: .ledgerUpsert, remove: .ledgerRemove, into: &w) { $0.product($1) }
        if full || o.contentDownloads != new.contentDownloads {
            tag(.contentDownloads)
            w.array(new.contentDownloads)
        }
        if full || o.postponedFinishes != new.postponedFinishes {
            tag(.postponedFinishes)
            w.varint(UInt64(new.postponedFinishes.count))
            for id in new.postponedFinishes { w.id(id) }
        }
        if full || o.signingSHA256 != new.signingSHA256 {
            tag(.signingSHA256)
            w.optional(new.signingSHA256) { $0.string($1) }
        }
        map(
            o.subscriptions, new.subscriptions, full, upsert: .subscriptionUpsert, remove: .subscriptionRemove, into: &w
        ) { $0.id($1) }
        if full || o.subscriptionGroups != new.subscriptionGroups {
            for (k, v) in new.subscriptionGroups.sorted(by: { $0.key < $1.key }) where full || o.subscriptionGroups[k] != v {
                tag(.groupUpsert)
                w.string(k)
                w.id(v)
            }
            for k in o.subscriptionGroups.keys.sorted() where new.subscriptionGroups[k] == nil {
                tag(.groupRemove)
                w.string(k)
            }
        }
        map(o.nonRenewing, new.nonRenewing, full, upsert: .nonRenewingUpsert, remove: .nonRenewingRemove, into: &w) {
            $0.product($1)
        }
        if full || o.offerState != new.offerState {
            let a = o.offers
            let b = new.offers
            map(a.keys, b.keys, full, upsert: .offerKeyUpsert, remove: .offerKeyRemove, into: &w) { $0.string($1) }
            map(
                a.spentNonces.mapValues(NonceExpiry.init), b.spentNonces.mapValues(NonceExpiry.init), full,
                upsert: .spentNonceUpsert, remove: .spentNonceRemove, into: &w
            ) { $0.string($1) }
            map(
                a.subscriptions, b.subscriptions, full, upsert: .subscriptionOffersUpsert, remove: .subscriptionOffersRemove,
                into: &w
            ) { $0.id($1) }
            map(a.requests, b.requests, full, upsert: .offerRequestUpsert, remove: .offerRequestRemove, into: &w) { $0.id($1) }
        }
        map(
            o.serverAPIRecords ?? [:], new.serverAPIRecords ?? [:], full, upsert: .serverAPIRecordUpsert,
            remove: .serverAPIRecordRemove, into: &w
        ) { $0.id($1) }
        if full || o.massExtensions != new.massExtensions {
            tag(.massExtensions)
            let all = new.massExtensions ?? []
            w.varint(UInt64(all.count))
            for m in all { w.record(m) }
        }
        if full || o.retention != new.retention {
            tag(.retention)
            w.optional(new.retention) { $0.record($1) }
        }
        if full || o.refundRequests != new.refundRequests {
            tag(.refundRequests)
            let all = new.refundRequests ?? [:]
            w.varint(UInt64(all.count))
            for id in all.keys.sorted() { w.record(all[id]!) }
        }
        if full || o.priceIncreases != new.priceIncreases {
            tag(.priceIncreases)
            w.array(new.priceIncreases ?? [])
        }
        if full || o.priceConsents != new.priceConsents {
            tag(.priceConsents)
            let all = new.priceConsents ?? [:]
            w.varint(UInt64(all.count))
            for id in all.keys.sorted() {
                w.id(id)
                w.record(all[id]!)
            }
        }
        if full || o.family != new.family {
            // The whole family: a few members and shares.
            tag(.family)
            w.optional(new.family) { $0.record($1) }
        }
        if full || o.sendAttempts != new.sendAttempts {
            // The whole map: it changes one attempt at a time and stays small.
            tag(.sendAttempts)
            let all = new.sendAttempts ?? [:]
            w.varint(UInt64(all.count))
            for seq in all.keys.sorted() {
                w.varint(seq)
                w.varint(UInt64(all[seq]!.count))
                for a in all[seq]! {
                    w.timestamp(a.date)
                    w.string(a.result)
                }
            }
        }
        tag(.end)
    }

    /// Per-key changes of a map, in key order (so equal histories give equal bytes).
    private static func map<K: Hashable & Comparable, V: BinaryRecord & Equatable>(
        _ old: [K: V], _ new: [K: V], _ full: Bool, upsert: Field, remove: Field, into w: inout ByteWriter,
        key: (inout ByteWriter, K) -> Void
    ) {
        guard full || old != new else { return }
        // One lookup per key: the changed values are kept with their keys, and old keys are
        // looked for in `new` only when some of them were not met there.
        var changed: [(key: K, value: V)] = []
        var kept = 0
        for (k, v) in new {
            if full {
                changed.append((k, v))
            } else if let was = old[k] {
                kept += 1
                if was != v { changed.append((k, v)) }
            } else {
                changed.append((k, v))
            }
        }
        if changed.count > 1 { changed.sort { $0.key < $1.key } }
        for (k, v) in changed {
            w.varint(upsert.rawValue)
            key(&w, k)
            w.record(v)
        }
        guard kept < old.count else { return }
        var removed: [K] = []
        for k in old.keys where new[k] == nil { removed.append(k) }
        for k in removed.sorted() {
            w.varint(remove.rawValue)
            key(&w, k)
        }
    }

    /// Applies a delta to `state`; false when the bytes are malformed or from a newer format.
    static func apply(from r: inout ByteReader, to s: inout StoreState) -> Bool {
        while true {
            guard let raw = r.varint(), let field = Field(rawValue: raw) else { return false }
            switch field {
            case .end: return true
            case .bundleID:
                guard let v = r.string() else { return false }
                s.bundleID = v
            case .appVersion:
                guard let v = r.string() else { return false }
                s.appVersion = v
            case .originalAppVersion:
                guard let v = r.string() else { return false }
                s.originalAppVersion = v
            case .clock:
                guard let d = r.svarint() else { return false }
                s.clock = Timestamp(milliseconds: s.clock.milliseconds &+ d)
            case .nextTransactionID:
                guard let d = r.svarint() else { return false }
                s.nextTransactionID = TransactionID(s.nextTransactionID.rawValue &+ UInt64(bitPattern: d))
            case .nextEventSeq:
                guard let d = r.svarint() else { return false }
                s.nextEventSeq = s.nextEventSeq &+ UInt64(bitPattern: d)
            case .nextWebOrderLineItemID:
                guard let d = r.svarint() else { return false }
                s.nextWebOrderLineItemID = s.nextWebOrderLineItemID &+ UInt64(bitPattern: d)
            case .settings:
                guard let v = r.record(Settings.self) else { return false }
                s.settings = v
            case .ownershipUpsert:
                guard let k = r.product(), let v = r.record(StoreState.Ownership.self) else { return false }
                s.ownership[k] = v
            case .ownershipRemove:
                guard let k = r.product() else { return false }
                s.ownership[k] = nil
            case .faults:
                guard let v = r.array(Fault.self) else { return false }
                s.faults = v
            case .nextFaultID:
                guard let v = r.int() else { return false }
                s.nextFaultID = v
            case .storedPayments:
                guard let v = r.array(StoredPayment.self) else { return false }
                s.storedPayments = v
            case .interruptedPurchases:
                guard let v = r.array(InterruptedPurchase.self) else { return false }
                s.interruptedPurchases = v
            case .ledgerUpsert:
                guard let k = r.product(), let v = r.record(LedgerEntry.self) else { return false }
                s.ledger[k] = v
            case .ledgerRemove:
                guard let k = r.product() else { return false }
                s.ledger[k] = nil
            case .contentDownloads:
                guard let v = r.array(ContentDownload.self) else { return false }
                s.contentDownloads = v
            case .postponedFinishes:
                guard let n = r.varint(), n <= UInt64(r.bytes.count - r.index) else { return false }
                var ids: [TransactionID] = []
                for _ in 0..<n {
                    guard let id = r.id() else { return false }
                    ids.append(id)
                }
                s.postponedFinishes = ids
            case .signingSHA256:
                guard let v = r.optional({ $0.string() }) else { return false }
                s.signingSHA256 = v
            case .subscriptionUpsert:
                guard let k = r.id(), let v = r.record(Subscription.self) else { return false }
                s.subscriptions[k] = v
            case .subscriptionRemove:
                guard let k = r.id() else { return false }
                s.subscriptions[k] = nil
            case .groupUpsert:
                guard let k = r.string(), let v = r.id() else { return false }
                s.subscriptionGroups[k] = v
            case .groupRemove:
                guard let k = r.string() else { return false }
                s.subscriptionGroups[k] = nil
            case .nonRenewingUpsert:
                guard let k = r.product(), let v = r.record(NonRenewingEntitlement.self) else { return false }
                s.nonRenewing[k] = v
            case .nonRenewingRemove:
                guard let k = r.product() else { return false }
                s.nonRenewing[k] = nil
            case .offerKeyUpsert:
                guard let k = r.string(), let v = r.record(OfferKeyRecord.self) else { return false }
                s.offers.keys[k] = v
            case .offerKeyRemove:
                guard let k = r.string() else { return false }
                s.offers.keys[k] = nil
            case .spentNonceUpsert:
                guard let k = r.string(), let v = r.record(NonceExpiry.self) else { return false }
                s.offers.spentNonces[k] = v.validUntil
            case .spentNonceRemove:
                guard let k = r.string() else { return false }
                s.offers.spentNonces[k] = nil
            case .subscriptionOffersUpsert:
                guard let k = r.id(), let v = r.record(SubscriptionOfferState.self) else { return false }
                s.offers.subscriptions[k] = v
            case .subscriptionOffersRemove:
                guard let k = r.id() else { return false }
                s.offers.subscriptions[k] = nil
            case .offerRequestUpsert:
                guard let k = r.id(), let v = r.record(OfferRequest.self) else { return false }
                s.offers.requests[k] = v
            case .offerRequestRemove:
                guard let k = r.id() else { return false }
                s.offers.requests[k] = nil
            case .serverAPIRecordUpsert:
                guard let k = r.id(), let v = r.record(ServerAPIRecord.self) else { return false }
                s.setServerAPIRecord(v, for: k)
            case .serverAPIRecordRemove:
                guard let k = r.id() else { return false }
                s.setServerAPIRecord(nil, for: k)
            case .massExtensions:
                guard let n = r.varint(), n <= UInt64(r.bytes.count - r.index) else { return false }
                var all: [MassExtension] = []
                for _ in 0..<n {
                    guard let m = r.record(MassExtension.self) else { return false }
                    all.append(m)
                }
                s.massExtensions = all.isEmpty ? nil : all
            case .retention:
                guard let v = r.optional({ $0.record(RetentionMessaging.self) }) else { return false }
                s.retention = v
            case .refundRequests:
                guard let list = r.array(RefundRequest.self) else { return false }
                var all: [TransactionID: RefundRequest] = [:]
                for q in list { all[q.transactionID] = q }
                s.refundRequests = all.isEmpty ? nil : all
            case .priceIncreases:
                guard let list = r.array(PriceIncrease.self) else { return false }
                s.priceIncreases = list.isEmpty ? nil : list
            case .priceConsents:
                guard let n = r.varint(), n <= UInt64(r.bytes.count - r.index) else { return false }
                var all: [TransactionID: PriceConsent] = [:]
                for _ in 0..<n {
                    guard let id = r.id(), let c = r.record(PriceConsent.self) else { return false }
                    all[id] = c
                }
                s.priceConsents = all.isEmpty ? nil : all
            case .family:
                guard let v = r.optional({ $0.record(Family.self) }) else { return false }
                s.family = v
            case .sendAttempts:
                guard let n = r.varint(), n <= UInt64(r.bytes.count - r.index) else { return false }
                var all: [UInt64: [SendAttempt]] = [:]
                for _ in 0..<n {
                    guard let seq = r.varint(), let m = r.varint(), m <= UInt64(r.bytes.count - r.index) else { return false }
                    var list: [SendAttempt] = []
                    for _ in 0..<m {
                        guard let date = r.timestamp(), let result = r.string() else { return false }
                        list.append(SendAttempt(date: date, result: result))
                    }
                    all[seq] = list
                }
                s.sendAttempts = all.isEmpty ? nil : all
            }
        }
    }
}
