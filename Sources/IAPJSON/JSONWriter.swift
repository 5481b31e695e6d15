/// A fast JSON writer into a byte buffer, with keys in the order the caller writes them.
///
/// Every JSON document IAPKit prints goes through this writer: members appear in declared order
/// (never dictionary order), so the same state always gives the same bytes, and `dump` can render
/// hundreds of thousands of transactions without Foundation's encoders.
public struct JSONWriter {
    public var bytes: [UInt8] = []
    /// One entry per open container: true until its first member or element is written.
    private var isFirst: [Bool] = []
    /// True right after a key, whose value must not be preceded by a comma.
    private var afterKey = false

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
        isFirst.reserveCapacity(8)
    }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        isFirst.removeAll(keepingCapacity: true)
        afterKey = false
    }

    @inline(__always)
    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        separate()
    }

    @inline(__always)
    private mutating func separate() {
        let last = isFirst.count - 1
        guard last >= 0 else { return }
        if isFirst[last] { isFirst[last] = false } else { bytes.append(UInt8(ascii: ",")) }
    }

    public mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        isFirst.append(true)
    }

    public mutating func endObject() {
        isFirst.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        isFirst.append(true)
    }

    public mutating func endArray() {
        isFirst.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `"key":`; the value written next belongs to it.
    @inline(__always)
    public mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a key that is only known at run time (a setting name, a locale).
    public mutating func key(_ key: String) {
        separate()
        appendEscaped(key)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    public mutating func string(_ value: String) {
        beforeValue()
        appendEscaped(value)
    }

    /// Writes a string whose bytes `append` adds, which the caller promises need no escaping
    /// (printable ASCII without a quote or a backslash: a date, a number it formatted itself).
    public mutating func unescapedString(_ append: (inout [UInt8]) -> Void) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        append(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func int(_ value: Int64) {
        beforeValue()
        appendDecimal(value)
    }

    public mutating func int(_ value: Int) { int(Int64(value)) }

    public mutating func uint(_ value: UInt64) {
        beforeValue()
        appendDecimal(value)
    }

    /// Writes an unsigned integer as a decimal string (`"2000000000000001"`), as transaction ids are.
    public mutating func decimalString(_ value: UInt64) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        appendDecimal(value)
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func bool(_ value: Bool) {
        beforeValue()
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
    }

    public mutating func null() {
        beforeValue()
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    /// Writes a number literal given as text (a decimal price kept exact).
    public mutating func numberLiteral(_ text: String) {
        beforeValue()
        bytes.append(contentsOf: text.utf8)
    }

    /// Splices an already serialized JSON value.
    public mutating func raw(_ json: [UInt8]) {
        beforeValue()
        bytes.append(contentsOf: json)
    }

    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): numberLiteral(n)
        case .string(let s): string(s)
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    @inline(__always)
    private mutating func appendDecimal(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { raw in
            while v > 0 {
                raw[count] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                v /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(raw[i]) }
        }
    }

    @inline(__always)
    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDecimal(value.magnitude)
        } else {
            appendDecimal(UInt64(value))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendEscaped(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            let n = utf8.count
            var runStart = 0
            var i = JSONWriter.nextEscape(utf8, from: 0)
            while i < n {
                let byte = utf8[i]
                if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                runStart = i + 1
                switch byte {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
                case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
                default:
                    bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30])
                    bytes.append(JSONWriter.hexDigits[Int(byte >> 4)])
                    bytes.append(JSONWriter.hexDigits[Int(byte & 0xF)])
                }
                i = JSONWriter.nextEscape(utf8, from: i + 1)
            }
            if runStart < n {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<n]))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The index of the first byte at or after `start` that JSON must escape (a control byte,
    /// `"` or `\`), or `utf8.count`. Eight bytes at a time: a word with none of them is skipped
    /// with a few instructions instead of three compares a byte (the signed transactions the
    /// server lists are kilobytes of base64url with nothing to escape). For a word `w`,
    /// `(w - 0x20...) & ~w & 0x80...` is nonzero exactly when some byte is below 0x20 (a
    /// borrow starts only at such a byte), and `(x - 0x01...) & ~x & 0x80...` with `x = w ^ c...`
    /// exactly when some byte equals `c`; a flagged word is then scanned byte by byte.
    package static func nextEscape(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = utf8.baseAddress else { return utf8.count }
        let n = utf8.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        var i = start
        while i + 8 <= n {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let control = (w &- ones &* 0x20) & ~w
            let q = w ^ (ones &* 0x22)
            let quote = (q &- ones) & ~q
            let b = w ^ (ones &* 0x5C)
            let backslash = (b &- ones) & ~b
            if (control | quote | backslash) & high != 0 { break }
            i += 8
        }
        while i < n {
            let c = base[i]
            if c < 0x20 || c == 0x22 || c == 0x5C { return i }
            i += 1
        }
        return n
    }
}
