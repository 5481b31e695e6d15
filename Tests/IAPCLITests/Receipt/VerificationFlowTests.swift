import Foundation
import IAPKit
import Testing

@testable import IAPCrypto

/// `verify-receipt`, `finish --verify`, `auto-finish`, and DYFStoreKit's sample flow with a crash,
/// run as the built binary.
@Suite("Verification flows end to end")
struct VerificationFlowTests {
    @Test("verify-receipt: status 0 with Apple's shape; every value a string; dates in Etc/GMT, _ms and _pst")
    func validResponse() throws {
        let h = ReceiptCommandTests.populated()
        let r = h.run(["verify-receipt"])
        #expect(r.code == 0)
        let json = try #require(r.json)
        #expect(json["status"]?.int64Value == 0)
        #expect(json["environment"]?.stringValue == "Sandbox")
        let receipt = try #require(json["receipt"])
        #expect(receipt["receipt_type"]?.stringValue == "ProductionSandbox")
        #expect(receipt["bundle_id"]?.stringValue == "com.x.demo")
        #expect(receipt["receipt_creation_date"]?.stringValue == "2026-07-10 00:00:03 Etc/GMT")
        #expect(receipt["receipt_creation_date_pst"]?.stringValue == "2026-07-09 17:00:03 America/Los_Angeles")
        let inApp = try #require(receipt["in_app"]?.arrayValue)
        #expect(inApp.count == 5)
        for entry in inApp {
            for (key, value) in entry.objectValue ?? [] { #expect(value.stringValue != nil, "\(key) is not a string") }
        }
        #expect(inApp[0]["product_id"]?.stringValue == "com.x.coin42")
        #expect(inApp[0]["purchase_date"]?.stringValue == "2026-01-01 00:00:01 Etc/GMT")
        #expect(inApp[0]["purchase_date_ms"]?.stringValue == "1767225601000")
        #expect(inApp[0]["quantity"]?.stringValue == "1")
        let latest = try #require(json["latest_receipt_info"]?.arrayValue)
        #expect(latest.count == 5)
        #expect(latest[0]["transaction_id"]?.stringValue == "2000000000000005")
        #expect(latest[0]["subscription_group_identifier"] != nil)
        #expect(json["latest_receipt"]?.stringValue == h.ok(["receipt"]).trimmingCharacters(in: .whitespacesAndNewlines))
        let pending = try #require(json["pending_renewal_info"]?.arrayValue)
        #expect(pending.count == 1)
        #expect(pending[0]["auto_renew_status"]?.stringValue == "1")
        #expect(pending[0]["original_transaction_id"]?.stringValue == "2000000000000003")
        let excluded = try #require(
            h.run(["verify-receipt", "--exclude-old-transactions"]).json?["latest_receipt_info"]?.arrayValue)
        #expect(excluded.map { $0["transaction_id"]?.stringValue } == ["2000000000000005"])
    }

    @Test("verify-receipt statuses: environment mismatches, shared secret, malformed, injected faults with is-retryable")
    func statuses() throws {
        let h = ReceiptCommandTests.populated()
        h.write("r.b64", h.ok(["receipt"]))
        func response(_ arguments: [String], stdin: String? = nil) -> (Int32, String) {
            let r = h.run(["verify-receipt"] + arguments, stdin: stdin)
            return (r.code, r.stdout)
        }
        #expect(response(["r.b64", "--environment", "production"]) == (1, "{\"status\":21007}\n"))
        #expect(response(["-"], stdin: "not a receipt at all") == (1, "{\"status\":21002}\n"))
        h.write("empty", "")
        #expect(response(["empty"]) == (1, "{\"status\":21002}\n"))
        h.ok(["config", "set", "shared-secret", "0123456789abcdef0123456789abcdef"])
        #expect(response(["r.b64"]) == (1, "{\"status\":21004}\n"))
        #expect(response(["r.b64", "--password", "wrong"]) == (1, "{\"status\":21004}\n"))
        #expect(response(["r.b64", "--password", "0123456789abcdef0123456789abcdef"]).0 == 0)
        h.ok(["fault", "add", "verification", "21005"])
        #expect(response(["r.b64"]) == (1, "{\"status\":21005,\"is-retryable\":true}\n"))
        h.ok(["fault", "add", "verification", "21199"])
        #expect(response(["r.b64"]) == (1, "{\"status\":21199,\"is-retryable\":false}\n"))
        h.ok(["fault", "add", "verification", "receiptServerUnavailable"])
        #expect(response(["r.b64"]) == (1, "{\"status\":21005,\"is-retryable\":true}\n"))
        // A production store's receipts go to production; sent to the sandbox they answer 21008.
        let p = CLIHarness()
        p.ok(["config", "set", "environment", "Production"])
        p.ok(["buy", "com.x.noads"])
        #expect(p.run(["verify-receipt"]).stdout == "{\"status\":21008}\n")
        let prod = try #require(p.run(["verify-receipt", "--environment", "production"]).json)
        #expect(prod["environment"]?.stringValue == "Production" && prod["status"]?.int64Value == 0)
        // Xcode receipts cannot be validated by the App Store.
        #expect(p.run(["verify-receipt", ReceiptCommandTests.xcodeReceipt]).stdout == "{\"status\":21002}\n")
        p.ok(["config", "set", "environment", "Xcode"])
        #expect(p.run(["verify-receipt"]).stdout == "{\"status\":21002}\n")
        #expect(p.run(["verify-receipt", "nope"]).code == 66)
        #expect(Array(p.eventNames().suffix(2)) == ["settingChanged", "receiptVerificationFailed"])
    }

