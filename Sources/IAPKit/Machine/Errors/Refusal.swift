/// A state change the lifecycle forbids (`StoreError.refused`, exit 4): the value at fault and
/// how to get past it. `description` is the line the CLI prints after `error: `.
public enum Refusal: Hashable, Sendable, CustomStringConvertible {
    // MARK: - The store

    /// `createStore` on a state that already has history.
    case storeHasHistory

    public var description: String {
        switch self {
        case .storeHasHistory:
            return "the store already exists: a store is created once, before its first event (replace it with 'iapctl init --force')"
        }
    }
}
