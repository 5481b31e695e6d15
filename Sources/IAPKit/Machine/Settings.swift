import IAPTime

/// A store's settings: what `iapctl config get|set` reads and writes.
///
/// Each setting is a `SettingKey`; adding one is a new case there, and the compiler then points at
/// every switch that must learn it.
public struct Settings: Hashable, Sendable, Codable {
    /// `SKPaymentQueue.canMakePayments()`: false models parental controls (payments not allowed).
    public var paymentsAllowed = true
    /// The storefront purchases happen in (ISO 3166-1 alpha-3).
    public var storefront = "USA"
    /// The locale product text is shown in; nil follows the storefront's language.
    public var locale: String?
    /// How far the simulated clock moves before each new payment or restore, in milliseconds, so
    /// successive purchases get distinct, increasing dates. 0 keeps the clock still.
    public var clockStepMilliseconds: Int64 = 1000
    /// REFERENCE section 1 allows quantities above 1 for non-renewing subscriptions too; the
    /// foundation issue allows them for consumables only. This setting turns the former on.
    public var nonRenewingQuantity = false
    /// Ask to Buy (Xcode's `_askToBuyEnabled`): new payments end deferred until approved or declined.
    public var askToBuy = false
    /// Xcode's interrupted purchases: new payments fail until resolved (`iapctl resolve`).
    public var interruptedPurchases = false
    /// Xcode's `_failTransactionsEnabled`: every new payment fails with this error.
    public var failTransactions: TransactionError?
    /// The answer to `shouldAddStorePayment` for promoted purchases.
    public var storePayments = StorePaymentPolicy.accept
    /// RMStore: a transaction is finished only when all its downloads ended (StoreKit cancels them).
    public var finishAfterDownloads = false
    /// The command run for self-hosted content (RMStore's contentDownloader), through /bin/sh.
    public var downloader: String?
    /// The App Store environment the store simulates: the receipt's environment attribute and
    /// which emulated verifyReceipt endpoint accepts its receipts.
    public var environment = ReceiptEnvironment.sandbox
    /// The device's `identifierForVendor` as 32 lowercase hex digits (receipt hash input); nil
    /// derives one from the bundle id (see `StoreState.deviceIdentifier`).
    public var deviceID: String?
    /// The app's shared secret for auto-renewable receipts at verifyReceipt (status 21004).
    public var sharedSecret: String?
    /// RMStore's pipeline on every purchase: verify the receipt, download, finish, count.
    public var autoFinish = false
    /// Xcode's "Enable Billing Retry on Renewal" (`_billingIssuesEnabled`): renewals fail and the
    /// subscription enters billing retry.
    public var billingIssues = false
    /// Xcode's "Enable Billing Grace Period" (`_billingGracePeriodEnabled`): a failed renewal
    /// keeps access for 6 days (weekly subscriptions) or 16 days (others).
    public var gracePeriod = false
    /// What `restore` delivers for auto-renewable subscriptions (see `RestoreRenewals`).
    public var restoreRenewals = RestoreRenewals.all

    public init() {}

    /// The locale in force: the explicit one, else the storefront's language.
    public var effectiveLocale: String {
        locale ?? Storefront.named(storefront)?.defaultLocale ?? "en_US"
    }
}

/// The names `iapctl config` accepts, with how each is parsed and shown.
public enum SettingKey: String, CaseIterable, Sendable {
    case paymentsAllowed = "payments-allowed"
    case storefront
    case locale
    case clockStep = "clock-step"
    case nonRenewingQuantity = "nonrenewing-quantity"
    case askToBuy = "ask-to-buy"
    case interruptedPurchases = "interrupted-purchases"
    case failTransactions = "fail-transactions"
    case storePayments = "store-payments"
    case finishAfterDownloads = "finish-after-downloads"
    case downloader
    case environment
    case deviceID = "device-id"
    case sharedSecret = "shared-secret"
    case autoFinish = "auto-finish"
    case billingIssues = "billing-issues"
    case gracePeriod = "grace-period"
    case restoreRenewals = "restore-renewals"

    public var summary: String {
        switch self {
        case .paymentsAllowed: return "true or false: whether the user may pay (SKPaymentQueue.canMakePayments)"
        case .storefront:
            return
                "storefront code (ISO 3166-1 alpha-3 of any of the \(Storefront.all.count) App Store storefronts: USA, CHN, JPN, ...)"
        case .locale: return "locale for product text (en_US, zh_CN, ...), or 'auto' to follow the storefront"
        case .clockStep: return "clock advance before each payment or restore: 0, 500ms, 1s, 5m, 2h, 1d"
        case .nonRenewingQuantity: return "true or false: allow quantities above 1 for non-renewing subscriptions"
        case .askToBuy: return "true or false: Ask to Buy; new payments end deferred until 'iapctl approve' or 'iapctl decline'"
        case .interruptedPurchases: return "true or false: new payments fail as interrupted purchases until 'iapctl resolve'"
        case .failTransactions:
            return "false, true (SKError unknown), or an error (\(TransactionError.specHelp)): every new payment fails with it"
        case .storePayments:
            return "accept, defer or decline: the answer to promoted purchases (StoreKit, RMStore's stored payments, DYFStoreKit)"
        case .finishAfterDownloads:
            return "true or false: finish a transaction only when its downloads ended (RMStore), "
                + "instead of cancelling them (StoreKit)"
        case .downloader:
            return "a shell command run for self-hosted content, with the transaction JSON on stdin, or 'none'"
        case .environment: return ReceiptSetting.environment.summary
        case .deviceID: return ReceiptSetting.deviceID.summary
        case .sharedSecret: return ReceiptSetting.sharedSecret.summary
        case .autoFinish: return ReceiptSetting.autoFinish.summary
        case .billingIssues: return "true or false: renewals fail and enter billing retry (Xcode's billing retry on renewal)"
        case .gracePeriod: return "true or false: a failed renewal keeps access 6 days (weekly) or 16 days (Xcode's grace period)"
        case .restoreRenewals: return "all or latest: restore every subscription period (StoreKit 1) or only the current one"
        }
    }

