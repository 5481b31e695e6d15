/// An HMAC-SHA256 key with its padded inner and outer hash states computed once, so that many
/// messages under one key (RFC 6979's V = HMAC(K, V) loop) cost two compressions fewer each.
struct HMACSHA256Key {
    private var inner = SHA256()
    private var outer = SHA256()

    init<K: Collection>(_ key: K) where K.Element == UInt8 {
        var keyBlock = key.count > SHA256.blockByteCount ? SHA256.hash(key) : Array(key)
        keyBlock += [UInt8](repeating: 0, count: SHA256.blockByteCount - keyBlock.count)
        inner.update(keyBlock.map { $0 ^ 0x36 })
        outer.update(keyBlock.map { $0 ^ 0x5c })
    }

    /// HMAC(key, parts joined), without joining them.
    func authenticate(_ parts: [UInt8]...) -> [UInt8] {
        var innerHash = inner
        for part in parts { innerHash.update(part) }
        var outerHash = outer
        outerHash.update(innerHash.finalize())
        return outerHash.finalize()
    }
}
