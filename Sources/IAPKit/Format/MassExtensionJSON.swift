import IAPJSON

/// The JSON of a completed mass renewal-date extension (`massExtensionCompleted` events).
public enum MassExtensionJSON {
    public static func write(_ m: MassExtension, into w: inout JSONWriter) {
        w.beginObject()
        w.key("requestIdentifier")
        w.string(m.requestIdentifier)
        w.key("productIdentifier")
        w.string(m.productID.rawValue)
        w.key("completeDate")
        w.timestamp(m.completeDate)
        w.key("completeTimestamp")
        w.int(m.completeDate.milliseconds)
        w.key("succeededCount")
        w.int(m.succeeded)
        w.key("failedCount")
        w.int(m.failed)
        w.endObject()
    }
}
