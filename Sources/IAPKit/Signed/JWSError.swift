/// Why text is not a compact JWS, in one line naming the part and the fix.
public enum JWSError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    /// The text does not have exactly three parts separated by '.'.
    case notCompact(parts: Int)
    case emptyPart(String)
    case notBase64URL(String)
    case notJSON(String, String)
    case notObject(String, String)

    public var description: String {
        switch self {
        case .empty:
            return "no JWS: the input is empty; give a compact JWS (header.payload.signature)"
        case .notCompact(let parts):
            return
                "not a compact JWS: \(parts) part\(parts == 1 ? "" : "s") separated by '.', expected 3 (header.payload.signature)"
        case .emptyPart(let part):
            return "not a compact JWS: the \(part) part is empty"
        case .notBase64URL(let part):
            return "the JWS \(part) is not base64url (RFC 7515: A-Z a-z 0-9 - _, no padding, no spaces)"
        case .notJSON(let part, let error):
            return "the JWS \(part) is not JSON: \(error)"
        case .notObject(let part, let kind):
            return "the JWS \(part) is \(kind), not a JSON object"
        }
    }
}
