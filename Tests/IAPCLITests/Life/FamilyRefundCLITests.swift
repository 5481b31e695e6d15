import Foundation
import Testing

@testable import IAPJSON

/// The family through the purchaser's `refund reverse`, `delete` and a refund of an older period,
/// with the built binary; the member's reinstated transaction judged by Apple's
/// `SignedDataVerifier` (docs/family.md, "Refunds reversed, deletions, older periods").
@Suite("Family Sharing through refunds, reversals and deletions, end to end")
struct FamilyRefundCLITests {
    @Test("refund reverse clears the member's revocation on the same transaction; delete removes the member's copy")
    func reverseAndDelete() throws {
        let h = FamilyCLITests.store()
        #expect(h.run(["family", "add", "alex"]).code == 0)
        #expect(h.run(["buy", "com.x.noads"]).code == 0)  // 2000000000000001; alex's copy 2000000000000002
        #expect(h.run(["refund", "2000000000000001"]).code == 0)
        let revoked = try #require(try FamilyCLITests.json(h.run(["dump", "--member", "alex"])).arrayValue?.first)
        #expect(revoked["revocationTimestamp"] != nil && revoked["revocationTimestamp"] != .null, "\(revoked)")

        let reverse = h.run(["refund", "reverse", "2000000000000001"])
        #expect(reverse.code == 0, "\(reverse)")
        #expect(
            reverse.stdout.hasSuffix("alex's FAMILY_SHARED transaction 2000000000000002 (com.x.noads) no longer revoked\n"),
            "\(reverse.stdout)")
        let alex = try #require(try FamilyCLITests.json(h.run(["dump", "--member", "alex"])).arrayValue)
        #expect(alex.count == 1 && alex[0]["transactionIdentifier"] == .string("2000000000000002"))
        #expect(alex[0]["revocationTimestamp"] == nil || alex[0]["revocationTimestamp"] == .null, "\(alex[0])")
        let token = h.run(["jws", "2000000000000002", "--member", "alex"]).stdout.trimmingCharacters(in: .newlines)
        let decoded = try AppleVerifier.decode([(.transaction, token)])[0]
        #expect(decoded["inAppOwnershipType"] == .string("FAMILY_SHARED") && decoded["revocationDate"] == nil, "\(decoded)")
        #expect(decoded["revocationType"] == nil && decoded["revocationReason"] == nil)
        // Only the purchaser's REFUND_REVERSED is notified.
        let types = h.run(["notifications", "--json"]).stdout.split(separator: "\n").compactMap {
            (try? JSONParser.parse(String($0)))?["notificationType"]?.stringValue
        }
        #expect(types == ["ONE_TIME_CHARGE", "REFUND", "REVOKE", "REFUND_REVERSED"], "\(types)")

        let delete = h.run(["delete", "2000000000000001", "--yes"])
        #expect(delete.code == 0, "\(delete)")
        #expect(delete.stdout.hasSuffix("alex's FAMILY_SHARED transaction 2000000000000002 (com.x.noads) deleted\n"), "\(delete)")
        #expect(try FamilyCLITests.json(h.run(["dump", "--member", "alex"])).arrayValue?.isEmpty == true)
        let list = try FamilyCLITests.json(h.run(["family", "list", "--json"]))
        #expect(list.arrayValue?.map { $0["name"]?.stringValue } == ["alex"])
        #expect(list.arrayValue?.first?["shared"]?.arrayValue?.isEmpty == true, "\(list)")
    }

    @Test("a refund of a shared subscription's older period leaves the member's current copy active")
    func olderPeriod() throws {
        let h = FamilyCLITests.store()
        #expect(h.run(["family", "add", "alex"]).code == 0)
        let sub = try FamilyCLITests.json(h.run(["buy", "com.x.vippro", "--json"]))
        let first = try #require(sub["transactionIdentifier"]?.stringValue)
        #expect(h.run(["clock", "advance", "P1M"]).code == 0)
        #expect(h.run(["refund", first]).code == 0)
        let subs = try #require(try FamilyCLITests.json(h.run(["subscriptions", "--member", "alex", "--json"])).arrayValue)
        #expect(subs.count == 1 && subs.first?["status"] == .string("active"), "\(subs)")
        let alex = try #require(try FamilyCLITests.json(h.run(["dump", "--member", "alex"])).arrayValue)
        #expect(alex.allSatisfy { $0["revocationTimestamp"] == nil || $0["revocationTimestamp"] == .null }, "\(alex)")
    }
}
