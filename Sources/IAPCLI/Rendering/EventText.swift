import IAPKit

/// How what a command did reads for people, one line each, built from typed values (the
/// command's `Outcome`, `Effects.firedFaults`, `Effects.finish`), never from the event list: a
/// download step, a finish and the downloads it cancelled, a fault that fired, a family change.
enum EventText {
    /// `fault add`'s line.
    static func faultAdded(_ f: Fault) -> String {
        "fault #\(f.id) armed: \(f.point.rawValue)\(f.productID.map { " for \($0)" } ?? "") fails \(f.remaining) time\(f.remaining == 1 ? "" : "s") with \(f.error)"
    }

    /// A hosted download's step, as `download` and the auto-finish pipeline print it.
    static func download(_ change: DownloadChange, of transaction: TransactionID, _ d: Download) -> String {
        var text = "download \(d.contentIdentifier) of \(transaction) \(change.rawValue)"
        switch change {
        case .updated: text += ": \(d.downloadedBytes)/\(d.contentLength) bytes, progress \(progress(d.progress))"
        case .failed: text += d.error.map { ": \($0)" } ?? ""
        case .started, .paused, .resumed, .finished, .cancelled: break
        }
        return text
    }

    /// What the app answered a store payment (`promote`).
    static func storePayment(_ decision: StorePaymentDecision, _ p: StoredPayment) -> String {
        switch decision {
        case .accepted: return "store payment for \(p.productID) accepted: it joins the queue"
        case .deferred: return "store payment for \(p.productID) deferred: kept until 'iapctl accept-stored'"
        case .declined: return "store payment for \(p.productID) declined: the app buys the product itself"
        case .acceptedLater: return "stored payment for \(p.productID) accepted: it joins the queue"
        }
    }

    /// `resolve`'s line for an interrupted purchase.
    static func resolved(_ original: TransactionID, by resolved: TransactionID) -> String {
        "interrupted purchase \(original) resolved by transaction \(resolved)"
    }

    /// A Family Sharing change, as `family`, `delete`, `refund`, `resolve` and `promote` print it.
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

    /// `consume`'s line.
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

    /// The downloads a finish of `t` cancelled, as their events read.
    static func cancellationLines(of t: Transaction, in finish: Finish) -> [String] {
        guard let cancelled = finish.cancelledDownloads.first(where: { $0.transaction == t.id }) else { return [] }
        return cancelled.contents.map { content in
            switch content {
            case .hosted(let id): return "download \(id) of \(t.id) cancelled"
            case .selfHosted: return "self-hosted content of \(t.id) (\(t.productID)) cancelled"
            }
        }
    }
}
