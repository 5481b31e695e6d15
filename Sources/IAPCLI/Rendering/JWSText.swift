import IAPCrypto
import IAPJSON
import IAPKit
import IAPTime

/// A decoded JWS for people: the header with each `x5c` certificate named by its subject, then
/// the payload one member a line, nested objects indented, and dates (`...Date` members holding
/// milliseconds) followed by their RFC 3339 form.
enum JWSText {
    static func lines(_ jws: CompactJWS) -> [String] {
        var out = ["header"]
        for member in jws.header.objectValue ?? [] {
            if member.key == "x5c", let items = member.value.arrayValue {
                let names = items.map { item -> String in
                    guard let text = item.stringValue, let der = Base64.decode(text), let cert = try? Certificate(der: der) else {
                        return "(not a certificate)"
                    }
                    return "'\(cert.subject.commonName ?? "\(cert.subject)")'"
                }
                out.append("  x5c: " + (names.isEmpty ? "none" : names.joined(separator: ", ")))
            } else {
                out.append("  \(member.key): \(scalar(member.value))")
            }
        }
        out.append("payload")
        members(jws.payload, indent: "  ", into: &out)
        return out
    }

    private static func members(_ value: JSONValue, indent: String, into out: inout [String]) {
        for member in value.objectValue ?? [] {
            if member.value.objectValue != nil {
                out.append("\(indent)\(member.key):")
                members(member.value, indent: indent + "  ", into: &out)
            } else if member.key.hasSuffix("Date"), case .number(let text) = member.value,
                let ms = Int64(text.prefix { $0 != "." })
            {
                out.append("\(indent)\(member.key): \(text) (\(Timestamp(milliseconds: ms)))")
            } else {
                out.append("\(indent)\(member.key): \(scalar(member.value))")
            }
        }
    }

    private static func scalar(_ value: JSONValue) -> String {
        if let s = value.stringValue { return s }
        return value.serialized()
    }
}
