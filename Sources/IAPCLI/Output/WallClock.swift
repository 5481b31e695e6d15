import IAPTime

#if canImport(Glibc)
    import Glibc
#endif

/// The system's wall clock, read here and nowhere in IAPKit: the one use is verifying signed data
/// that has no signing date, which Apple's verifier checks at the current time. Everything the
/// store does runs on its simulated clock.
enum WallClock {
    static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(milliseconds: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
    }
}
