import IAPTime

/// What one command came to, typed: `Machine.apply` returns it in `Effects.outcome` beside the
/// events, commands render it, and `ExitCode(outcome)` decides the exit code from it. No caller
/// searches the event list for "its" transaction or for a failure (swift-nio's state machines
/// return one action per input in the same spirit).
///
/// Extension point: a command with a result of its own gets a case here; `ExitCode.init(_:)`
/// (exhaustive, no `default:`) then asks what it exits with.
///
/// A payment and a finish, every purchase cycle's outcomes, are inline; the rest are `indirect`,
/// so `Effects`, which holds an outcome, stays small to return and move.
public enum Outcome: Hashable, Sendable {
    /// Done as asked, with nothing of its own for the command to print (a setting, an offer key,
    /// a server API change, a self-hosted content step, ...); the events say the rest.
    case done
    /// A payment reached the store's answer: `buy`, a promoted purchase the app accepted,
    /// `approve`, `decline`, resolving an interrupted purchase.
    case payment(Payment)
    /// Ask to Buy: the parent declined, and the transaction failed as asked (exit 0).
    indirect case declined(Transaction)
    /// A purchase the App Store started (`promote`): what the app answered
    /// `shouldAddStorePayment`, the payment that followed: the accepted one, or after a
    /// decline the one DYFStoreKit's demo app makes itself when payments are allowed, and what
    /// the family's members were given with it.
    indirect case promoted(StorePaymentDecision, StoredPayment, then: Payment?, family: [FamilyChange])
    /// `resolve` of an interrupted purchase: the failed transaction's id, the purchase that
    /// resolved it, and what the family's members were given with it.
    indirect case resolved(original: TransactionID, Payment, family: [FamilyChange])
    /// `accept-stored`: each stored payment's answer, oldest first.
    indirect case storedPaymentsAccepted([Payment])
    /// `finish`, `finish --all`, and a finish a verification or a download ending completed.
    case finish(Finish)
    /// `restore`: the restored transactions, or the error a restore fault made it fail with.
    indirect case restore(restored: [Transaction], failure: TransactionError?)
    /// An app launch: the unfinished transactions, redelivered.
    indirect case launch(redelivered: [Transaction])
    /// A receipt refresh: nil when it finished.
    indirect case receiptRefresh(failure: TransactionError?)
    /// A recorded verification of the whole receipt (`verify`, `verify-receipt`).
    indirect case receiptVerification(ReceiptVerificationRecord)
    /// RMStore's verifier on one transaction (`finish --verify`, auto-finish): passed (then,
    /// when asked, finished), or failed (finished undelivered unless it could not be completed).
    indirect case transactionVerification(TransactionVerificationOutcome)
    /// `fault add` armed this fault.
    indirect case faultAdded(Fault)
    /// `fault clear` disarmed this many.
    case faultsCleared(count: Int)
    /// Issue 15: a refund request step or a price increase step, with what it changed.
    indirect case life(LifeOutcome)
    /// `family add|remove`: the member, and what was shared with it or revoked from it.
    indirect case family(FamilyResult)
    /// `consume`: the units used up and the balance left.
    indirect case consumed(ProductID, count: Int, balance: Int)
    /// A products request (`products`): nil when it was answered, else the error a `products`
    /// fault failed it with (exit 1).
    indirect case productsRequest(failure: TransactionError?)
    /// `delete`: the transaction's tombstone, and the tombstones of the family members' copies
    /// of it that went with it (docs/family.md).
    indirect case deleted(Transaction, familyCopies: [Transaction])
    /// `auto-renew`, `expire`, `renew`, `resolve` of a billing issue: the subscription (original
    /// id), and the renewals the command made, in order: the account's and its family members'
    /// copies of them (FAMILY_SHARED transactions whose reason is RENEWAL).
    indirect case subscriptionChanged(TransactionID, renewals: [Transaction])
    /// `clock advance|set`: where the clock was and is, and what happened on the way.
    indirect case clockMoved(ClockMove)
    /// `download start|pause|resume|cancel`: the downloads of the transaction it moved, after the
    /// move, and the postponed finish a cancellation settled (finish-after-downloads). Exit 0:
    /// the move did as asked, whatever the finish it settled came to.
    indirect case downloadsMoved(DownloadMove, TransactionID, [Download], finish: Finish)
    /// One step of `download run` (`recordDownloadProgress`): the download after it (active,
    /// finished, or failed by an armed fault), and the postponed finish its end settled.
    indirect case downloadProgressed(TransactionID, Download, finish: Finish)
    /// A StoreKit API call an armed fault failed (`Command.simulatedAPI`): exit 1.
    indirect case apiFailed(FaultPoint, TransactionError)
}

