#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that is only read and written while one `pthread_mutex_t` is held: the one lock behind
/// the mutable state of every runtime class (``LazyReference``, ``LazyList``, ``InMemoryModelStore``).
///
/// Why not `Synchronization.Mutex`: on Linux its contended path hands the lock over inside the
/// kernel (`FUTEX_LOCK_PI`/`FUTEX_UNLOCK_PI` in an uninstrumented library), which ThreadSanitizer
/// cannot see, so `swift test --sanitize=thread` reported races between accesses that the lock does
/// order. ThreadSanitizer intercepts `pthread_mutex_lock`/`unlock`, so with this lock its reports are
/// real ones.
///
/// Thread-safety: `Sendable` (checked by hand): `value` is only reached inside ``withLock(_:)``.
final class Locked<Value: Sendable>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// A lock guarding `value`.
  init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value and returns its result. Not reentrant: `body`
  /// must not call `withLock` on the same lock.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
