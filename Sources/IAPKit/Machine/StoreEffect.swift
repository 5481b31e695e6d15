/// A change to the store directory beyond the journal that a command's apply asks for: data, not
/// I/O. The machine never touches files; `StoreSession.apply` carries these out right after the
/// commit that records them, so no command has to remember to (TCA: effects are values the
/// reducer returns and one runtime runs).
///
/// Extension point: a new kind of file the store keeps for a transaction gets a case here and a
/// line in `StoreSession.interpret`.
public enum StoreEffect: Hashable, Sendable {
    /// A hosted download was cancelled or failed: its copy under `<store>/content` goes (a
    /// cancelled download keeps nothing, as DYFStoreKit removes its files).
    case removeDownloadCopy(TransactionID, content: String)
}
