import IAPTime

extension RefundRequest: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.id(transactionID)
        w.timestamp(requested)
        w.optional(reason) { $0.string($1) }
        switch status {
        case .open: w.u8(0)
        case .approved(let percent):
            w.u8(1)
            w.int(percent)
        case .declined: w.u8(2)
        case .reversed(let percent):
            w.u8(3)
            w.int(percent)
        }
        w.optional(decided) { $0.timestamp($1) }
    }

    static func decode(from r: inout ByteReader) -> RefundRequest? {
        guard let id = r.id(), let requested = r.timestamp(), let reason = r.optional({ $0.string() }) else { return nil }
        let status: Status
        switch r.u8() {
        case 0?: status = .open
        case 1?:
            guard let p = r.int() else { return nil }
            status = .approved(percent: p)
        case 2?: status = .declined
        case 3?:
            guard let p = r.int() else { return nil }
            status = .reversed(percent: p)
        default: return nil
        }
        guard let decided = r.optional({ $0.timestamp() }) else { return nil }
        return RefundRequest(transactionID: id, requested: requested, reason: reason, status: status, decided: decided)
    }
}

extension PriceIncrease: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.product(productID)
        w.string(storefront)
        w.price(price)
        w.bool(consentRequired)
        w.timestamp(date)
    }

    static func decode(from r: inout ByteReader) -> PriceIncrease? {
        guard let product = r.product(), let storefront = r.string(), let price = r.price(), let consent = r.bool(),
            let date = r.timestamp()
        else { return nil }
        return PriceIncrease(productID: product, storefront: storefront, price: price, consentRequired: consent, date: date)
    }
}

extension PriceConsent: BinaryRecord {
    func encode(into w: inout ByteWriter) {
        w.product(productID)
        w.price(price)
        w.string(currency)
        w.u8(status.code)
    }

    static func decode(from r: inout ByteReader) -> PriceConsent? {
        guard let product = r.product(), let price = r.price(), let currency = r.string(),
            let status = r.u8().flatMap(Status.init(code:))
        else { return nil }
        return PriceConsent(productID: product, price: price, currency: currency, status: status)
    }
}
