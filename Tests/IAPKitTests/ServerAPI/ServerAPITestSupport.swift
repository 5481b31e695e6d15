import Foundation
import IAPKit

@testable import IAPHTTP
@testable import IAPJSON

/// A signer for tests only: readable stand-ins for JWS, so tests can see what was signed.
/// (The real signer is the ES256 one; a fake never ships in Sources.)
struct FakeSigner: TransactionSigner {
    var environmentName = "Sandbox"

    func environment(session: StoreSession) -> String { environmentName }

    func signedTransaction(_ transaction: Transaction, session: StoreSession) throws -> String {
        "signed.\(transaction.id).\(transaction.productID)"
    }

    func signedRenewalInfo(_ latest: Transaction, session: StoreSession) throws -> String {
        "renewal.\(latest.originalID)"
    }

    func signedAppTransaction(session: StoreSession, appAppleID: Int64?) throws -> String {
        "app.\(session.state.bundleID)"
    }

    func sign(payload: [UInt8], session: StoreSession) throws -> String { "signed.\(payload.count)" }
}

/// A receipt engine for tests: echoes what it was asked.
struct EchoReceiptVerifier: ReceiptVerifying {
    func verifyReceipt(_ request: VerifyReceiptRequest, session: StoreSession) throws -> [UInt8] {
        Array(
            "{\"status\":0,\"bytes\":\(request.receipt.count),\"sandbox\":\(request.sandbox),\"exclude\":\(request.excludeOldTransactions),\"password\":\"\(request.password ?? "")\",\"bundle\":\"\(session.state.bundleID)\"}"
                .utf8)
    }
}

/// One snapshot reader behind the `StoreReading` protocol (tests are single-threaded).
final class TestReader: StoreReading, @unchecked Sendable {
    let reader: StoreSnapshotReader

    init(_ path: String) { reader = StoreSnapshotReader(store: Store(path: path, lockTimeout: 0.2)) }

    func read<R>(_ body: (StoreSession) throws -> R) throws -> R { try reader.read(body) }
}

/// Builds App Store Server API JWTs (unsigned: 64 zero bytes stand in for the signature).
enum TestToken {
    static let now: Int64 = 1_767_225_600

    static func base64url(_ text: String) -> String { base64url(Array(text.utf8)) }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func make(
        header: String = #"{"alg":"ES256","kid":"ABC123DEFG","typ":"JWT"}"#,
        payload: String? = nil, bid: String = "com.x.demo", iat: Int64 = now - 10, exp: Int64 = now + 600,
        signature: [UInt8] = [UInt8](repeating: 0, count: 64)
    ) -> String {
        let body =
            payload
            ?? #"{"iss":"57246542-96fe-1a63-e053-0824d011072a","iat":\#(iat),"exp":\#(exp),"aud":"appstoreconnect-v1","bid":"\#(bid)"}"#
        return base64url(header) + "." + base64url(body) + "." + base64url(signature)
    }

    static func bearer(_ token: String = make()) -> String { "Bearer " + token }
}

/// A store in a temporary directory, with the API over it.
final class APIHarness {
    let directory = TemporaryDirectory("iapkit-serve")
    let store: Store
    var api: AppStoreServerAPI

    init(
        signer: (any TransactionSigner)? = FakeSigner(), receiptVerifier: (any ReceiptVerifying)? = nil,
        catalogFile: String? = nil
    ) throws {
        store = Store(path: directory.path + "/store", lockTimeout: 0.2)
        try store.create(StoreCreation(catalogFile: catalogFile), force: false)
        api = AppStoreServerAPI(
            reader: TestReader(store.path), signer: signer, receiptVerifier: receiptVerifier, now: { TestToken.now })
    }

    @discardableResult
    func apply(_ commands: [Command]) throws -> Effects {
        try store.write { s throws(StoreError) in try s.apply(batch: commands) }
    }

    func buy(_ product: String, times: Int = 1) throws -> [Transaction] {
        try apply(Array(repeating: .buy(ProductID(product), user: nil, quantity: 1), count: times)).transactions
    }

    func get(_ target: String, authorization: String? = TestToken.bearer(), method: String = "GET", body: String = "")
        -> HTTPResponse
    {
        var headers = HTTPHeaders([("Host", "127.0.0.1")])
        if let authorization { headers.add("Authorization", authorization) }
        return api.router().respond(to: HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8)))
    }

    func json(_ response: HTTPResponse) -> JSONValue? { try? JSONParser.parse(response.body) }

    static func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }
}

/// `StoreWriting` over a store directory, for the mutating endpoints.
struct TestWriter: StoreWriting {
    let path: String

    init(_ path: String) { self.path = path }

    func write<R>(_ body: (StoreSession) throws -> R) throws -> R {
        var other: (any Error)?
        let result: R? = try Store(path: path, lockTimeout: 1).write { s throws(StoreError) -> R? in
            do { return try body(s) } catch let e as StoreError { throw e } catch {
                other = error
                return nil
            }
        }
        if let other { throw other }
        return result!
    }
}
