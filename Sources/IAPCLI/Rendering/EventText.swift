import IAPKit

/// How lifecycle events read for people, one line each: what commands print about side effects
/// (a download cancelled by a finish, a postponed finish that happened, a fault that fired).
enum EventText {
    static func line(_ e: Event) -> String? {
        switch e.kind {
        case .download(let change, let transaction, _, let d):
            return download(change, of: transaction, d)
        case .contentDownload(let change, let c):
            var text = "self-hosted content of \(c.transactionID) (\(c.productID)) \(change.rawValue)"
            switch change {
            case .updated: text += ": progress \(progress(c.progress))"
            case .failed: text += c.error.map { ": \($0)" } ?? ""
            case .started, .paused, .resumed, .finished, .cancelled: break
            }
            return text
        case .storePayment(let decision, let p):
            return storePayment(decision, p)
        case .transactionFinishPostponed(let t):
            return "finish of \(t.id) postponed until its downloads end (finish-after-downloads)"
        case .transactionDeliveryFailed(let t, let error):
            return "finished  \(t.id)  \(t.productID)  reported failed: \(error)"
        case .transactionFinished(let t):
            return "finished  \(t.id)  \(t.productID)  (\(t.state.name))"
        case .interruptedPurchaseResolved(let original, let resolved):
            return self.resolved(original, by: resolved)
        case .faultAdded(let f):
            return
                "fault #\(f.id) armed: \(f.point.rawValue)\(f.productID.map { " for \($0)" } ?? "") fails \(f.remaining) time\(f.remaining == 1 ? "" : "s") with \(f.error)"
        case .faultFired(let f):
            return fired(f)
        case .faultsCleared(let count):
            return "\(count) fault\(count == 1 ? "" : "s") cleared"
        case .productConsumed(let product, let count, let balance):
            return consumed(product, count: count, balance: balance)
        case .receipt(let event):
            return ReceiptEventText.line(event)
        case .offerKeyAdded(let key):
            return "offer key \(key.id) added (\(key.origin.rawValue)), fingerprint \(key.fingerprint)"
        case .offerKeyRemoved(let key):
            return "offer key \(key.id) removed"
        case .offerRedeemed(_, let s, let offer, let change):
            let into = change.map { " (\($0.rawValue) to \(s.renewalProductID))" } ?? ""
            return
                "\(offer.type.name) offer \(offer.id?.rawValue ?? "-") redeemed by subscription \(s.originalID)\(into): it applies from the renewal on \(s.expiresDate.rfc3339)"
        case .subscriptionOffersChanged:
            return nil
        case .life(let change):
            return LifeText.line(change)
        case .transactionUpdated, .transactionRedelivered, .productsRequestFinished, .productsRequestFailed, .restoreFinished,
            .restoreFailed, .appLaunched, .settingChanged, .storeCreated, .clockAdvanced, .subscriptionStarted,
            .subscriptionRenewed,
            .subscriptionUpgraded, .renewalPreferenceChanged, .autoRenewStatusChanged, .renewalFailed, .gracePeriodExpired,
            .subscriptionExpired, .transactionRevoked, .transactionDeleted, .transactionsCleared:
            // Subscription commands print these themselves.
            return nil
        case .family(let change):
            return family(change)
        case .serverAPI(let change):
            switch change {
            case .appAccountTokenSet(let t, let token): return "app account token of \(t.id) set to \(token)"
            case .consumptionInformationReceived(let t, let info):
                return "consumption information v\(info.version) received for \(t.id)"
            case .renewalExtended(let t, let s, let days, _, _):
                return
                    "renewal of \(s.originalID) extended \(days) day\(days == 1 ? "" : "s"): \(t.id) now expires \(s.expiresDate.rfc3339)"
            case .massExtensionCompleted(let m):
                return "mass extension \(m.requestIdentifier) of \(m.productID): \(m.succeeded) extended, \(m.failed) failed"
            case .testNotificationRequested:
                return "test notification requested"
            case .massExtensionFailed(_, let s, let request):
                return "mass extension \(request) could not extend \(s.originalID)"
            case .notificationSent(let n, let t, _):
                return "notification \(n.type)\(n.subtype.map { " " + $0 } ?? "") sent\(t.map { " about \($0.id)" } ?? "")"
            case .retentionChanged(let change):
                return "\(change.name) \(change.fields.prefix(3).joined(separator: " "))"
            }
        }
    }

