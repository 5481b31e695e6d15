import IAPTime

/// The last date a store may hold, enforced for every command.
///
/// Receipts and RFC 3339 write four-digit years, so a date after ``Machine/latestClock`` would be
/// written as year 0000 (and fail verification). `clock advance` and `clock set` refuse such a
/// target before they start; every other way a date moves forward (the clock step of a payment
/// or restore, a subscription period, a renewal on the way of a clock advance) is checked after
/// the command has run, and the command is refused with the state as it was.
extension Machine {
    /// From this clock on (or for a clock move to this date or later), ``apply(_:archive:)``
    /// keeps the state it started from so that it can refuse a command afterwards: eleven years before the limit covers the longest date a
    /// command can make (ten one-year non-renewing subscriptions bought at once) with room to
    /// spare. Earlier, no command can reach the limit and nothing is kept.
    static let dateLimitWatch = Timestamp(milliseconds: latestClock.milliseconds - 11 * 366 * 86_400_000)

    /// Whether `command` could leave a date past the limit: the clock is already near it, or the
    /// command moves the clock near it (one `clock set` can jump there from today).
    func watchesDateLimit(_ command: Command) -> Bool {
        if state.clock >= Machine.dateLimitWatch { return true }
        if case .advanceClock(let target) = command { return target >= Machine.dateLimitWatch }
        return false
    }

    /// Why the command that produced `effects` would leave a date past the limit, or nil.
    func dateLimitProblem(_ effects: Effects, clockBefore: Timestamp) -> StoreError? {
        if state.clock > Machine.latestClock {
            let step = ClockDuration.shortForm(milliseconds: state.settings.clockStepMilliseconds)
            return .refused(.clockPastLimit(limit: Machine.latestClock, at: clockBefore, step: step))
        }
        for t in effects.transactions {
            guard let expires = t.expiresDate, expires > Machine.latestClock else { continue }
            let what = "\(t.reason == .renewal ? "the renewal" : "the purchase") of \(t.productID) at \(t.date.rfc3339)"
            let fix =
                t.reason == .renewal
                ? "stop the clock earlier, or turn auto-renew off first ('iapctl auto-renew off \(t.productID)')"
                : "buy it at an earlier date"
            return .refused(.expiresPastLimit(what: what, limit: Machine.latestClock, fix: fix))
        }
        return nil
    }
}
