/// Making a store: the first commands of every store, so its creation, the settings and faults
/// its catalog carries, and its `init --storefront` are events like any later change
/// (`storeCreated`, `settingChanged`, `faultAdded`) rather than fields written by hand.
extension Machine {
    /// Applies `origin` to the empty state: the app, the clock's start, the signing chain.
    mutating func createStore(_ origin: StoreOrigin, into effects: inout Effects) throws(StoreError) {
        guard state.nextEventSeq == 1, state.nextTransactionID == .first else {
            throw .refused(.storeHasHistory)
        }
        state.bundleID = origin.bundleID
        state.appVersion = origin.appVersion
        state.originalAppVersion = origin.appVersion
        state.clock = origin.start
        state.signingSHA256 = origin.signingSHA256
        emit(.storeCreated(origin), into: &effects)
    }

    /// Applies a catalog's settings in order, all or nothing. A `fault` entry
    /// (`"purchase paymentCancelled"`) arms a fault that fires every time, as an enabled
    /// `_storeKitErrors` entry does in Xcode; any other key is a setting. A key this iapctl does
    /// not know is an error naming it (exit 65), never silently dropped.
    mutating func applyCatalogSettings(_ settings: [CatalogSetting], catalog: String, into effects: inout Effects)
        throws(StoreError)
    {
        var next = state
        var changes: [EventKind] = []
        for entry in settings {
            if entry.key == "fault" {
                let parts = entry.value.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2, let point = FaultPoint(rawValue: parts[0]), let error = TransactionError(spec: parts[1])
                else {
                    throw .badCatalog(
                        CatalogError(
                            file: catalog, keyPath: "settings.fault",
                            problem:
                                "bad fault '\(entry.value)'; write 'POINT ERROR' with POINT one of \(FaultPoint.names.joined(separator: ", "))"
                        ))
                }
                let fault = Fault(id: next.nextFaultID, point: point, error: error, remaining: Int(Int32.max), productID: nil)
                next.faults.append(fault)
                next.nextFaultID += 1
                changes.append(.faultAdded(fault))
                continue
            }
            guard let setting = SettingKey(rawValue: entry.key) else {
                throw .badCatalog(
                    CatalogError(
                        file: catalog, keyPath: "settings.\(entry.key)",
                        problem: "unknown setting '\(entry.key)'; known: \(SettingKey.names.joined(separator: ", "))"))
            }
            try setting.set(entry.value, in: &next.settings)
            changes.append(.settingChanged(key: entry.key, value: setting.value(in: next.settings)))
        }
        state = next
        for change in changes { emit(change, into: &effects) }
    }
}
