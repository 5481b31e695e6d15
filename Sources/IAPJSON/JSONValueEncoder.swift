/// A small `Encoder` producing a `JSONValue`, with object keys sorted so that dictionaries encode
/// the same way every time. The store writes its state file with it (see `JSONValueDecoder`).
package final class JSONValueEncoder: Encoder {
    package let codingPath: [any CodingKey] = []
    package var userInfo: [CodingUserInfoKey: Any] { [:] }
    private let root: Node

    private init(root: Node) { self.root = root }

    /// A value under construction; containers hold references so nested containers can fill
    /// their part after being handed out.
    final class Node {
        enum Kind { case value, object, array }

        var kind = Kind.value
        var value = JSONValue.null
        /// Object members in insertion order (a repeated key replaces the earlier one when sorted).
        var members: [(String, Node)] = []
        var items: [Node] = []

        /// The finished JSON, object members sorted by key.
        var json: JSONValue {
            switch kind {
            case .value: return value
            case .object:
                var latest: [String: Node] = [:]
                for (key, node) in members { latest[key] = node }
                return .object(latest.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
            case .array: return .array(items.map(\.json))
            }
        }

        func set(_ v: JSONValue) {
            kind = .value
            value = v
        }

        func makeObject() { kind = .object }

        func makeArray() { kind = .array }

        func add(_ key: String) -> Node {
            let child = Node()
            members.append((key, child))
            return child
        }

        func append() -> Node {
            let child = Node()
            items.append(child)
            return child
        }
    }

    package static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = Node()
        try value.encode(to: JSONValueEncoder(root: root))
        return root.json
    }

    static func encode<T: Encodable>(_ value: T, into node: Node) throws {
        try value.encode(to: JSONValueEncoder(root: node))
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        root.makeObject()
        return KeyedEncodingContainer(Keyed<Key>(node: root))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        root.makeArray()
        return Unkeyed(node: root)
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: root) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { node.add(key.stringValue).set(.null) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { node.add(key.stringValue).set(.bool(value)) }
        mutating func encode(_ value: String, forKey key: Key) throws { node.add(key.stringValue).set(.string(value)) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try JSONValueEncoder.encode(value, into: node.add(key.stringValue))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = node.add(key.stringValue)
            child.makeObject()
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.add(key.stringValue)
            child.makeArray()
            return Unkeyed(node: child)
        }

        mutating func superEncoder() -> any Encoder { JSONValueEncoder(root: node.add("super")) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { JSONValueEncoder(root: node.add(key.stringValue)) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { [] }
        var count: Int { node.items.count }

        mutating func encodeNil() throws { node.append().set(.null) }
        mutating func encode(_ value: Bool) throws { node.append().set(.bool(value)) }
        mutating func encode(_ value: String) throws { node.append().set(.string(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws { try JSONValueEncoder.encode(value, into: node.append()) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey>
        {
            let child = node.append()
            child.makeObject()
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = node.append()
            child.makeArray()
            return Unkeyed(node: child)
        }

        mutating func superEncoder() -> any Encoder { JSONValueEncoder(root: node.append()) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { [] }

        func set(_ v: JSONValue) { node.set(v) }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(.number(String(value))) }
        mutating func encode(_ value: Float) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int8) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int16) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int32) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int64) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt8) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt16) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt32) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt64) throws { set(.number(String(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws { try JSONValueEncoder.encode(value, into: node) }
    }
}
