import IAPJSON

/// The JSON of one Send Consumption Information request as the store keeps it
/// (`consumptionInformation` in `iapctl show --json` and in `consumptionInformationReceived`
/// events): `version` ("v1" or "v2"), every member of the request as it was sent, in its order,
/// then `receivedDate` and `receivedTimestamp` (the store's clock when it arrived).
public enum ConsumptionInformationJSON {
    public static func write(_ info: ConsumptionInformation, into w: inout JSONWriter) {
        w.beginObject()
        w.key("version")
        w.string("v\(info.version)")
        // The body was parsed and re-serialized when received, so it parses.
        for member in (try? JSONParser.parse(Array(info.body.utf8)))?.objectValue ?? [] {
            guard member.key != "version" && member.key != "receivedDate" && member.key != "receivedTimestamp" else { continue }
            w.key(member.key)
            w.value(member.value)
        }
        w.key("receivedDate")
        w.timestamp(info.received)
        w.key("receivedTimestamp")
        w.int(info.received.milliseconds)
        w.endObject()
    }
}
