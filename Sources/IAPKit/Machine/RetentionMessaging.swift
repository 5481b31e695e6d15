/// The store's Retention Messaging configuration (App Store Server API, Retention Messaging):
/// uploaded images and messages, the default message per product and locale, and the realtime
/// URL. A simulated App Store reviews nothing, so images and messages are APPROVED as soon as
/// they are uploaded. Kept in `StoreState.retention` (nil until the first upload).
public struct RetentionMessaging: Hashable, Sendable, Codable {
    /// Image identifier (lowercase UUID) -> its `imageSize` (FULL_SIZE or BULLET_POINT).
    public var images: [String: String] = [:]
    /// Message identifier (lowercase UUID) -> the message as uploaded.
    public var messages: [String: RetentionMessage] = [:]
    /// `"productId locale"` -> message identifier.
    public var defaults: [String: String] = [:]
    public var realtimeURL: String?
    /// Performance test runs by request id, as `PerformanceTestRun.fields`.
    public var performanceTests: [String: [String]] = [:]

    public init() {}

    public var isEmpty: Bool {
        images.isEmpty && messages.isEmpty && defaults.isEmpty && realtimeURL == nil && performanceTests.isEmpty
    }

    static func defaultKey(product: String, locale: String) -> String { product + " " + locale }

    /// Applies one change (validated by the server beforehand).
    mutating func apply(_ change: RetentionChange) {
        switch change {
        case .imageUploaded(let id, let size): images[id] = size
        case .imageDeleted(let id): images[id] = nil
        case .messageUploaded(let id, let body, let imageIDs): messages[id] = RetentionMessage(body: body, imageIDs: imageIDs)
        case .messageDeleted(let id): messages[id] = nil
        case .defaultConfigured(let product, let locale, let message):
            defaults[Self.defaultKey(product: product, locale: locale)] = message
        case .defaultDeleted(let product, let locale): defaults[Self.defaultKey(product: product, locale: locale)] = nil
        case .realtimeURLConfigured(let url): realtimeURL = url
        case .realtimeURLDeleted: realtimeURL = nil
        case .performanceTestRecorded(let fields): if let id = fields.first { performanceTests[id] = fields }
        }
    }
}

/// An uploaded retention message: its `UploadMessageRequestBody` JSON as sent (compact) and the
/// images it uses (which then cannot be deleted: 4030019 ImageInUseError).
public struct RetentionMessage: Hashable, Sendable, Codable {
    public var body: String
    public var imageIDs: [String]

    public init(body: String, imageIDs: [String]) {
        self.body = body
        self.imageIDs = imageIDs
    }
}

/// One change of the Retention Messaging configuration: a `Command.serverAPI(.retention)` and the
/// `retentionChanged` event it leaves. Every value is a string, so the event's record is the
/// case's code and its strings (`code`, `fields`, `init(code:fields:)`).
public enum RetentionChange: Hashable, Sendable {
    case imageUploaded(id: String, size: String)
    case imageDeleted(id: String)
    case messageUploaded(id: String, body: String, imageIDs: [String])
    case messageDeleted(id: String)
    case defaultConfigured(product: String, locale: String, message: String)
    case defaultDeleted(product: String, locale: String)
    case realtimeURLConfigured(String)
    case realtimeURLDeleted
    /// A finished performance test (`PerformanceTestRun.fields`).
    case performanceTestRecorded([String])

    public var code: Int {
        switch self {
        case .imageUploaded: return 1
        case .imageDeleted: return 2
        case .messageUploaded: return 3
        case .messageDeleted: return 4
        case .defaultConfigured: return 5
        case .defaultDeleted: return 6
        case .realtimeURLConfigured: return 7
        case .realtimeURLDeleted: return 8
        case .performanceTestRecorded: return 9
        }
    }

    public var fields: [String] {
        switch self {
        case .imageUploaded(let id, let size): return [id, size]
        case .imageDeleted(let id), .messageDeleted(let id): return [id]
        case .messageUploaded(let id, let body, let images): return [id, body] + images
        case .defaultConfigured(let product, let locale, let message): return [product, locale, message]
        case .defaultDeleted(let product, let locale): return [product, locale]
        case .realtimeURLConfigured(let url): return [url]
        case .realtimeURLDeleted: return []
        case .performanceTestRecorded(let fields): return fields
        }
    }

