/// Something named does not exist (`StoreError.missing`, exit 3): what was asked for and where
/// to find what exists. `description` is the line the CLI prints after `error: `.
public enum Missing: Hashable, Sendable, CustomStringConvertible {
    public var description: String {
        switch self {
        }
    }
}