/// The store's answer to one payment, with the transaction in its final state.
public enum Payment: Hashable, Sendable {
    case purchased(Transaction)
    /// Ask to Buy: waiting for `approve` or `decline`.
    case deferred(Transaction)
    indirect case failed(Transaction, TransactionError)
    /// Failed as an interrupted purchase (`interrupted-purchases`): `resolve` completes it.
    case interrupted(Transaction)

    public var transaction: Transaction {
        switch self {
        case .purchased(let t), .deferred(let t), .failed(let t, _), .interrupted(let t): return t
        }
    }

    /// The answer a transaction in its final state stands for.
    init(_ t: Transaction, interrupted: Bool) {
        switch t.state {
        case .purchased, .restored: self = .purchased(t)
        case .deferred, .purchasing: self = .deferred(t)
        case .failed(let error): self = interrupted ? .interrupted(t) : .failed(t, error)
        }
    }
}

/// What a finish did to each transaction it was asked to finish, in order.
public struct Finish: Hashable, Sendable {
    public enum Step: Hashable, Sendable {
        /// Finished and delivered (counted in the ledger).
        case finished(Transaction)
        /// finish-after-downloads: waits for its downloads (RMStore).
        case postponed(Transaction)
        /// finish-after-downloads: finished, but a download did not finish (RMStore error 300 for
        /// a cancellation), so it is reported failed and not counted.
        case deliveryFailed(Transaction, TransactionError)
        /// Finished without delivery after its verification failed.
        case undelivered(Transaction)
    }

    public var steps: [Step] = []
    /// Downloads that had not ended and that finishing cancelled, by transaction (StoreKit
    /// drops them with the transaction), in the order of their `downloadCancelled` and
    /// `contentDownloadCancelled` events.
    public var cancelledDownloads: [CancelledDownloads] = []

    public struct CancelledDownloads: Hashable, Sendable {
        public let transaction: TransactionID
        public var contents: [CancelledContent]
    }

    /// One download a finish cancelled.
    public enum CancelledContent: Hashable, Sendable {
        /// An Apple-hosted download, by content identifier.
        case hosted(String)
        /// The self-hosted content RMStore's content downloader was fetching.
        case selfHosted

        /// How messages name it: the content identifier, or "self-hosted content".
        public var name: String {
            switch self {
            case .hosted(let id): return id
            case .selfHosted: return "self-hosted content"
            }
        }
    }

    public init() {}

    /// Every transaction that left the queue, in order.
    public var finished: [Transaction] {
        steps.compactMap { step in
            switch step {
            case .finished(let t), .deliveryFailed(let t, _), .undelivered(let t): return t
            case .postponed: return nil
            }
        }
    }

    mutating func cancelled(_ content: CancelledContent, of id: TransactionID) {
        if let i = cancelledDownloads.firstIndex(where: { $0.transaction == id }) {
            cancelledDownloads[i].contents.append(content)
        } else {
            cancelledDownloads.append(CancelledDownloads(transaction: id, contents: [content]))
        }
    }
}

/// RMStore's verifier on one transaction.
public enum TransactionVerificationOutcome: Hashable, Sendable {
    /// The receipt holds it; `finish` is what the finish that followed did (empty when the
    /// command only verified).
    case verified(ReceiptVerificationRecord, finish: Finish)
    /// Rejected: finished without delivery, or (could not be completed, error 200) kept in the
    /// queue for the next launch.
    case failed(ReceiptVerificationRecord, Transaction, TransactionError, finish: Finish)
    /// A transaction that is not verified (a failed one, which RMStore finishes as it is).
    case notVerified(finish: Finish)
}

