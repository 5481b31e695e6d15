import IAPCrypto
import IAPTime

/// A value with a binary form in the store's records (journal frames and the state checkpoint).
///
/// Every form is hand-written, field by field, so loading a store never goes through `Codable`
/// or JSON: a command loads the checkpoint and folds the journal's tail on every run. Decoding
/// never traps: it returns nil on anything malformed, and the caller reports the file damaged.
/// Enumerations are written as their raw strings or as explicit codes listed in one switch, never
/// as positions in `allCases`, so reordering cases cannot change what a stored byte means.
protocol BinaryRecord {
    func encode(into w: inout ByteWriter)
    static func decode(from r: inout ByteReader) -> Self?
}

extension ByteWriter {
    mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }
    mutating func int(_ v: Int) { svarint(Int64(v)) }
    mutating func timestamp(_ t: Timestamp) { svarint(t.milliseconds) }
    mutating func price(_ p: Price) { svarint(p.milliunits) }
    mutating func id(_ id: TransactionID) { varint(id.rawValue) }
    mutating func product(_ p: ProductID) { string(p.rawValue) }

    /// A user id: 32 raw bytes for the common 64-hex-digit SHA-256 form (`--account`), else text.
    mutating func user(_ u: UserID) {
        if u.rawValue.utf8.count == 64, let raw = Hex.decode(u.rawValue), Hex.encode(raw) == u.rawValue {
            u8(1)
            bytes.append(contentsOf: raw)
        } else {
            u8(2)
            string(u.rawValue)
        }
    }

    mutating func optional<T>(_ value: T?, _ write: (inout ByteWriter, T) -> Void) {
        if let value {
            u8(1)
            write(&self, value)
        } else {
            u8(0)
        }
    }

    mutating func record(_ value: some BinaryRecord) { value.encode(into: &self) }

    mutating func array<T: BinaryRecord>(_ values: [T]) {
        varint(UInt64(values.count))
        for v in values { v.encode(into: &self) }
    }
}

extension ByteReader {
    mutating func bool() -> Bool? {
        switch u8() {
        case 0?: return false
        case 1?: return true
        default: return nil
        }
    }

    mutating func int() -> Int? { svarint().map { Int(truncatingIfNeeded: $0) } }
    mutating func timestamp() -> Timestamp? { svarint().map(Timestamp.init(milliseconds:)) }
    mutating func price() -> Price? { svarint().map(Price.init(milliunits:)) }
    mutating func id() -> TransactionID? { varint().map(TransactionID.init) }
    mutating func product() -> ProductID? { string().map(ProductID.init) }

    mutating func user() -> UserID? {
        switch u8() {
        case 1?:
            guard index + 32 <= bytes.count else { return nil }
            let raw = Array(bytes[index..<index + 32])
            index += 32
            return UserID(Hex.encode(raw))
        case 2?: return string().map(UserID.init)
        default: return nil
        }
    }

    /// Reads a presence byte, then the value; `.some(nil)` for an absent value, nil when damaged.
    mutating func optional<T>(_ read: (inout ByteReader) -> T?) -> T?? {
        switch u8() {
        case 0?: return .some(nil)
        case 1?:
            guard let v = read(&self) else { return nil }
            return .some(v)
        default: return nil
        }
    }

    mutating func record<T: BinaryRecord>(_: T.Type = T.self) -> T? { T.decode(from: &self) }

    mutating func array<T: BinaryRecord>(_: T.Type = T.self) -> [T]? {
        guard let n = varint(), n <= UInt64(bytes.count - index) else { return nil }
        var out: [T] = []
        out.reserveCapacity(Int(n))
        for _ in 0..<n {
            guard let v = T.decode(from: &self) else { return nil }
            out.append(v)
        }
        return out
    }

    /// Raw bytes of a varint-length-prefixed block, advancing past it.
    mutating func block() -> UnsafeRawBufferPointer? {
        guard let n = varint(), n <= UInt64(bytes.count - index) else { return nil }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[index..<index + Int(n)])
        index += Int(n)
        return slice
    }
}

extension ByteWriter {
    /// Writes a varint length and then what `body` writes: in place, behind a one-byte length
    /// that is widened after when the block turns out 128 bytes or longer, rather than in an
    /// inner buffer allocated and copied for every record. Returns how many bytes the length
    /// took beyond that one (how far positions `body` saw in `bytes` moved).
    @discardableResult
    mutating func block(_ body: (inout ByteWriter) -> Void) -> Int {
        let start = beginBlock()
        body(&self)
        return endBlock(start)
    }

    /// `block` in two halves, for a caller that writes the block itself: reserves the length
    /// byte and returns where it is.
    mutating func beginBlock() -> Int {
        bytes.append(0)
        return bytes.count - 1
    }

    /// Writes the length of what follows `start` (from `beginBlock`), widening it when 128 bytes
    /// or more; returns how many bytes it took beyond the one reserved.
    @discardableResult
    mutating func endBlock(_ start: Int) -> Int {
        let n = bytes.count - start - 1
        if n < 0x80 {
            bytes[start] = UInt8(n)
            return 0
        }
        var prefix = ByteWriter(capacity: 10)
        prefix.varint(UInt64(n))
        bytes.replaceSubrange(start..<(start + 1), with: prefix.bytes)
        return prefix.bytes.count - 1
    }
}