    /// A hosted download's step: its event's line, and what `download` and the auto-finish
    /// pipeline print.
    static func download(_ change: DownloadChange, of transaction: TransactionID, _ d: Download) -> String {
        var text = "download \(d.contentIdentifier) of \(transaction) \(change.rawValue)"
        switch change {
        case .updated: text += ": \(d.downloadedBytes)/\(d.contentLength) bytes, progress \(progress(d.progress))"
        case .failed: text += d.error.map { ": \($0)" } ?? ""
        case .started, .paused, .resumed, .finished, .cancelled: break
        }
        return text
    }

    /// What the app answered a store payment (`promote`, `accept-stored`): the event's line.
    static func storePayment(_ decision: StorePaymentDecision, _ p: StoredPayment) -> String {
        switch decision {
        case .accepted: return "store payment for \(p.productID) accepted: it joins the queue"
        case .deferred: return "store payment for \(p.productID) deferred: kept until 'iapctl accept-stored'"
        case .declined: return "store payment for \(p.productID) declined: the app buys the product itself"
        case .acceptedLater: return "stored payment for \(p.productID) accepted: it joins the queue"
        }
    }

    /// `resolve`'s line for an interrupted purchase, and its event's.
    static func resolved(_ original: TransactionID, by resolved: TransactionID) -> String {
        "interrupted purchase \(original) resolved by transaction \(resolved)"
    }

    /// A Family Sharing change's line: its event's, and what `family`, `delete` and `refund` print.
    static func family(_ change: FamilyChange) -> String {
        switch change {
        case .memberAdded(let name): return "family member \(name) added"
        case .memberRemoved(let name): return "family member \(name) removed"
        case .transactionShared(let t):
            return "\(t.productID) shared with \(t.familyMember ?? "-") as FAMILY_SHARED transaction \(t.id)"
        case .memberPurchased(let t):
            return "\(t.familyMember ?? "-") bought \(t.productID) itself: PURCHASED transaction \(t.id)"
        case .transactionRevoked(let t):
            return "\(t.familyMember ?? "-")'s FAMILY_SHARED transaction \(t.id) (\(t.productID)) revoked (FAMILY_REVOKE)"
        case .revocationCleared(let t):
            return "\(t.familyMember ?? "-")'s FAMILY_SHARED transaction \(t.id) (\(t.productID)) no longer revoked"
        case .transactionDeleted(let t):
            return "\(t.familyMember ?? "-")'s FAMILY_SHARED transaction \(t.id) (\(t.productID)) deleted"
        }
    }

    /// Progress as at most four decimals, as the JSON shows it.
    static func progress(_ p: Double) -> String { DownloadJSON.progressText(p) }

    /// The fault lines of `effects`, for commands whose request a fault failed.
    static func faultLines(_ effects: Effects) -> [String] { effects.firedFaults.map(fired) }

    static func fired(_ f: Fault) -> String { "fault #\(f.id) fired at \(f.point.rawValue): \(f.error) (\(f.remaining) left)" }

    /// `consume`'s line, and its `productConsumed` event's.
    static func consumed(_ product: ProductID, count: Int, balance: Int) -> String {
        "consumed \(count) of \(product); balance \(balance)"
    }

    /// One line for each step of a finish, as the finish events read.
    static func lines(_ finish: Finish) -> [String] {
        finish.steps.compactMap(line)
    }

    /// A finish step's line, nil for one finished undelivered (its verification says it).
    static func line(_ step: Finish.Step) -> String? {
        switch step {
        case .finished(let t): return "finished  \(t.id)  \(t.productID)  (\(t.state.name))"
        case .deliveryFailed(let t, let error): return "finished  \(t.id)  \(t.productID)  reported failed: \(error)"
        case .postponed(let t): return "finish of \(t.id) postponed until its downloads end (finish-after-downloads)"
        case .undelivered: return nil
        }
    }

    /// A finish's lines with the downloads it cancelled, in the events' order: each transaction's
    /// cancelled downloads (then its self-hosted content) just before its own step.
    static func linesWithCancellations(_ finish: Finish) -> [String] {
        var lines: [String] = []
        for step in finish.steps {
            switch step {
            case .finished(let t), .deliveryFailed(let t, _), .undelivered(let t):
                lines += cancellationLines(of: t, in: finish)
            case .postponed: break
            }
            if let line = line(step) { lines.append(line) }
        }
        return lines
    }

    /// The downloads a finish of `t` cancelled, as their events read (`Finish.cancelledDownloads`
    /// names RMStore's content downloader "self-hosted content").
    static func cancellationLines(of t: Transaction, in finish: Finish) -> [String] {
        guard let cancelled = finish.cancelledDownloads.first(where: { $0.transaction == t.id }) else { return [] }
        return cancelled.contents.map { content in
            content == "self-hosted content"
                ? "self-hosted content of \(t.id) (\(t.productID)) cancelled" : "download \(content) of \(t.id) cancelled"
        }
    }
}