    @Test("ReceiptVerification.respond answers a request body as serve will: 21000 for a non-JSON body")
    func respondFunction() throws {
        let h = ReceiptCommandTests.populated()
        let receipt = h.ok(["receipt"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let store = Store(path: h.store)
        let answers = try store.write { s throws(StoreError) in
            [
                ReceiptVerification.respond(requestBody: Array("GET".utf8), endpoint: .sandbox, session: s),
                ReceiptVerification.respond(requestBody: Array("{}".utf8), endpoint: .sandbox, session: s),
                ReceiptVerification.respond(
                    requestBody: Array("{\"receipt-data\":\"\(receipt)\"}".utf8), endpoint: .production, session: s),
                ReceiptVerification.respond(
                    requestBody: Array("{\"receipt-data\":\"\(receipt)\"}".utf8), endpoint: .sandbox, session: s),
            ].map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(answers[0] == "{\"status\":21000}\n")
        #expect(answers[1] == "{\"status\":21002}\n")
        #expect(answers[2] == "{\"status\":21007}\n")
        #expect(answers[3].hasPrefix("{\"receipt\":{\"receipt_type\":\"ProductionSandbox\""))
        #expect(answers[3].hasSuffix(",\"status\":0}\n"))
        // The engine serve installs answers the same from a reading session, recording nothing.
        let events = h.eventNames().count
        let request = VerifyReceiptRequest(
            receipt: Base64.decode(receipt)!, password: nil, excludeOldTransactions: false, sandbox: false)
        let served = try store.read { s throws(StoreError) in try? ReceiptVerificationEngine().verifyReceipt(request, session: s)
        }
        #expect(served.map { String(decoding: $0, as: UTF8.self) } == "{\"status\":21007}\n")
        #expect(h.eventNames().count == events)
    }

    @Test("finish --verify: verified and finished; error 200 keeps it for the next launch; another failure finishes it unpaid")
    func finishVerify() throws {
        let h = CLIHarness()
        h.ok(["buy", "com.x.coin42"])
        #expect(
            h.ok(["finish", "--verify", "2000000000000001"]) == """
                verified  2000000000000001  com.x.coin42  (the receipt holds the product)
                finished  2000000000000001  com.x.coin42  (purchased)

                """)
        h.ok(["buy", "com.x.coin210"])
        h.ok(["fault", "add", "verification", "unableToCompleteVerification"])
        let kept = h.run(["finish", "--verify", "2000000000000002"])
        #expect(kept.code == 1)
        #expect(
            kept.stdout.contains("kept      2000000000000002  com.x.coin210  in the queue: verification could not be completed"))
        #expect(h.run(["queue", "--json"]).json?.arrayValue?.count == 1)
        #expect(h.run(["launch", "--json"]).json?.arrayValue?.first?["transactionIdentifier"]?.stringValue == "2000000000000002")
        h.ok(["fault", "add", "verification", "21003"])
        let failed = h.run(["finish", "--verify", "2000000000000002", "--json"])
        #expect(failed.code == 1)
        #expect(failed.json?.arrayValue?.first?["finished"] == .bool(true))
        let ledger = try #require(h.run(["ledger", "--json"]).json)
        #expect("\(ledger)".contains("com.x.coin42") && !"\(ledger)".contains("com.x.coin210"))
        #expect(h.eventNames().contains("transactionVerificationFailed"))
        h.expectRefused(
            ["finish", "--verify", "2000000000000002"], code: 4,
            "cannot finish transaction 2000000000000002: it is already finished (see 'iapctl queue' for unfinished ones)")
    }

    @Test("auto-finish: every purchase is verified, its downloads copied, finished and counted")
    func autoFinish() throws {
        let h = CLIHarness()
        h.ok(["config", "set", "auto-finish", "true"])
        let out = h.ok(["buy", "com.x.levelpack"])
        #expect(out.contains("auto-finish: verified  2000000000000001  com.x.levelpack"))
        #expect(out.contains("auto-finish: download levels of 2000000000000001 finished"))
        #expect(out.hasSuffix("auto-finish: finished  2000000000000001  com.x.levelpack  (purchased)\n"))
        #expect(FileManager.default.fileExists(atPath: h.store + "/content/2000000000000001/levels/level01.txt"))
        #expect(h.run(["queue", "--json"]).stdout == "[]\n")
        // Unable to complete: kept; the next launch runs the pipeline again and finishes it.
        h.ok(["fault", "add", "verification", "200"])
        #expect(h.run(["buy", "com.x.coin42"]).code == 1)
        #expect(h.run(["queue", "--json"]).json?.arrayValue?.count == 1)
        #expect(h.ok(["launch"]).contains("auto-finish: finished  2000000000000002  com.x.coin42  (purchased)"))
        #expect(h.run(["queue", "--json"]).stdout == "[]\n")
        let names = h.eventNames()
        #expect(names.filter { $0 == "receiptVerified" }.count == 2)
        #expect(names.filter { $0 == "transactionFinished" }.count == 2)
    }

    /// DYFStoreKit's sample (README "Persisting transactions"): buy, keep the transaction with its
    /// receipt, verify the receipt (remotely, DYFStoreReceiptVerifier), finish, remove the kept
    /// copy. The app crashes before the finish; at the next launch StoreKit redelivers the
    /// transaction, the kept receipt is verified again, and the finish completes.
    @Test("DYFStoreKit's sample flow with a crash before the finish, recovered by launch")
    func dyfStoreKitFlow() throws {
        let h = CLIHarness("iapctl-dyf")
        let bought = try #require(h.run(["buy", "com.x.coin210", "--account", "Handsome Jon", "--json"]).json)
        let id = try #require(bought["transactionIdentifier"]?.stringValue)
        #expect(
            bought["userIdentifier"]?.stringValue
                == h.ok(["sha256", "Handsome Jon"]).trimmingCharacters(in: .whitespacesAndNewlines))
        // storeReceipt: the app keeps the receipt (transactionReceipt, base64) next to the transaction.
        let kept = h.ok(["receipt"])
        h.write("kept.b64", kept)
        // verifyReceipt: the server answers status 0 and the receipt holds the transaction.
        let verified = try #require(h.run(["verify-receipt", "kept.b64"]).json)
        #expect(verified["status"]?.int64Value == 0)
        #expect(verified["receipt"]?["in_app"]?.arrayValue?.contains { $0["transaction_id"]?.stringValue == id } == true)
        // The app dies while finishing (the first durability step of the finish).
        let crashed = h.run(["finish", "--verify", id], environment: ["IAPCTL_CRASH_AT_STEP": "1"])
        #expect(crashed.code == 137)
        #expect(h.run(["queue", "--json"]).json?.arrayValue?.first?["transactionIdentifier"]?.stringValue == id)
        // Next launch: redelivered; the kept receipt still verifies; the finish completes.
        let launched = try #require(h.run(["launch", "--json"]).json?.arrayValue)
        #expect(launched.map { $0["transactionIdentifier"]?.stringValue } == [id])
        #expect(h.run(["verify-receipt", "kept.b64"]).json?["status"]?.int64Value == 0)
        #expect(h.ok(["finish", "--verify", id]).contains("finished  \(id)  com.x.coin210  (purchased)"))
        #expect(h.run(["queue", "--json"]).stdout == "[]\n")
        #expect(h.run(["doctor"]).code == 0)
        // Finished consumables leave the receipt.
        #expect(h.run(["receipt", "--json"]).json?["inApp"]?.arrayValue?.isEmpty == true)
    }
}
