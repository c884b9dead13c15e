#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value only read and written while one `pthread_mutex_t` is held: the lock behind the API
/// client's shared tables (the HTTP exchanges, a deadline race, the real-time connection, a
/// WebSocket connection's queues).
///
/// Why not `Synchronization.Mutex`: on Linux its contended path hands the lock over inside the
/// kernel (`FUTEX_LOCK_PI`/`FUTEX_UNLOCK_PI`), which ThreadSanitizer cannot see, so
/// `swift test --sanitize=thread` reported races between accesses the lock does order (as
/// `LazyModel`'s `Locked` explains). ThreadSanitizer intercepts `pthread_mutex_lock`/`unlock`, so
/// with this lock its reports are real ones.
///
/// Thread-safety: `Sendable` (checked by hand, as `Mutex` is): the value is reached only inside
/// ``withLock(_:)``, which is never held across I/O by its callers.
final class APILock<Value>: @unchecked Sendable {
  private var value: Value
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  /// A lock guarding `value`.
  init(_ value: Value) {
    self.value = value
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value and returns its result. Not reentrant: `body`
  /// must not call `withLock` on the same lock.
  @inline(__always)
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
