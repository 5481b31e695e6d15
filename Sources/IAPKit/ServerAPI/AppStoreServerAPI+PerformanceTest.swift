import IAPHTTP
import IAPJSON

/// Initiate Performance Test and Get Performance Test Results (Retention Messaging): the test
/// really calls the configured realtime URL, `PerformanceTestRun.totalRequests` times one after
/// another, each with a fresh signed realtime request (`DecodedRealtimeRequestBody` about the
/// subscription), outside the store's lock, then records the measured run in one commit.
extension AppStoreServerAPI {
    static var performanceConfig: (inout JSONWriter) -> Void {
        { w in
            w.beginObject()
            w.key("maxConcurrentRequests")
            w.int(PerformanceTestRun.maxConcurrentRequests)
            w.key("totalRequests")
            w.int(PerformanceTestRun.totalRequests)
            w.key("totalDuration")
            w.int(PerformanceTestRun.totalDuration)
            w.key("responseTimeThreshold")
            w.int(PerformanceTestRun.responseTimeThreshold)
            w.key("successRateThreshold")
            w.int(PerformanceTestRun.successRateThreshold)
            w.endObject()
        }
    }

    func initiatePerformanceTest(_ request: HTTPRequest, _ claims: BearerTokenClaims) -> HTTPResponse {
        guard let body = Self.jsonObject(request) else { return Self.notJSONObject() }
        guard let original = body["originalTransactionId"]?.stringValue.flatMap({ TransactionID(parsing: $0) }) else {
            return AppStoreAPIError.invalidPerformanceTestRequest.response(
                "Give originalTransactionId, the original transaction id of an active auto-renewable subscription.")
        }
        guard let realtimeCaller, let signer else {
            return .error(.notImplemented, message: "this server cannot call a realtime URL (no HTTP client or signer installed)")
        }
        nonisolated(unsafe) var plan: (url: String, requestID: String, bodies: [[UInt8]])?
        let prepared = reading { session in
            if let refusal = Self.wrongApp(claims, session) { return refusal.response }
            guard let url = session.state.retention?.realtimeURL else {
                return AppStoreAPIError.realtimeUrlNotFound.response("Configure the realtime URL before a performance test.")
            }
            guard let sub = session.state.subscriptions[original], case .active = sub.status else {
                return AppStoreAPIError.invalidPerformanceTestRequest.response(
                    "\(original) is not the original transaction of an active auto-renewable subscription.")
            }
            let count = session.state.retention?.performanceTests.count ?? 0
            let requestID = NotificationUUID.make(
                bundleID: "performance-test " + session.state.bundleID, seq: UInt64(count + 1), date: session.state.clock)
            var bodies: [[UInt8]] = []
            for i in 0..<PerformanceTestRun.totalRequests {
                var w = JSONWriter(capacity: 256)
                w.beginObject()
                w.key("originalTransactionId")
                w.string(original.description)
                w.key("appAppleId")
                w.int(appAppleID ?? 0)
                w.key("productId")
                w.string(sub.productID.rawValue)
                w.key("userLocale")
                w.string(String(session.state.settings.effectiveLocale.map { $0 == "_" ? "-" : $0 }))
                w.key("requestIdentifier")
                w.string(NotificationUUID.make(bundleID: requestID, seq: UInt64(i + 1), date: session.state.clock))
                w.key("environment")
                w.string(signer.environment(session: session))
                w.key("signedDate")
                w.int(session.state.clock.milliseconds)
                w.endObject()
                let jws = try signer.sign(payload: w.bytes, session: session)
                var b = JSONWriter(capacity: jws.utf8.count + 24)
                b.beginObject()
                b.key("signedPayload")
                b.string(jws)
                b.endObject()
                bodies.append(b.bytes)
            }
            plan = (url, requestID, bodies)
            return HTTPResponse(status: .ok)
        }
        guard let plan else { return prepared }
        var times: [Int] = []
        var failures: [(String, Int)] = []
        for body in plan.bodies {
            let answer = realtimeCaller.post(url: plan.url, body: body)
            times.append(answer.milliseconds)
            var result = answer.result
            if result == "SUCCESS" && answer.milliseconds > PerformanceTestRun.responseTimeThreshold { result = "TIMED_OUT" }
            guard result != "SUCCESS" else { continue }
            if let i = failures.firstIndex(where: { $0.0 == result }) { failures[i].1 += 1 } else { failures.append((result, 1)) }
        }
        let failed = failures.reduce(0) { $0 + $1.1 }
        let run = PerformanceTestRun(
            requestID: plan.requestID, target: plan.url, originalTransactionID: original.description,
            successRate: (times.count - failed) * 100 / max(times.count, 1), times: PerformanceTestRun.statistics(times),
            failures: failures)
        return writing { session in
            try session.apply(.serverAPI(.retention(.performanceTestRecorded(run.fields))))
            return .json { w in
                w.beginObject()
                w.key("requestId")
                w.string(run.requestID)
                w.key("config")
                Self.performanceConfig(&w)
                w.endObject()
            }
        }
    }

    func performanceTestResults(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = Self.uuid(p["requestId"]) else {
            return AppStoreAPIError.invalidRequestId.response(
                "'\(HTTPRequestParser.printable(p["requestId"] ?? ""))' is not a requestId (a UUID).")
        }
        return retentionRead(claims) { config in
            guard let run = config.performanceTests[id].flatMap({ PerformanceTestRun(fields: $0) }) else {
                return AppStoreAPIError.performanceTestRunNotFound.response("No performance test \(id).")
            }
            return .json { w in
                w.beginObject()
                w.key("config")
                Self.performanceConfig(&w)
                w.key("target")
                w.string(run.target)
                w.key("result")
                w.string(run.passed ? "PASS" : "FAIL")
                w.key("successRate")
                w.int(run.successRate)
                w.key("numPending")
                w.int(0)
                w.key("responseTimes")
                w.beginObject()
                for (key, value) in zip(["average", "p50", "p90", "p95", "p99"], run.times) {
                    w.key(key)
                    w.int(value)
                }
                w.endObject()
                w.key("failures")
                w.beginObject()
                for (result, n) in run.failures {
                    w.key(result)
                    w.int(n)
                }
                w.endObject()
                w.endObject()
            }
        }
    }
}
