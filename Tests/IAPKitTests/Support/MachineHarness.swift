import IAPKit

/// A machine on the built-in catalog with an in-memory archive, for state-machine tests.
struct MachineHarness {
    var machine: Machine
    let archive = MemoryArchive()
    var events: [Event] = []

    init(settings: (inout Settings) -> Void = { _ in }) {
        var s = Settings()
        settings(&s)
        machine = Machine(catalog: try! BuiltinCatalog.load(), state: StoreState(settings: s))
    }

    var state: StoreState { machine.state }

    @discardableResult
    mutating func apply(_ command: Command) throws(StoreError) -> Effects {
        let effects = try machine.apply(command, archive: archive)
        archive.absorb(effects)
        events += effects.events
        return effects
    }

    /// Buys and returns the resulting transaction.
    mutating func buy(_ id: String, user: UserID? = nil, quantity: Int = 1) throws(StoreError) -> Transaction {
        try apply(.buy(ProductID(id), user: user, quantity: quantity)).transactions.last!
    }

    var eventNames: [String] { events.map(\.name) }
}
