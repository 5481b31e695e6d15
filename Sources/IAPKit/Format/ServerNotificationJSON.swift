import IAPJSON

/// The `{"notificationType", "subtype"}` object that names an App Store Server Notification V2
/// (Apple's `notificationType` and `subtype` fields of `ResponseBodyV2DecodedPayload`), written
/// wherever an event or a command's answer says which notification it caused. One writer, so the
/// event log, `refund --json` and the page name notifications the same way.
public enum ServerNotificationJSON {
    public static func write(_ n: ServerNotification?, into w: inout JSONWriter) {
        guard let n else { return w.null() }
        w.beginObject()
        w.key("notificationType")
        w.string(n.type)
        w.key("subtype")
        w.optionalString(n.subtype)
        w.endObject()
    }

    /// `TYPE` or `TYPE/SUBTYPE`, as the text lines print it.
    public static func text(_ n: ServerNotification) -> String {
        n.subtype.map { "\(n.type)/\($0)" } ?? n.type
    }
}
