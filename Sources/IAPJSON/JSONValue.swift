/// A parsed JSON document that keeps object members in the order they were written.
///
/// IAPKit parses its own JSON (catalogs, `.storekit` files, the store's state) instead of using
/// `JSONSerialization`, so that member order survives, numbers keep their exact text (prices are
/// decimals, never doubles), and every error names the byte offset and the key path.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number's literal text, exactly as written (`"0.99"`, `"120"`, `"1e3"`).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order. Duplicate keys are rejected by the parser.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member named `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A short name of this value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [(key: String, value: JSONValue)]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The value as an integer when it is a number literal without fraction or exponent.
    public var int64Value: Int64? {
        if case .number(let text) = self { return Int64(text) }
        return nil
    }

    /// Serializes compactly (no spaces), members in their stored order.
    public func serialized() -> String {
        var writer = JSONWriter()
        writer.value(self)
        return writer.string
    }
}
