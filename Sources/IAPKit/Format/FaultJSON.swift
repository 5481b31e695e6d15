import IAPJSON

/// The JSON shape of an armed fault (`iapctl fault list`, `faultAdded` and `faultFired` events).
public enum FaultJSON {
    public static func write(_ f: Fault, into w: inout JSONWriter) {
        w.beginObject()
        w.key("id")
        w.int(f.id)
        w.key("point")
        w.string(f.point.rawValue)
        w.key("productIdentifier")
        w.optionalString(f.productID?.rawValue)
        w.key("error")
        TransactionJSON.writeError(f.error, into: &w)
        w.key("remaining")
        w.int(f.remaining)
        w.endObject()
    }
}
