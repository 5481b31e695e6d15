import IAPJSON

/// The JSON shape of verification checks, shared by `verify` and `jws decode --root`:
/// `"checks": [{name, verdict, detail}, ...]` (the caller has opened the enclosing object).
public enum ReceiptCheckJSON {
    public static func writeChecks(_ checks: [ReceiptCheck], into w: inout JSONWriter) {
        w.key("checks")
        w.beginArray()
        for check in checks {
            w.beginObject()
            w.key("name")
            w.string(check.name)
            w.key("verdict")
            w.string(check.verdict.rawValue)
            w.key("detail")
            w.string(check.detail)
            w.endObject()
        }
        w.endArray()
    }
}
