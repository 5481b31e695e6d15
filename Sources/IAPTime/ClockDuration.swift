/// Fixed-length durations in the short form users type: `500ms`, `30s`, `5m`, `36h`, `90d`,
/// `2w`, or a bare `0`. Calendar durations (ISO 8601 `P1M`) are handled by the clock commands.
public enum ClockDuration {
    /// Milliseconds for a short-form duration, or nil when `text` is not one.
    public static func parseShortForm(_ text: String) -> Int64? {
        if text == "0" { return 0 }
        let units: [(String, Int64)] = [
            ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000), ("w", 604_800_000),
        ]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            guard !number.isEmpty, number.count <= 12, number.allSatisfy(\.isASCIIDigitCharacter), let n = Int64(number) else {
                continue
            }
            return n * scale
        }
        return nil
    }

    /// The shortest exact short form of a duration (`1s`, `90d`, `1500ms`).
    public static func shortForm(milliseconds ms: Int64) -> String {
        if ms == 0 { return "0" }
        for (suffix, scale) in [("w", Int64(604_800_000)), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        where ms % scale == 0 {
            return "\(ms / scale)\(suffix)"
        }
        return "\(ms)ms"
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
