/// Bad data other than the store's own files (`StoreError.badInput`, exit 65): a receipt, a key,
/// a signed value that fails its checks, named with what is wrong. `description` is the line the
/// CLI prints after `error: `.
public enum InputProblem: Hashable, Sendable, CustomStringConvertible {
    public var description: String {
        switch self {
        }
    }
}
