/// The App Store Server API's changes to the store (`Command.serverAPI`), validated by the
/// server's routes first (Apple's error codes) and checked again here against the state.
extension Machine {
    mutating func applyServerAPI(_ request: ServerAPIRequest, archive: some TransactionArchive, into effects: inout Effects)
        throws(StoreError)
    {
        switch request {
        case .setAppAccountToken(let original, let token):
            guard let t = try serverAPITransaction(original, archive: archive), t.id == t.originalID else {
                throw .missing(.noOriginalTransaction(original))
            }
            var record = state.serverAPIRecords?[original] ?? ServerAPIRecord()
            record.appAccountToken = token
            state.setServerAPIRecord(record, for: original)
            emit(.serverAPI(.appAccountTokenSet(t, token: token)), into: &effects)
        case .consumptionInformation(let id, let version, let body):
            guard let t = try serverAPITransaction(id, archive: archive) else { throw .unknownTransaction(id) }
            let info = ConsumptionInformation(version: version, received: state.clock, body: body)
            var record = state.serverAPIRecords?[id] ?? ServerAPIRecord()
            record.consumption.append(info)
            if record.consumption.count > ServerAPIRecord.consumptionKept {
                record.consumption.removeFirst(record.consumption.count - ServerAPIRecord.consumptionKept)
            }
            state.setServerAPIRecord(record, for: id)
            emit(.serverAPI(.consumptionInformationReceived(t, info)), into: &effects)
        case .extendRenewalDate(let original, let days, let reason, let request):
            guard (1...RenewalExtension.maximumDays).contains(days) else {
                throw .refused(.extendByDays(days, maximum: RenewalExtension.maximumDays))
            }
            guard let sub = state.subscriptions[original] else {
                throw .missing(.noSubscriptionToExtend(original))
            }
            let extensions = state.serverAPIRecords?[original]?.extensions ?? []
            switch RenewalExtension.verdict(sub, extensions: extensions, now: state.clock) {
            case .eligible: break
            case .ineligible(let why): throw .refused(.notExtendable(original: original, why: why))
            case .tooMany: throw .refused(.extendedTwice(original: original))
            }
            try extend(sub, days: days, reason: reason, request: request, archive: archive, into: &effects)
        case .massExtendRenewalDate(let product, let days, let reason, let request, let storefronts):
            guard (1...RenewalExtension.maximumDays).contains(days) else {
                throw .refused(.extendByDays(days, maximum: RenewalExtension.maximumDays))
            }
            // "To resend the same request due to a timeout or other error, use the same request
            // identifier" (requestIdentifier): a request already processed is not processed again.
            if state.massExtensions?.contains(where: { $0.requestIdentifier == request }) == true { return }
            var succeeded = 0
            var failed = 0
            for original in state.subscriptions.keys.sorted() {
                guard let sub = state.subscriptions[original], sub.productID == product, sub.status.grantsAccess else { continue }
                if let storefronts {
                    let shop = try serverAPITransaction(sub.latestID, archive: archive)?.storefront ?? state.settings.storefront
                    guard storefronts.contains(shop) else { continue }
                }
                let extensions = state.serverAPIRecords?[original]?.extensions ?? []
                guard RenewalExtension.verdict(sub, extensions: extensions, now: state.clock) == .eligible else {
                    failed += 1
                    // Apple sends RENEWAL_EXTENSION FAILURE for each subscription it could not extend.
                    guard let latest = try serverAPITransaction(sub.latestID, archive: archive) else {
                        throw .unknownTransaction(sub.latestID)
                    }
                    emit(.serverAPI(.massExtensionFailed(latest, sub, requestIdentifier: request)), into: &effects)
                    continue
                }
                try extend(sub, days: days, reason: reason, request: request, archive: archive, into: &effects)
                succeeded += 1
            }
            let done = MassExtension(
                requestIdentifier: request, productID: product, completeDate: state.clock, succeeded: succeeded, failed: failed,
                storefronts: storefronts)
            var all = state.massExtensions ?? []
            all.append(done)
            state.massExtensions = all
            emit(.serverAPI(.massExtensionCompleted(done)), into: &effects)
        case .requestTestNotification:
            emit(.serverAPI(.testNotificationRequested), into: &effects)
        case .sendNotification(let n, let id):
            var t: Transaction?
            var sub: Subscription?
            if let id {
                guard let found = try serverAPITransaction(id, archive: archive) else { throw .unknownTransaction(id) }
                t = found
                if found.productType == .autoRenewable { sub = state.subscriptions[found.originalID] }
            }
            emit(.serverAPI(.notificationSent(n, t, sub)), into: &effects)
        case .recordSendAttempt(let seq, let result):
            var all = state.sendAttempts ?? [:]
            all[seq, default: []].append(SendAttempt(date: state.clock, result: result))
            state.sendAttempts = all
        case .retention(let change):
            var config = state.retention ?? RetentionMessaging()
            config.apply(change)
            state.retention = config.isEmpty ? nil : config
            emit(.serverAPI(.retentionChanged(change)), into: &effects)
        }
    }

    /// Moves the end of the subscription's current period `days` later: its latest transaction's
    /// `expiresDate` and the subscription's, and the cycle restarts there, so the next period
    /// runs a whole period from the new date. Counts toward the two extensions a year.
    mutating func extend(
        _ sub: Subscription, days: Int, reason: Int, request: String, archive: some TransactionArchive,
        into effects: inout Effects
    ) throws(StoreError) {
        var sub = sub
        guard var latest = try serverAPITransaction(sub.latestID, archive: archive) else {
            throw .unknownTransaction(sub.latestID)
        }
        let moved = sub.expiresDate.adding(milliseconds: Int64(days) * 86_400_000)
        latest.expiresDate = moved
        sub.expiresDate = moved
        sub.cycleAnchor = moved
        sub.cycles = 0
        state.subscriptions[sub.originalID] = sub
        record(latest, into: &effects)
        var r = state.serverAPIRecords?[sub.originalID] ?? ServerAPIRecord()
        r.extensions.append(state.clock)
        state.setServerAPIRecord(r, for: sub.originalID)
        emit(.serverAPI(.renewalExtended(latest, sub, days: days, reason: reason, requestIdentifier: request)), into: &effects)
    }

    /// A transaction by id, queued or in the archive.
    func serverAPITransaction(_ id: TransactionID, archive: some TransactionArchive) throws(StoreError) -> Transaction? {
        if let t = state.queued(id) { return t }
        return try archive.transaction(id)
    }
}
