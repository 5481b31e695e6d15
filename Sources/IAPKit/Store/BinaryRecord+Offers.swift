import IAPTime

// The binary forms of the offers state (`StoreOffers`), in state deltas and the checkpoint. Each
// record is a length-prefixed block, so a later version can append fields that this one skips.

/// When a spent nonce's signature stops being valid.
struct NonceExpiry: BinaryRecord, Equatable {
    let validUntil: Timestamp

    func encode(into w: inout ByteWriter) { w.timestamp(validUntil) }

    static func decode(from r: inout ByteReader) -> NonceExpiry? { r.timestamp().map(NonceExpiry.init) }
}

extension OfferKeyRecord: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.block { b in
            b.string(id)
            b.varint(UInt64(publicKeyX963.count))
            b.raw(publicKeyX963)
            b.string(origin.rawValue)
        }
    }

    static func decode(from r: inout ByteReader) -> OfferKeyRecord? {
        guard let block = r.block() else { return nil }
        var b = ByteReader(block)
        guard let id = b.string(), let key = b.block(), key.count == 65,
            let origin = b.string().flatMap(Origin.init(rawValue:))
        else { return nil }
        return OfferKeyRecord(id: id, publicKeyX963: Array(key), origin: origin)
    }
}

extension SubscriptionOfferState.OfferRef {
    func encode(into w: inout ByteWriter) {
        w.int(type.rawValue)
        w.optional(id) { $0.string($1.rawValue) }
        w.product(product)
        w.string(billingPlan.rawValue)
    }

    static func decode(from r: inout ByteReader) -> SubscriptionOfferState.OfferRef? {
        guard let type = r.int().flatMap(OfferType.init(rawValue:)), let id = r.optional({ $0.string().map(OfferID.init) }),
            let product = r.product(), let plan = r.string().flatMap(BillingPlanType.init(rawValue:))
        else { return nil }
        return .init(type: type, id: id, product: product, billingPlan: plan)
    }
}

extension SubscriptionOfferState: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.block { b in
            b.optional(current) { $1.encode(into: &$0) }
            b.optional(pending) { $1.encode(into: &$0) }
            b.bool(introductoryRedeemed)
            let redemptions = winBackRedemptions.sorted { $0.key < $1.key }
            b.varint(UInt64(redemptions.count))
            for (id, end) in redemptions {
                b.string(id.rawValue)
                b.timestamp(end)
            }
            b.string(billingPlan.rawValue)
            b.string(renewalBillingPlan.rawValue)
            b.optional(commitment) { w, c in
                w.timestamp(c.start)
                w.int(c.billingPeriod)
            }
        }
    }

    static func decode(from r: inout ByteReader) -> SubscriptionOfferState? {
        guard let block = r.block() else { return nil }
        var b = ByteReader(block)
        guard let current = b.optional({ OfferRef.decode(from: &$0) }), let pending = b.optional({ OfferRef.decode(from: &$0) }),
            let intro = b.bool(), let n = b.varint(), n <= UInt64(block.count)
        else { return nil }
        var redemptions: [OfferID: Timestamp] = [:]
        for _ in 0..<n {
            guard let id = b.string(), let end = b.timestamp() else { return nil }
            redemptions[OfferID(id)] = end
        }
        guard let plan = b.string().flatMap(BillingPlanType.init(rawValue:)),
            let renewalPlan = b.string().flatMap(BillingPlanType.init(rawValue:)),
            let commitment = b.optional({ r -> Commitment? in
                guard let start = r.timestamp(), let period = r.int() else { return nil }
                return Commitment(start: start, billingPeriod: period)
            })
        else { return nil }
        return SubscriptionOfferState(
            current: current, pending: pending, introductoryRedeemed: intro, winBackRedemptions: redemptions,
            billingPlan: plan, renewalBillingPlan: renewalPlan, commitment: commitment)
    }
}

extension OfferRequest: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.block { b in
            switch offer {
            case nil: b.u8(0)
            case .promotional(let id)?:
                b.u8(1)
                b.string(id.rawValue)
            case .code(let name)?:
                b.u8(2)
                b.string(name)
            case .winBack(let id)?:
                b.u8(3)
                b.string(id.rawValue)
            }
            switch introductoryOverride {
            case nil: b.u8(0)
            case false?: b.u8(1)
            case true?: b.u8(2)
            }
            b.string(billingPlan.rawValue)
        }
    }

    static func decode(from r: inout ByteReader) -> OfferRequest? {
        guard let block = r.block() else { return nil }
        var b = ByteReader(block)
        var offer: Offer?
        switch b.u8() {
        case 0?: offer = nil
        case 1?:
            guard let id = b.string() else { return nil }
            offer = .promotional(OfferID(id))
        case 2?:
            guard let name = b.string() else { return nil }
            offer = .code(referenceName: name)
        case 3?:
            guard let id = b.string() else { return nil }
            offer = .winBack(OfferID(id))
        default: return nil
        }
        let override: Bool?
        switch b.u8() {
        case 0?: override = nil
        case 1?: override = false
        case 2?: override = true
        default: return nil
        }
        guard let plan = b.string().flatMap(BillingPlanType.init(rawValue:)) else { return nil }
        return OfferRequest(offer: offer, introductoryOverride: override, billingPlan: plan)
    }
}
