/// A malformed argument caught by IAPKit (`StoreError.badArgument`, exit 64): the value and the
/// form it must take. `description` is the line the CLI prints after `error: `.
public enum ArgumentProblem: Hashable, Sendable, CustomStringConvertible {
    public var description: String {
        switch self {
        }
    }
}
