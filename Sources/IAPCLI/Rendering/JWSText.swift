import IAPCrypto
import IAPJSON
import IAPKit
import IAPTime

/// A decoded JWS for people: the header with each `x5c` certificate named by its subject, every
/// certificate in full (`CertificateText`), then the payload one member a line, nested objects
/// indented, and dates (`...Date` members holding milliseconds) followed by their RFC 3339 form.
enum JWSText {
    static func lines(_ jws: CompactJWS) -> [String] {
        var out = ["header"]
        let certificates = JWSCertificates(jws)
        for member in jws.header.objectValue ?? [] {
            if member.key == "x5c", member.value.arrayValue != nil {
                let names = certificates.entries.map { entry -> String in
                    guard case .success(let cert) = entry else { return "(not a certificate)" }
                    return "'\(cert.subject.commonName ?? "\(cert.subject)")'"
                }
                out.append("  x5c: " + (names.isEmpty ? "none" : names.joined(separator: ", ")))
            } else {
                out.append("  \(member.key): \(scalar(member.value))")
            }
        }
        if !certificates.entries.isEmpty {
            out.append("certificates")
            for (index, entry) in certificates.entries.enumerated() {
                switch entry {
                case .success(let cert): out += CertificateText.lines(cert, label: "x5c[\(index)]")
                case .failure(let reason): out.append("  x5c[\(index)]  (not a certificate: \(reason))")
                }
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

/// The `x5c` entries of a JWS header, each a certificate or the reason it is not one.
struct JWSCertificates {
    enum Entry {
        case success(Certificate)
        case failure(String)
    }

    let entries: [Entry]

    init(_ jws: CompactJWS) {
        let items = jws.header["x5c"]?.arrayValue ?? []
        entries = items.map { item in
            guard let text = item.stringValue else { return .failure("not a string") }
            guard let der = Base64.decode(text) else { return .failure("not standard base64") }
            do {
                return .success(try Certificate(der: der))
            } catch {
                return .failure("\(error)")
            }
        }
    }
}
