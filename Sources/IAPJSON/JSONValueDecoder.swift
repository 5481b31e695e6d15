/// A small `Decoder` over a parsed `JSONValue`: the store reads its state file with it.
///
/// It exists because the store decodes its state on every command, and Foundation's
/// `JSONDecoder` spends most of its time instantiating generic machinery on first use; this one
/// is lean, and reports errors with the key path.
package struct JSONValueDecoder: Decoder {
    let value: JSONValue
    package let codingPath: [any CodingKey]
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    package static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: JSONValueDecoder(value))
    }

    func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindName)"))
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch("an object") }
        var table: [String: JSONValue] = [:]
        for m in members { table[m.key] = m.value }
        return KeyedDecodingContainer(Keyed<Key>(members: table, codingPath: codingPath))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch("an array") }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        func child(_ key: Key) throws -> JSONValueDecoder {
            guard let v = members[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "missing key '\(key.stringValue)'"))
            }
            return JSONValueDecoder(v, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { members[key.stringValue].map { $0 == .null } ?? true }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: child(key)) }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let v = members[key.stringValue], v != .null else { return nil }
            return try T(from: JSONValueDecoder(v, codingPath: codingPath + [key]))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try child(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try child(key).unkeyedContainer() }

        func superDecoder() throws -> any Decoder {
            JSONValueDecoder(.object(members.map { ($0.key, $0.value) }), codingPath: codingPath)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [JSONValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        mutating func next() throws -> JSONValueDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "array ended"))
            }
            defer { currentIndex += 1 }
            return JSONValueDecoder(items[currentIndex], codingPath: codingPath)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: next()) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
            NestedKey
        > {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: JSONValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.value == .null }

        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let b) = decoder.value else { throw decoder.mismatch("a boolean") }
            return b
        }

        func decode(_ type: String.Type) throws -> String {
            guard case .string(let s) = decoder.value else { throw decoder.mismatch("a string") }
            return s
        }

        func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
            guard case .number(let text) = decoder.value, let v = I(text) else { throw decoder.mismatch("an integer") }
            return v
        }

        func decode(_ type: Double.Type) throws -> Double {
            guard case .number(let text) = decoder.value, let v = Double(text) else { throw decoder.mismatch("a number") }
            return v
        }

        func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
        func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
    }
}