    public static var names: [String] { allCases.map(\.rawValue) }

    public func value(in settings: Settings) -> String {
        switch self {
        case .paymentsAllowed: return settings.paymentsAllowed ? "true" : "false"
        case .storefront: return settings.storefront
        case .locale: return settings.locale ?? "auto"
        case .clockStep: return ClockDuration.shortForm(milliseconds: settings.clockStepMilliseconds)
        case .nonRenewingQuantity: return settings.nonRenewingQuantity ? "true" : "false"
        case .askToBuy: return settings.askToBuy ? "true" : "false"
        case .interruptedPurchases: return settings.interruptedPurchases ? "true" : "false"
        case .failTransactions: return settings.failTransactions?.name ?? "false"
        case .storePayments: return settings.storePayments.rawValue
        case .finishAfterDownloads: return settings.finishAfterDownloads ? "true" : "false"
        case .downloader: return settings.downloader ?? "none"
        case .environment: return ReceiptSetting.environment.value(in: settings)
        case .deviceID: return ReceiptSetting.deviceID.value(in: settings)
        case .sharedSecret: return ReceiptSetting.sharedSecret.value(in: settings)
        case .autoFinish: return ReceiptSetting.autoFinish.value(in: settings)
        case .billingIssues: return settings.billingIssues ? "true" : "false"
        case .gracePeriod: return settings.gracePeriod ? "true" : "false"
        case .restoreRenewals: return settings.restoreRenewals.rawValue
        }
    }

    /// Parses `text` and stores it, or throws naming the value and what is accepted.
    public func set(_ text: String, in settings: inout Settings) throws(StoreError) {
        func bool() throws(StoreError) -> Bool {
            switch text.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: throw StoreError.badSettingValue(key: rawValue, value: text, expected: "true or false")
            }
        }
        switch self {
        case .paymentsAllowed: settings.paymentsAllowed = try bool()
        case .storefront:
            guard let storefront = Storefront.named(text) else {
                throw StoreError.badSettingValue(
                    key: rawValue, value: text, expected: "a storefront code; \(Storefront.unknownCodeHint(text))")
            }
            settings.storefront = storefront.code
        case .locale:
            if text == "auto" {
                settings.locale = nil
            } else {
                guard LocaleIdentifier.isValid(text) else {
                    let hint = LocaleIdentifier.suggestion(for: text).map { "; did you mean '\($0)'?" } ?? ""
                    throw StoreError.badSettingValue(
                        key: rawValue, value: text, expected: "a locale such as en_US, zh_CN or ja_JP, or auto\(hint)")
                }
                settings.locale = text
            }
        case .clockStep:
            guard let ms = ClockDuration.parseShortForm(text), ms >= 0, ms <= 86_400_000 * 366 else {
                throw StoreError.badSettingValue(
                    key: rawValue, value: text, expected: "a duration from 0 to 366d, such as 1s or 500ms")
            }
            settings.clockStepMilliseconds = ms
        case .nonRenewingQuantity: settings.nonRenewingQuantity = try bool()
        case .askToBuy: settings.askToBuy = try bool()
        case .interruptedPurchases: settings.interruptedPurchases = try bool()
        case .failTransactions:
            if let on = try? bool() {
                settings.failTransactions = on ? TransactionError(.unknown) : nil
            } else if let error = TransactionError(spec: text) {
                settings.failTransactions = error
            } else {
                throw StoreError.badSettingValue(
                    key: rawValue, value: text, expected: "false, true, or \(TransactionError.specHelp)")
            }
        case .storePayments:
            guard let policy = StorePaymentPolicy(rawValue: text.lowercased()) else {
                throw StoreError.badSettingValue(key: rawValue, value: text, expected: "accept, defer or decline")
            }
            settings.storePayments = policy
        case .finishAfterDownloads: settings.finishAfterDownloads = try bool()
        case .downloader:
            if text.isEmpty || text == "none" {
                settings.downloader = nil
            } else {
                guard text.count <= 4096, !text.contains("\n"), !text.allSatisfy(\.isWhitespace) else {
                    throw StoreError.badSettingValue(
                        key: rawValue, value: text, expected: "a one-line shell command of at most 4096 characters, or none")
                }
                settings.downloader = text
            }
        case .environment: try ReceiptSetting.environment.set(text, in: &settings)
        case .deviceID: try ReceiptSetting.deviceID.set(text, in: &settings)
        case .sharedSecret: try ReceiptSetting.sharedSecret.set(text, in: &settings)
        case .autoFinish: try ReceiptSetting.autoFinish.set(text, in: &settings)
        case .billingIssues: settings.billingIssues = try bool()
        case .gracePeriod: settings.gracePeriod = try bool()
        case .restoreRenewals:
            guard let mode = RestoreRenewals(rawValue: text.lowercased()) else {
                throw StoreError.badSettingValue(key: rawValue, value: text, expected: "all or latest")
            }
            settings.restoreRenewals = mode
        }
    }
}
