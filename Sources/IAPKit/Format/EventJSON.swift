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
        w.string(e.date.rfc3339)
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
        }
        w.endObject()
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
