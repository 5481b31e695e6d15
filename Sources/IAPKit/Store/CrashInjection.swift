#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test hook that kills the process with SIGKILL at a chosen durability step, so tests can
/// prove that a command killed anywhere leaves the store as it was before or as after it.
///
/// Set `IAPCTL_CRASH_AT_STEP=N` (1-based): the N-th write, sync, truncate or rename the store
/// performs kills the process instead, and a write chosen this way is first done halfway (a torn
/// write). Unset, this costs one integer comparison per step.
///
/// `IAPCTL_FAIL_WRITE_AT_STEP=N` instead makes the N-th step fail as a full disk does (ENOSPC),
/// to prove a failed write leaves the store as it was and exits 74.
enum CrashInjection {
    nonisolated(unsafe) private static var failTarget: Int = {
        guard let text = getenv("IAPCTL_FAIL_WRITE_AT_STEP") else { return 0 }
        return Int(String(cString: text)) ?? 0
    }()
    nonisolated(unsafe) private static var failSteps = 0

    /// Counts one step for the full-disk hook; true when this step must fail with ENOSPC.
    static func isFailureStep() -> Bool {
        guard failTarget > 0 else { return false }
        failSteps += 1
        return failSteps == failTarget
    }

    nonisolated(unsafe) private static var target: Int = {
        guard let text = getenv("IAPCTL_CRASH_AT_STEP") else { return 0 }
        return Int(String(cString: text)) ?? 0
    }()
    nonisolated(unsafe) private static var steps = 0

    /// Counts one step; true when this step is the one to crash at.
    static func isCrashStep() -> Bool {
        guard target > 0 else { return false }
        steps += 1
        return steps == target
    }

    static func crash() -> Never {
        kill(getpid(), SIGKILL)
        _exit(137)
    }

    /// Call before a durability step that is not a write.
    static func step() {
        if isCrashStep() { crash() }
    }
}
