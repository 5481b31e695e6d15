import Foundation
import Testing

@testable import IAPJSON

/// Every category of Xcode's `setSimulatedError(_:forAPI:)` fires where an iapctl command
/// exercises that API: exit 1, the fault line on stdout, one error line on stderr, and the
/// command's own work not done.
@Suite("Simulated StoreKit errors, every category, end to end")
struct StoreKitErrorCLITests {
    struct Row: Sendable, CustomTestStringConvertible {
        let point: String
        let error: String
        let command: [String]
        let stderr: String
        var testDescription: String { point }
    }

    static let rows: [Row] = [
        Row(point: "products", error: "networkError", command: ["products"], stderr: "error: the products request failed"),
        Row(point: "purchase", error: "purchaseNotAllowed", command: ["buy", "com.x.noads"], stderr: ""),
        Row(point: "restore", error: "userCancelled", command: ["restore"], stderr: ""),
        Row(
            point: "subscription-status", error: "systemError", command: ["subscriptions"],
            stderr: "error: subscriptionStatus (Subscription Status) failed"),
        Row(
            point: "subscription-status", error: "networkError", command: ["jws", "renewal", "com.x.vip2"],
            stderr: "error: subscriptionStatus (Subscription Status) failed"),
        Row(
            point: "app-transaction", error: "networkError", command: ["jws", "app-transaction"],
            stderr: "error: appTransaction (App Transaction) failed"),
        Row(point: "app-transaction", error: "unknown", command: ["refresh-receipt"], stderr: ""),
        Row(
            point: "manage-subscriptions", error: "userCancelled", command: ["auto-renew", "off", "com.x.vip2"],
            stderr: "error: manageSubscriptions (Manage Subscriptions Sheet) failed"),
        Row(
            point: "refund-request", error: "notEntitled", command: ["refund", "2000000000000001"],
            stderr: "error: refundRequest (Refund Request Sheet) failed"),
        Row(point: "offer-code-redeem", error: "userCancelled", command: ["buy", "com.x.vip2", "--code-offer", "X"], stderr: ""),
    ]

    @Test("each category fails its command with exit 1 and fires once", arguments: rows)
    func fires(_ row: Row) throws {
        let h = CLIHarness()
        #expect(h.run(["init"]).code == 0)
        let buy = h.run(["buy", "com.x.vip2"])
        #expect(buy.code == 0, "\(buy)")
        let before = h.run(["dump"]).stdout
        let add = h.run(["fault", "add", row.point, row.error])
        #expect(add.code == 0, "\(add)")
        let r = h.run(row.command)
        #expect(r.code == 1, "\(r)")
        // `products` reports on stderr only (its one line names the fault).
        if row.point != "products" { #expect(r.stdout.contains("fired at \(row.point)"), "\(r)") }
        if !row.stderr.isEmpty { #expect(r.stderr.hasPrefix(row.stderr) && r.stderr.split(separator: "\n").count == 1, "\(r)") }
        #expect(h.run(["fault", "list"]).stdout == "no faults armed\n")
        let events = h.run(["events"]).stdout
        #expect(events.contains("\"name\":\"faultFired\""))
        // A sheet or status failure changes nothing else.
        if ["subscription-status", "manage-subscriptions", "refund-request"].contains(row.point) {
            #expect(h.run(["dump"]).stdout == before)
        }
        // Run again: the fault is spent, so the command works.
        if row.point != "purchase" && row.point != "offer-code-redeem" { #expect(h.run(row.command).code == 0) }
    }
}
