import IAPJSON
import IAPTime

extension JSONWriter {
    /// A date as RFC 3339 text (`Timestamp.rfc3339`), written straight into the output: the
    /// same bytes as `string(t.rfc3339)` without a `String` made and scanned for escapes.
    mutating func timestamp(_ t: Timestamp) {
        unescapedString { t.appendRFC3339(to: &$0) }
    }

    mutating func optionalTimestamp(_ t: Timestamp?) {
        if let t { timestamp(t) } else { null() }
    }
}
