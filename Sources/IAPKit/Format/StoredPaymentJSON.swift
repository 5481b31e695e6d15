import IAPJSON

/// The JSON shape of a store-initiated payment (`iapctl stored-payments`, store payment events).
public enum StoredPaymentJSON {
    public static func write(_ p: StoredPayment, into w: inout JSONWriter) {
        w.beginObject()
        w.key("productIdentifier")
        w.string(p.productID.rawValue)
        w.key("userIdentifier")
        w.optionalString(p.userID?.rawValue)
        w.key("quantity")
        w.int(p.quantity)
        w.key("date")
        w.timestamp(p.date)
        w.key("timestamp")
        w.int(p.date.milliseconds)
        w.endObject()
    }
}