    public init?(code: Int, fields f: [String]) {
        switch (code, f.count) {
        case (1, 2): self = .imageUploaded(id: f[0], size: f[1])
        case (2, 1): self = .imageDeleted(id: f[0])
        case (3, 2...): self = .messageUploaded(id: f[0], body: f[1], imageIDs: Array(f.dropFirst(2)))
        case (4, 1): self = .messageDeleted(id: f[0])
        case (5, 3): self = .defaultConfigured(product: f[0], locale: f[1], message: f[2])
        case (6, 2): self = .defaultDeleted(product: f[0], locale: f[1])
        case (7, 1): self = .realtimeURLConfigured(f[0])
        case (8, 0): self = .realtimeURLDeleted
        case (9, PerformanceTestRun.fieldCount): self = .performanceTestRecorded(f)
        default: return nil
        }
    }

    /// The event name: `retentionImageUploaded`, `retentionMessageDeleted`, ...
    public var name: String {
        switch self {
        case .imageUploaded: return "retentionImageUploaded"
        case .imageDeleted: return "retentionImageDeleted"
        case .messageUploaded: return "retentionMessageUploaded"
        case .messageDeleted: return "retentionMessageDeleted"
        case .defaultConfigured: return "retentionDefaultMessageConfigured"
        case .defaultDeleted: return "retentionDefaultMessageDeleted"
        case .realtimeURLConfigured: return "retentionRealtimeURLConfigured"
        case .realtimeURLDeleted: return "retentionRealtimeURLDeleted"
        case .performanceTestRecorded: return "retentionPerformanceTestRecorded"
        }
    }
}

/// A finished Retention Messaging performance test: iapctl called the realtime URL
/// `PerformanceTestRun.totalRequests` times, one after another, with signed realtime requests,
/// and measured each answer (wall-clock milliseconds: the one measured, not simulated, value in
/// the store). A call succeeds with a 2xx within `responseTimeThreshold` ms.
public struct PerformanceTestRun: Hashable, Sendable {
    public static let totalRequests = 10
    public static let maxConcurrentRequests = 1
    public static let totalDuration = 10_000
    /// Apple: "respond to requests within approximately 700 ms".
    public static let responseTimeThreshold = 700
    public static let successRateThreshold = 95
    static let fieldCount = 11

    public var requestID: String
    public var target: String
    public var originalTransactionID: String
    public var successRate: Int
    /// average, p50, p90, p95, p99 in milliseconds.
    public var times: [Int]
    /// `sendAttemptResult` -> count, for the calls that failed.
    public var failures: [(String, Int)]

    public var passed: Bool { successRate >= Self.successRateThreshold }

    public init(
        requestID: String, target: String, originalTransactionID: String, successRate: Int, times: [Int],
        failures: [(String, Int)]
    ) {
        self.requestID = requestID
        self.target = target
        self.originalTransactionID = originalTransactionID
        self.successRate = successRate
        self.times = times
        self.failures = failures
    }

    public static func == (a: Self, b: Self) -> Bool { a.fields == b.fields }
    public func hash(into h: inout Hasher) { h.combine(fields) }

    /// [requestID, target, original, successRate, average, p50, p90, p95, p99, failures as
    /// "RESULT=N,RESULT=N", "v1"].
    public var fields: [String] {
        [requestID, target, originalTransactionID, String(successRate)] + times.map(String.init)
            + [failures.map { "\($0.0)=\($0.1)" }.joined(separator: ","), "v1"]
    }

    public init?(fields f: [String]) {
        guard f.count == Self.fieldCount, let rate = Int(f[3]) else { return nil }
        let times = f[4..<9].compactMap { Int($0) }
        guard times.count == 5 else { return nil }
        var failures: [(String, Int)] = []
        for item in f[9].split(separator: ",") {
            let pair = item.split(separator: "=")
            guard pair.count == 2, let n = Int(pair[1]) else { return nil }
            failures.append((String(pair[0]), n))
        }
        self.init(requestID: f[0], target: f[1], originalTransactionID: f[2], successRate: rate, times: times, failures: failures)
    }

    /// Summary statistics of the measured times: average and nearest-rank percentiles.
    public static func statistics(_ milliseconds: [Int]) -> [Int] {
        guard !milliseconds.isEmpty else { return [0, 0, 0, 0, 0] }
        let sorted = milliseconds.sorted()
        func rank(_ p: Int) -> Int { sorted[min(sorted.count - 1, max(0, (p * sorted.count + 99) / 100 - 1))] }
        return [sorted.reduce(0, +) / sorted.count, rank(50), rank(90), rank(95), rank(99)]
    }
}
