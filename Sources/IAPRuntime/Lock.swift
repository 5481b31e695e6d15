#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutex and its condition variable, on pthreads: what the server's threads share (NSLock and
/// NSCondition without Foundation, so the shipped `iapctl` links none).
public final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits for `broadcast`; call with the lock held (it is held again on return).
    public func wait() { pthread_cond_wait(condition, mutex) }
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Runs `body` with the lock held.
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A plain mutex (a `Condition` nobody waits on).
public typealias Lock = Condition

/// Starts `body` on a new detached thread with `stackSize` bytes of stack.
public func startThread(stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
        &thread, &attributes,
        { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
    precondition(started == 0, "pthread_create failed: \(started)")
}