extension Outcome {
    /// Adds the Family Sharing changes the end of an apply made (`Machine.shareWithFamily`: a
    /// purchase shared, a refund's copies revoked) to the outcomes that report them; the others
    /// are left as they are.
    mutating func addFamily(_ changes: [FamilyChange]) {
        guard !changes.isEmpty else { return }
        switch self {
        case .life(.refund(let t, let q, let sub, let notification, let family)):
            self = .life(.refund(t, q, sub, notification: notification, family: family + changes))
        case .promoted(let decision, let payment, let then, let family):
            self = .promoted(decision, payment, then: then, family: family + changes)
        case .resolved(let original, let payment, let family):
            self = .resolved(original: original, payment, family: family + changes)
        case .subscriptionChanged(let id, let renewals):
            // A shared subscription's renewal renews each member's copy with it.
            var renewals = renewals
            for case .transactionShared(let t) in changes where t.reason == .renewal { renewals.append(t) }
            self = .subscriptionChanged(id, renewals: renewals)
        case .done, .payment, .declined, .storedPaymentsAccepted, .finish, .restore, .launch, .receiptRefresh,
            .receiptVerification, .transactionVerification, .faultAdded, .faultsCleared, .life, .family, .consumed,
            .productsRequest, .deleted, .clockMoved, .downloadsMoved, .downloadProgressed, .apiFailed:
            return
        }
    }

    /// Adds a renewal (`Machine.renew`) to a subscription command's outcome.
    mutating func addRenewal(_ t: Transaction) {
        guard case .subscriptionChanged(let id, var renewals) = self else { return }
        renewals.append(t)
        self = .subscriptionChanged(id, renewals: renewals)
    }
}

/// Where `clock advance|set` moved the clock, and what happened on the way.
public struct ClockMove: Hashable, Sendable {
    /// Events of one kind the move caused.
    public struct Tally: Hashable, Sendable {
        public let name: String
        public var count: Int
    }

    public let from: Timestamp
    public let to: Timestamp
    /// The events the move caused (renewals, expiries, ...), by name in the order each first
    /// happened; the clock's own `clockAdvanced` is not counted.
    public var tally: [Tally] = []
    /// The sequence number of the move's first event (`clockAdvanced` itself when nothing else
    /// happened), nil when the clock stayed and nothing happened.
    public var firstEventSeq: UInt64?

    init(from: Timestamp, to: Timestamp, events: ArraySlice<Event>) {
        self.from = from
        self.to = to
        firstEventSeq = events.first?.seq
        for e in events {
            if case .clockAdvanced = e.kind { continue }
            if let i = tally.firstIndex(where: { $0.name == e.name }) {
                tally[i].count += 1
            } else {
                tally.append(Tally(name: e.name, count: 1))
            }
        }
    }
}

extension ExitCode {
    /// The one place a command's outcome becomes its exit code (SPEC section 5): a payment
    /// purchased 0, failed 1, deferred 5; a finish that failed a delivery 1, one that waits 5;
    /// a restore, refresh or verification that failed 1.
    public init(_ outcome: Outcome) {
        switch outcome {
        case .done, .faultAdded, .faultsCleared, .launch, .declined, .life, .family, .consumed, .deleted, .subscriptionChanged,
            .clockMoved, .downloadsMoved:
            self = .success
        case .downloadProgressed(_, let d, let finish):
            self = d.state == .failed ? .declined : ExitCode(finish)
        case .payment(let p): self = ExitCode(p)
        case .resolved(_, let p, _): self = ExitCode(p)
        case .promoted(let decision, _, let then, _):
            if let then {
                self = ExitCode(then)
            } else {
                switch decision {
                case .deferred: self = .pending
                case .declined: self = .declined
                case .accepted, .acceptedLater: self = .success
                }
            }
        case .storedPaymentsAccepted(let payments): self = .worst(payments.map(ExitCode.init))
        case .finish(let f): self = ExitCode(f)
        case .restore(_, let failure), .receiptRefresh(let failure), .productsRequest(let failure):
            self = failure == nil ? .success : .declined
        case .apiFailed: self = .declined
        case .receiptVerification(let record): self = record.passed ? .success : .declined
        case .transactionVerification(let v):
            switch v {
            case .verified(_, let finish), .notVerified(let finish): self = ExitCode(finish)
            case .failed: self = .declined
            }
        }
    }

    public init(_ payment: Payment) {
        switch payment {
        case .purchased: self = .success
        case .deferred: self = .pending
        case .failed, .interrupted: self = .declined
        }
    }

    public init(_ finish: Finish) {
        // `worst` of the steps' codes, without building the list: a failure beats pending.
        var pending = false
        for step in finish.steps {
            switch step {
            case .finished: continue
            case .postponed: pending = true
            case .deliveryFailed, .undelivered:
                self = .declined
                return
            }
        }
        self = pending ? .pending : .success
    }

    /// Several results as one: a failure beats pending beats success.
    public static func worst(_ codes: [ExitCode]) -> ExitCode {
        if codes.contains(.declined) { return .declined }
        if codes.contains(.pending) { return .pending }
        return codes.first { $0 != .success } ?? .success
    }
}
