import Foundation

/// Signs offers with Apple's own signers, the judges of iapctl's signature checks: the Python
/// `app-store-server-library` (`requirements-test.txt`; `PATH=/tmp/venvtest/bin:$PATH swift test`)
/// and its `PromotionalOfferSignatureCreator`, `PromotionalOfferV2SignatureCreator` and
/// `IntroductoryOfferEligibilitySignatureCreator`, run unchanged.
///
/// The JWS creators read the wall clock (`datetime.now`) and make a random nonce
/// (`uuid.uuid4()`); this helper gives their module a fixed clock and nonce instead, the way a
/// test injects a clock, so a signature is made for the store's simulated time. Crafted tokens
/// (an `exp` claim, a missing claim, another algorithm) are made with PyJWT, the library Apple's
/// creators sign with. A missing tool or library is a test failure, never a skip.
enum AppleOfferSigner {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One signature to make.
    enum Request {
        /// `PromotionalOfferSignatureCreator(key, keyID, bundleID).create_signature(...)`.
        case legacy(
            keyPEM: String, keyID: String, bundleID: String, productID: String, offerID: String, username: String,
            nonce: String, timestamp: Int64)
        /// `PromotionalOfferV2SignatureCreator(...).create_signature(productID, offerID, transactionID)` at `iat`.
        case promotionalV2(
            keyPEM: String, keyID: String, issuerID: String, bundleID: String, productID: String, offerID: String,
            transactionID: String?, nonce: String, iat: Int64)
        /// `IntroductoryOfferEligibilitySignatureCreator(...).create_signature(productID, allow, transactionID)`.
        case introductoryEligibility(
            keyPEM: String, keyID: String, issuerID: String, bundleID: String, productID: String, allow: Bool,
            transactionID: String, nonce: String, iat: Int64)
        /// `jwt.encode(claims, key, algorithm, headers)`: a token Apple's creators would not make.
        case raw(keyPEM: String, algorithm: String, headers: [String: Any], claims: [String: Any])

        var json: [String: Any] {
            switch self {
            case .legacy(let key, let keyID, let bundle, let product, let offer, let user, let nonce, let ts):
                return [
                    "kind": "legacy", "key": key, "keyId": keyID, "bundleId": bundle, "productId": product, "offerId": offer,
                    "username": user, "nonce": nonce, "timestamp": ts,
                ]
            case .promotionalV2(let key, let keyID, let issuer, let bundle, let product, let offer, let tx, let nonce, let iat):
                var j: [String: Any] = [
                    "kind": "v2", "key": key, "keyId": keyID, "issuerId": issuer, "bundleId": bundle, "productId": product,
                    "offerId": offer, "nonce": nonce, "iat": iat,
                ]
                if let tx { j["transactionId"] = tx }
                return j
            case .introductoryEligibility(
                let key, let keyID, let issuer, let bundle, let product, let allow, let tx, let nonce, let iat):
                return [
                    "kind": "intro", "key": key, "keyId": keyID, "issuerId": issuer, "bundleId": bundle, "productId": product,
                    "allow": allow, "transactionId": tx, "nonce": nonce, "iat": iat,
                ]
            case .raw(let key, let alg, let headers, let claims):
                return ["kind": "raw", "key": key, "alg": alg, "headers": headers, "claims": claims]
            }
        }
    }

    static let script = """
        import datetime, json, sys, types, uuid
        try:
            import jwt
            from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator
            import appstoreserverlibrary.jws_signature_creator as creators
        except ImportError as e:
            print("app-store-server-library is not installed (pip install -r requirements-test.txt): %s" % e, file=sys.stderr)
            sys.exit(3)

        def at(iat, nonce):
            # The creators call datetime.datetime.now(datetime.timezone.utc) and uuid.uuid4().
            class Clock(datetime.datetime):
                @classmethod
                def now(cls, tz=None):
                    return datetime.datetime.fromtimestamp(iat, tz=datetime.timezone.utc)
            creators.datetime = types.SimpleNamespace(datetime=Clock, timezone=datetime.timezone)
            creators.uuid = types.SimpleNamespace(uuid4=lambda: uuid.UUID(nonce))

        out = []
        for r in json.load(sys.stdin):
            key = r["key"].encode()
            if r["kind"] == "legacy":
                creator = PromotionalOfferSignatureCreator(key, r["keyId"], r["bundleId"])
                out.append(creator.create_signature(r["productId"], r["offerId"], r["username"], uuid.UUID(r["nonce"]), r["timestamp"]))
            elif r["kind"] == "v2":
                at(r["iat"], r["nonce"])
                creator = creators.PromotionalOfferV2SignatureCreator(key, r["keyId"], r["issuerId"], r["bundleId"])
                out.append(creator.create_signature(r["productId"], r["offerId"], r.get("transactionId")))
            elif r["kind"] == "intro":
                at(r["iat"], r["nonce"])
                creator = creators.IntroductoryOfferEligibilitySignatureCreator(key, r["keyId"], r["issuerId"], r["bundleId"])
                out.append(creator.create_signature(r["productId"], r["allow"], r["transactionId"]))
            else:
                signing = key if r["alg"].startswith("ES") else b"a shared secret that is not a P-256 key"
                out.append(jwt.encode(r["claims"], signing, algorithm=r["alg"], headers=r["headers"]))
        print(json.dumps(out))
        """

    /// Makes every signature in one Python run.
    static func sign(_ requests: [Request]) throws -> [String] {
        let input = try JSONSerialization.data(withJSONObject: requests.map(\.json))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try python())
        process.arguments = ["-c", script]
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "Apple's signers failed (\(process.terminationStatus)): \(String(decoding: errData, as: UTF8.self))")
        }
        guard let list = try JSONSerialization.jsonObject(with: outData) as? [String], list.count == requests.count else {
            throw Failure(description: "Apple's signers printed \(String(decoding: outData, as: UTF8.self))")
        }
        return list
    }

    static func sign(_ request: Request) throws -> String { try sign([request])[0] }

    static func python() throws -> String {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
        for dir in dirs where FileManager.default.isExecutableFile(atPath: dir + "/python3") { return dir + "/python3" }
        throw Failure(
            description: "python3 is not installed; the offer interop tests need it with app-store-server-library on PATH")
    }
}
