/// How a request handler changes the store: one writing session under the store's exclusive
/// lock, in which it applies commands through `Machine.apply` (`StoreSession.apply`), so what the
/// App Store Server API changes is journalled, leaves events and is seen by the CLI exactly as a
/// CLI command's change would be.
///
/// `iapctl serve` implements it over its store (`Store.write`); a server without one answers the
/// mutating endpoints 501 after validating the request.
public protocol StoreWriting: Sendable {
    func write<R>(_ body: (StoreSession) throws -> R) throws -> R
}
