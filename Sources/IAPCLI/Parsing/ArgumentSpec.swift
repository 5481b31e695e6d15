/// The declaration of one positional argument, such as `<ID>` or `<TXID> ...`.
///
/// Arguments bind in declaration order: required ones first, then optional ones, and at most one
/// variadic argument, last, which takes every remaining word (``CommandSpec/problems`` checks this).
struct ArgumentSpec: Equatable, Sendable {
    /// The name shown between angle brackets and used to read the value: `ID` for `<ID>`.
    let name: String
    let help: String
    /// An optional argument may be left out; a missing required one is a usage error.
    let isOptional: Bool
    /// A variadic argument takes all remaining words (zero or more if optional, else one or more).
    let isVariadic: Bool

    init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isVariadic = variadic
    }

    /// `<ID>`: the form used in messages and help rows.
    var label: String { "<\(name)>" }

    /// `<ID>`, `[<KEY>]`, `<TXID> ...` or `[<TXID> ...]`: the form used in usage lines.
    var usage: String {
        let core = isVariadic ? "\(label) ..." : label
        return isOptional ? "[\(core)]" : core
    }
}
