/// The header fields of a request or response, in the order they were received or added.
///
/// Field names compare case-insensitively (RFC 9110 section 5.1), values keep their bytes.
/// Order is kept so that a response serializes to the same bytes every time.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    /// One `name: value` field line.
    public struct Field: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field] = []

    public init() {}

    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of the field `name`, compared case-insensitively; nil when absent.
    public subscript(name: String) -> String? {
        fields.first { HTTPHeaders.same($0.name, name) }?.value
    }

    /// Every value of the field `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { HTTPHeaders.same($0.name, name) }.map(\.value)
    }

    /// Every comma-separated element of every `name` field, trimmed, empty elements dropped
    /// (the list syntax of RFC 9110 section 5.6.1).
    public func listElements(_ name: String) -> [String] {
        var out: [String] = []
        for value in values(name) {
            for part in value.split(separator: ",", omittingEmptySubsequences: true) {
                let trimmed = HTTPHeaders.trimmed(part)
                if !trimmed.isEmpty { out.append(trimmed) }
            }
        }
        return out
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any earlier one of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field called `name` with one, at the place of the first (or at the end).
    public mutating func set(_ name: String, _ value: String) {
        if let i = fields.firstIndex(where: { HTTPHeaders.same($0.name, name) }) {
            fields[i] = Field(name: name, value: value)
            var j = fields.count - 1
            while j > i {
                if HTTPHeaders.same(fields[j].name, name) { fields.remove(at: j) }
                j -= 1
            }
        } else {
            add(name, value)
        }
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { HTTPHeaders.same($0.name, name) }
    }

    /// ASCII case-insensitive equality: header names are tokens, so this is exact.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = a.utf8
        let y = b.utf8
        guard x.count == y.count else { return false }
        for (p, q) in zip(x, y) where p != q {
            guard HTTPHeaders.lower(p) == HTTPHeaders.lower(q) else { return false }
        }
        return true
    }

    @inline(__always)
    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    static func trimmed(_ s: Substring) -> String {
        var u = s.utf8[...]
        while let f = u.first, f == 0x20 || f == 0x09 { u = u.dropFirst() }
        while let l = u.last, l == 0x20 || l == 0x09 { u = u.dropLast() }
        return String(decoding: u, as: UTF8.self)
    }
}
