import Testing

@testable import IAPKit

@Suite("Identifiers: transaction id hashing")
struct TransactionIDHashTests {
    /// Ids are handed out in sequence; the mix must still spread them over a table's buckets as a
    /// random function would (about 1 - 1/e of 2^16 buckets filled by 2^16 keys), for any seed.
    @Test("sequential ids spread over the buckets", arguments: [0, 1, 0x5eed, -1])
    func spreads(seed: Int) {
        let buckets = 1 << 16
        var used = [Bool](repeating: false, count: buckets)
        var filled = 0
        for n in 0..<UInt64(buckets) {
            let b = TransactionID.first.rawValue + n
            let h = TransactionID(b)._rawHashValue(seed: seed) & (buckets - 1)
            if !used[h] {
                used[h] = true
                filled += 1
            }
        }
        #expect(filled > buckets * 60 / 100 && filled < buckets * 66 / 100)
    }

    @Test("equal ids hash equally, and the tables hold every id")
    func tables() {
        let ids = (0..<10_000).map { TransactionID(TransactionID.first.rawValue + UInt64($0) * 7) }
        #expect(TransactionID(42).hashValue == TransactionID(42).hashValue)
        let table = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        #expect(table.count == ids.count)
        #expect(ids.enumerated().allSatisfy { table[$1] == $0 })
        #expect(Set(ids).count == ids.count)
        #expect(table[TransactionID(1)] == nil)
    }
}
